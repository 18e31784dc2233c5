import assert from "node:assert/strict";
import fc from "fast-check";
import { afterRecord, atRecord, id, throwsCode } from "./_fixtures_test.ts";
import {
  createChange,
  decodeScheduleChange,
  deleteChange,
  dispatchChange,
  encodeScheduleChange,
  tryDecodeScheduleChange,
} from "./decoder.ts";
import type { ScheduleChange, ScheduleId } from "./protocol.ts";
import { formatInstant, MAX_INSTANT_MS, MIN_INSTANT_MS } from "./rfc3339.ts";

const arbId = fc.stringMatching(/^[A-Za-z0-9_-]{8,64}$/).map((s) => `sch_${s}` as ScheduleId);
const arbPrompt = fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" })
  .filter((s) => s.trim() === s && s.length > 0);
const arbAt = fc.integer({ min: MIN_INSTANT_MS, max: MAX_INSTANT_MS }).map(formatInstant);
const arbRecord = fc.oneof(
  fc.record(
    { id: arbId, kind: fc.constant("at" as const), prompt: arbPrompt, scheduledAt: arbAt },
    { noNullPrototype: true },
  ),
  fc.record({
    id: arbId,
    kind: fc.constant("after" as const),
    prompt: arbPrompt,
    afterSeconds: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    scheduledAt: arbAt,
  }, { noNullPrototype: true }),
);
const arbChange: fc.Arbitrary<ScheduleChange> = fc.oneof(
  arbRecord.map((record) => ({ version: 1 as const, op: "create" as const, record })),
  fc.tuple(fc.constantFrom("delete" as const, "dispatch" as const), arbId)
    .map(([op, id]) => ({ version: 1 as const, op, id })),
);

/** Paths to every object in a change: the change itself and, for creates, its record. */
function objectsOf(change: Record<string, unknown>): Record<string, unknown>[] {
  return "record" in change ? [change, change.record as Record<string, unknown>] : [change];
}

/** Values each field must never accept. */
const WRONG_VALUES: Readonly<Record<string, readonly unknown[]>> = {
  version: [3, 0, "1", null, true],
  op: ["update", "", "Create", null, 1],
  record: [null, [], "x", {}, 1],
  id: ["sch_short", "sch_abc+defgh", "", null, 1, ["sch_AbCd1234"]],
  kind: ["every", "cron", "", null, 1],
  prompt: ["", " x", "x ", "\tx", null, 1, ["x"]],
  afterSeconds: [0, -1, 1.5, "60", null, 2 ** 53, NaN, Infinity],
  scheduledAt: ["2030-01-01T00:00:00Z", "2030-01-01T00:00:00.000+00:00", "", null, 0],
};

Deno.test("`decodeScheduleChange()` round-trips every valid change", () => {
  fc.assert(fc.property(arbChange, (change) => {
    assert.deepEqual(decodeScheduleChange(JSON.parse(JSON.stringify(change))), change);
    assert.deepEqual(encodeScheduleChange(change), change);
    assert.deepEqual(tryDecodeScheduleChange(change), change);
  }));
});

Deno.test("`decodeScheduleChange()` rejects an extra field at every level", () => {
  fc.assert(
    fc.property(
      arbChange,
      fc.nat(),
      fc.string().filter((k) => k !== "__proto__"),
      (change, pick, key) => {
        const copy = structuredClone(change) as unknown as Record<string, unknown>;
        const objects = objectsOf(copy);
        const target = objects[pick % objects.length]!;
        fc.pre(!Object.hasOwn(target, key));
        target[key] = 1;
        throwsCode(() => decodeScheduleChange(copy), "invalid_event");
      },
    ),
  );
});

Deno.test("`decodeScheduleChange()` rejects a missing field at every level", () => {
  fc.assert(fc.property(arbChange, fc.nat(), fc.nat(), (change, pick, which) => {
    const copy = structuredClone(change) as unknown as Record<string, unknown>;
    const objects = objectsOf(copy);
    const target = objects[pick % objects.length]!;
    const keys = Object.keys(target);
    delete target[keys[which % keys.length]!];
    throwsCode(() => decodeScheduleChange(copy), "invalid_event");
  }));
});

Deno.test("`decodeScheduleChange()` rejects a mutated value of every field", () => {
  fc.assert(fc.property(arbChange, fc.nat(), fc.nat(), fc.nat(), (change, pick, which, v) => {
    const copy = structuredClone(change) as unknown as Record<string, unknown>;
    const objects = objectsOf(copy);
    const target = objects[pick % objects.length]!;
    const keys = Object.keys(target);
    const key = keys[which % keys.length]!;
    const wrong = WRONG_VALUES[key]!;
    target[key] = wrong[v % wrong.length];
    throwsCode(() => decodeScheduleChange(copy), "invalid_event");
    assert.equal(tryDecodeScheduleChange(copy), undefined);
  }));
});

Deno.test("`decodeScheduleChange()` rejects non-objects, unknown versions and ops", () => {
  const good = { version: 1, op: "delete", id: id("a") };
  for (
    const bad of [
      null,
      "x",
      [good],
      { ...good, version: 3 },
      { version: 1, op: "stop", id: id("a") },
      { ...good, version: "1" },
      { ...good, op: "update" },
      { version: 1, op: "create", record: [] },
      { version: 1, op: "create", record: { ...atRecord("a"), kind: "every" } },
      { version: 1, op: "create", record: { ...atRecord("a"), afterSeconds: 5 } },
      { version: 1, op: "create", record: { ...afterRecord("a"), kind: "at" } },
      Object.assign(Object.create({ inherited: 1 }), good),
    ]
  ) {
    throwsCode(() => decodeScheduleChange(bad), "invalid_event");
  }
  assert.deepEqual(decodeScheduleChange(Object.assign(Object.create(null), good)), good);
});

Deno.test("`decodeScheduleChange()` rejects untrimmed, empty and non-canonical values", () => {
  const cases: ReadonlyArray<Record<string, unknown>> = [
    { prompt: " padded" },
    { prompt: "padded\n" },
    { prompt: "" },
    { scheduledAt: "2030-01-01T00:00:00Z" },
    { scheduledAt: "2030-01-01T01:00:00.000+01:00" },
    { scheduledAt: "2030-02-30T00:00:00.000Z" },
    { afterSeconds: 0 },
    { afterSeconds: -5 },
    { afterSeconds: 2.5 },
    { afterSeconds: 2 ** 53 },
    { afterSeconds: "60" },
    { id: "task_12345678" },
  ];
  for (const mutation of cases) {
    const record = { ...afterRecord("a"), ...mutation };
    throwsCode(() => decodeScheduleChange({ version: 1, op: "create", record }), "invalid_event");
  }
});

Deno.test("`createChange()`, `deleteChange()` and `dispatchChange()` build decodable data", () => {
  const record = afterRecord("a");
  // New code writes version 2 for every transition (docs/recurring.md "Transitions").
  assert.deepEqual(createChange(record), { version: 2, op: "create", record });
  assert.notEqual(createChange(record).record, record);
  assert.deepEqual(deleteChange(id("a")), { version: 2, op: "delete", id: id("a") });
  assert.deepEqual(dispatchChange(id("a")), { version: 2, op: "dispatch", id: id("a") });
  throwsCode(() => createChange({ ...record, prompt: " x " }), "invalid_event");
  throwsCode(() => deleteChange("nope" as ScheduleId), "invalid_event");
  throwsCode(() => dispatchChange("nope" as ScheduleId), "invalid_event");
});
