import assert from "node:assert/strict";
import { afterRecord, atRecord, day, id, seriesRecord, throwsCode, v2 } from "./_fixtures_test.ts";
import {
  createChange,
  decodeScheduleChange,
  dispatchChange,
  occurrenceChange,
  stopChange,
  updateChange,
} from "./decoder.ts";
import { isRecurringDispatch } from "./protocol.ts";

const snoozeOf = { id: id("a"), occurrenceAt: day(0) };

Deno.test("version 2 decodes every transition of docs/recurring.md", () => {
  const changes = [
    v2.create(seriesRecord("a")),
    v2.create(seriesRecord("b", { catchUpSeconds: 3600 })),
    v2.create({ ...atRecord("c"), snoozeOf }),
    v2.create({ ...afterRecord("d"), snoozeOf }),
    v2.update(atRecord("a")),
    v2.remove("a"),
    v2.stop("a"),
    v2.dispatch("a"),
    v2.occurrence("dispatch", "a", day(0), day(1), 2),
    v2.occurrence("dispatch", "a", day(0), null),
    v2.occurrence("skip", "a", day(0), day(1), 0),
  ];
  for (const change of changes) {
    assert.deepEqual(decodeScheduleChange(JSON.parse(JSON.stringify(change))), change);
  }
  assert.ok(isRecurringDispatch(changes[8] as never));
  assert.ok(!isRecurringDispatch(changes[7] as never));
});

Deno.test("version 2 refuses extra, missing and malformed fields", () => {
  const series = seriesRecord("a") as unknown as Record<string, unknown>;
  const bad: unknown[] = [
    { version: 2, op: "create", record: { ...series, extra: 1 } },
    { version: 2, op: "create", record: { ...series, rrule: undefined } },
    { version: 2, op: "create", record: { ...series, rrule: "FREQ=DAILY;BYMINUTE=0;BYHOUR=9" } },
    { version: 2, op: "create", record: { ...series, rrule: "FREQ=SECONDLY" } },
    { version: 2, op: "create", record: { ...series, rrule: 5 } },
    { version: 2, op: "create", record: { ...series, dtstart: "2030-01-01T09:00" } },
    { version: 2, op: "create", record: { ...series, timeZone: "utc" } },
    { version: 2, op: "create", record: { ...series, timeZone: "Mars/Base" } },
    { version: 2, op: "create", record: { ...series, catchUpSeconds: 0 } },
    { version: 2, op: "create", record: { ...series, snoozeOf } },
    { version: 2, op: "create", record: { ...atRecord("c"), catchUpSeconds: 5 } },
    { version: 2, op: "create", record: { ...atRecord("c"), snoozeOf: { id: id("a") } } },
    { version: 2, op: "create", record: { ...atRecord("c"), snoozeOf: [] } },
    { version: 2, op: "create", record: { ...atRecord("c"), snoozeOf: { ...snoozeOf, x: 1 } } },
    { version: 2, op: "create", record: { ...atRecord("c"), kind: "every" } },
    { version: 1, op: "create", record: seriesRecord("a") },
    { version: 1, op: "create", record: { ...atRecord("c"), snoozeOf } },
    { version: 2, op: "update", id: id("b"), record: atRecord("a") },
    { version: 2, op: "update", id: id("a") },
    { version: 2, op: "stop", id: id("a"), extra: 1 },
    { version: 2, op: "dispatch", id: id("a"), occurrenceAt: day(0), missed: 0 },
    { version: 2, op: "dispatch", id: id("a"), occurrenceAt: day(0), missed: -1, nextAt: null },
    { version: 2, op: "dispatch", id: id("a"), occurrenceAt: day(0), missed: 1.5, nextAt: null },
    { version: 2, op: "dispatch", id: id("a"), occurrenceAt: "x", missed: 0, nextAt: null },
    { version: 2, op: "dispatch", id: id("a"), occurrenceAt: day(0), missed: 0, nextAt: "x" },
    { version: 2, op: "skip", id: id("a"), occurrenceAt: day(0), missed: 0, nextAt: null },
    {
      version: 2,
      op: "skip",
      id: id("a"),
      occurrenceAt: day(0),
      missed: 0,
      nextAt: null,
      reason: "budget",
    },
    { version: 2, op: "frobnicate", id: id("a") },
  ];
  for (const data of bad) throwsCode(() => decodeScheduleChange(data), "invalid_event");
});

Deno.test("version 2 constructors build decodable data", () => {
  assert.deepEqual(updateChange(atRecord("a")), {
    version: 2,
    op: "update",
    id: id("a"),
    record: atRecord("a"),
  });
  assert.deepEqual(stopChange(id("a")), { version: 2, op: "stop", id: id("a") });
  const facts = { occurrenceAt: day(0), missed: 1, nextAt: day(2) };
  assert.deepEqual(occurrenceChange("dispatch", id("a"), facts), {
    version: 2,
    op: "dispatch",
    id: id("a"),
    ...facts,
  });
  assert.deepEqual(occurrenceChange("skip", id("a"), facts), {
    version: 2,
    op: "skip",
    id: id("a"),
    ...facts,
    reason: "catch-up-window",
  });
  assert.equal(createChange(seriesRecord("a")).version, 2);
  throwsCode(
    () => occurrenceChange("dispatch", id("a"), { ...facts, missed: -1 }),
    "invalid_event",
  );
});

Deno.test("a dispatch held for the hourly budget says `held: true` (either shape); any other held is refused", () => {
  const facts = { occurrenceAt: day(0), missed: 0, nextAt: day(2) };
  assert.deepEqual(occurrenceChange("dispatch", id("a"), facts, true), {
    version: 2,
    op: "dispatch",
    id: id("a"),
    ...facts,
    held: true,
  });
  assert.deepEqual(dispatchChange(id("a"), true), {
    version: 2,
    op: "dispatch",
    id: id("a"),
    held: true,
  });
  // A skip is never held: the flag is not written.
  assert.equal("held" in occurrenceChange("skip", id("a"), facts, true), false);
  for (const held of [false, "true", 1, null]) {
    throwsCode(
      () => decodeScheduleChange({ version: 2, op: "dispatch", id: id("a"), held }),
      "invalid_event",
    );
    throwsCode(
      () => decodeScheduleChange({ version: 2, op: "dispatch", id: id("a"), ...facts, held }),
      "invalid_event",
    );
  }
  // Version 1 has no such field.
  throwsCode(
    () => decodeScheduleChange({ version: 1, op: "dispatch", id: id("a"), held: true }),
    "invalid_event",
  );
});

Deno.test("the calendar forms decode in canonical spelling only; a never-occurring rule is read as written", () => {
  for (
    const rrule of [
      "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=9;BYMINUTE=0",
      "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
      "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
      "FREQ=DAILY;BYMONTH=12",
    ]
  ) {
    const change = v2.create(seriesRecord("a", { rrule }));
    assert.deepEqual(decodeScheduleChange(JSON.parse(JSON.stringify(change))), change, rrule);
  }
  // Another spelling of the same rule (BYMONTH after BYDAY) is not the stored form.
  throwsCode(
    () =>
      decodeScheduleChange(
        v2.create(seriesRecord("a", { rrule: "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3" })),
      ),
    "invalid_event",
  );
  // Refused at creation (rule_never_occurs), yet a log that holds one still decodes.
  const never = v2.create(seriesRecord("a", { rrule: "FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30" }));
  assert.deepEqual(decodeScheduleChange(never), never);
});
