// The strict decoder and constructors of `pause`, `resume` and `exclude` (docs/recurring.md
// "Transitions").
import assert from "node:assert/strict";
import { day, id, seriesRecord, throwsCode } from "./_fixtures_test.ts";
import {
  decodeScheduleChange,
  encodeScheduleChange,
  excludeChange,
  pauseChange,
  resumeChange,
} from "./decoder.ts";

Deno.test("pause, resume and exclude decode exactly", () => {
  const good = [
    { version: 2, op: "pause", id: id("a") },
    { version: 2, op: "resume", id: id("a"), nextAt: day(3) },
    { version: 2, op: "exclude", id: id("a"), occurrenceAt: day(1), nextAt: day(0) },
    { version: 2, op: "exclude", id: id("a"), occurrenceAt: day(0), nextAt: null },
  ];
  for (const data of good) {
    assert.deepEqual(decodeScheduleChange(structuredClone(data)), data);
    assert.deepEqual(encodeScheduleChange(data as never), data);
  }
  assert.deepEqual(pauseChange(id("a")), good[0]);
  assert.deepEqual(resumeChange(id("a"), day(3)), good[1]);
  assert.deepEqual(excludeChange(id("a"), day(1), day(0)), good[2]);
  assert.deepEqual(excludeChange(id("a"), day(0), null), good[3]);
});

Deno.test("pause, resume and exclude refuse extra, missing and malformed fields", () => {
  const bad: unknown[] = [
    { version: 1, op: "pause", id: id("a") },
    { version: 2, op: "pause", id: id("a"), nextAt: day(0) },
    { version: 2, op: "pause", id: "nope" },
    { version: 2, op: "pause" },
    { version: 2, op: "resume", id: id("a") },
    { version: 2, op: "resume", id: id("a"), nextAt: null },
    { version: 2, op: "resume", id: id("a"), nextAt: "2030-01-01T09:00:00Z" },
    { version: 2, op: "resume", id: id("a"), nextAt: day(0), extra: 1 },
    { version: 2, op: "exclude", id: id("a"), occurrenceAt: day(0) },
    { version: 2, op: "exclude", id: id("a"), nextAt: null },
    { version: 2, op: "exclude", id: id("a"), occurrenceAt: null, nextAt: null },
    { version: 2, op: "exclude", id: id("a"), occurrenceAt: day(0), nextAt: 5 },
    { version: 2, op: "exclude", id: id("a"), occurrenceAt: day(0), nextAt: null, missed: 0 },
  ];
  for (const data of bad) throwsCode(() => decodeScheduleChange(data), "invalid_event");
  throwsCode(() => pauseChange("x" as never), "invalid_event");
  throwsCode(() => resumeChange(id("a"), "tomorrow"), "invalid_event");
  throwsCode(() => excludeChange(id("a"), "x", null), "invalid_event");
});

Deno.test("a create or update record never carries the folded-only paused or exdates", () => {
  for (const extra of [{ paused: true }, { exdates: [day(1)] }, { exdates: [] }]) {
    const record = seriesRecord("a", extra);
    throwsCode(() => decodeScheduleChange({ version: 2, op: "create", record }), "invalid_event");
    throwsCode(
      () => decodeScheduleChange({ version: 2, op: "update", id: id("a"), record }),
      "invalid_event",
    );
  }
});
