/**
 * Fuzz properties of the pure schedule parts: the `schedule/change` decoder and fold
 * and the strict RFC 3339 parser. Stated so they survive new protocol versions
 * (docs/recurring.md): decoding never throws anything but `ScheduleError` and never accepts
 * what the encoder would not re-produce; the fold accepts only logs whose every
 * `schedule/change` decodes.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  decodeScheduleChange,
  encodeScheduleChange,
  foldSchedule,
  parseStrictInstant,
  ScheduleError,
  tryDecodeScheduleChange,
} from "@chime/schedule";

const IDS = ["sch_AbCd1234", "sch_AbCdEfGh1234", "sch_short", "sch_AbCd1234!", "", "x"];
const INSTANTS = [
  "2030-01-01T00:00:10.000Z",
  "2030-01-01T00:00:10Z",
  "2030-01-01T00:00:10.000+00:00",
  "2030-02-30T00:00:00.000Z",
  "1970-01-01T00:00:00.000Z",
  "9999-12-31T23:59:59.999Z",
];

const validId = fc.stringMatching(/^sch_[A-Za-z0-9_-]{8,64}$/);
const validInstant = fc.integer({ min: 0, max: 253402300799999 })
  .map((ms) => new Date(ms).toISOString());
const validPrompt = fc.string({ minLength: 1 }).filter((p) => p.trim() === p);
const validRecord = fc.oneof(
  fc.record({
    id: validId,
    kind: fc.constant("after"),
    prompt: validPrompt,
    afterSeconds: fc.integer({ min: 1 }),
    scheduledAt: validInstant,
  }),
  fc.record({
    id: validId,
    kind: fc.constant("at"),
    prompt: validPrompt,
    scheduledAt: validInstant,
  }),
);
/** Valid version 1 changes. */
const validChange: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ version: fc.constant(1), op: fc.constant("create"), record: validRecord }),
  fc.record({ version: fc.constant(1), op: fc.constantFrom("delete", "dispatch"), id: validId }),
);

type Json = Record<string, unknown>;

/** One random edit at the top level or in the record: drop, add or replace a field. */
function mutate(value: Json, edit: [number, string, unknown]): Json {
  const [where, key, replacement] = edit;
  const target: Json = where % 2 === 0 || typeof value.record !== "object"
    ? { ...value }
    : { ...(value.record as Json) };
  const keys = Object.keys(target);
  const name = where % 3 === 0 ? key : keys[where % keys.length] ?? key;
  if (where % 5 === 0) delete target[name];
  else target[name] = replacement;
  return target === value || where % 2 === 0 ? target : { ...value, record: target };
}

/** Values near the schedule/change shapes (any version), with random edits. */
export const nearChange: fc.Arbitrary<unknown> = fc.oneof(
  validChange,
  fc.tuple(validChange, fc.tuple(fc.nat(), fc.string({ maxLength: 12 }), fc.anything()))
    .map(([change, edit]) => mutate(change, edit)),
  fc.anything(),
  fc.record(
    {
      version: fc.constantFrom<unknown>(1, 2, 3, 0, "1", 1.5),
      op: fc.constantFrom("create", "delete", "dispatch", "update", "skip", "stop", "bogus"),
      id: fc.oneof(fc.constantFrom(...IDS), fc.string()),
      record: fc.record(
        {
          id: fc.oneof(fc.constantFrom(...IDS), fc.string()),
          kind: fc.constantFrom("after", "at", "recurring", "every"),
          prompt: fc.oneof(fc.constantFrom("stretch", " stretch", "", "a\u0000b"), fc.string()),
          afterSeconds: fc.oneof(fc.integer(), fc.double(), fc.constant<unknown>("10")),
          scheduledAt: fc.oneof(fc.constantFrom(...INSTANTS), fc.string()),
          rrule: fc.constantFrom("FREQ=DAILY", "FREQ=YEARLY"),
          extra: fc.anything(),
        },
        { requiredKeys: ["id", "kind", "prompt", "scheduledAt"] },
      ),
      occurrenceAt: fc.constantFrom(...INSTANTS),
      missed: fc.integer({ min: -1, max: 3 }),
      nextAt: fc.oneof(fc.constant(null), fc.constantFrom(...INSTANTS)),
    },
    { requiredKeys: ["version", "op"] },
  ),
);

/** `value` with every object rebuilt on `Object.prototype` (JSON's shape; prototypes aside). */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}

/** `decode(x) = c` ⇒ `encode(c)` deep-equals `x`; anything refused is a `ScheduleError`. */
export const decoderProperty: fc.IPropertyWithHooks<[unknown]> = fc.property(nearChange, (x) => {
  let change;
  try {
    change = decodeScheduleChange(x);
  } catch (error) {
    assert.ok(error instanceof ScheduleError, `threw ${String(error)}`);
    return;
  }
  assert.deepEqual(encodeScheduleChange(change), plain(x), "accepted a non-canonical input");
  assert.deepEqual(decodeScheduleChange(encodeScheduleChange(change)), change);
});

const logEvent = fc.record({
  type: fc.constantFrom("schedule/change", "schedule/change", "note", "user-rpc"),
  data: nearChange,
});

/**
 * The fold returns a state only for logs whose every `schedule/change` decodes, with each
 * active record created in the log; anything else is a `ScheduleError`.
 */
export const foldProperty: fc.IPropertyWithHooks<[{ type: string; data: unknown }[]]> = fc
  .property(fc.array(logEvent, { maxLength: 12 }), (raw) => {
    const events = raw.map((e, seq) => ({ seq, at: "2029-01-01T00:00:00.000Z", ...e }));
    let state;
    try {
      state = foldSchedule(events);
    } catch (error) {
      assert.ok(error instanceof ScheduleError, `threw ${String(error)}`);
      return;
    }
    const changes = events.filter((e) => e.type === "schedule/change")
      .map((e) => tryDecodeScheduleChange(e.data));
    assert.ok(changes.every((c) => c !== undefined), "accepted an undecodable change");
    const created = new Set(changes.flatMap((c) => c?.op === "create" ? [c.record.id] : []));
    for (const id of state.active.keys()) assert.ok(created.has(id), `active ${id} never created`);
  });

const two = (min: number, max: number) =>
  fc.integer({ min, max }).map((n) => String(n).padStart(2, "0"));

/** Date-time strings near the narrow profile, and arbitrary text. */
export const nearInstant: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.tuple(
    fc.oneof(fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, "0")), fc.string()),
    two(0, 13),
    two(0, 32),
    fc.constantFrom("T", "T", "t", " "),
    two(0, 24),
    two(0, 60),
    two(0, 61),
    fc.oneof(fc.constant(""), fc.stringMatching(/^\.\d{0,11}$/)),
    fc.oneof(
      fc.constantFrom("Z", "z", "", "-00:00", "+0530", "[UTC]"),
      fc.tuple(fc.constantFrom("+", "-"), two(0, 25), two(0, 61)).map(([s, h, m]) =>
        `${s}${h}:${m}`
      ),
    ),
  ).map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`),
);

const PROFILE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** An independent oracle: the profile's shape, then Temporal, minus what it tolerates. */
function oracle(text: string): number | undefined {
  if (!PROFILE.test(text) || text.slice(17, 19) === "60") return undefined;
  let ms: number;
  try {
    ms = Temporal.Instant.from(text).epochMilliseconds;
  } catch {
    return undefined;
  }
  const year = new Date(ms).getUTCFullYear();
  return year >= 0 && year <= 9999 ? ms : undefined;
}

/** `parseStrictInstant` accepts exactly the oracle's strings, with the same instant. */
export const rfc3339Property: fc.IPropertyWithHooks<[string]> = fc.property(nearInstant, (text) => {
  let ms: number | undefined;
  try {
    ms = parseStrictInstant(text);
  } catch (error) {
    assert.ok(error instanceof ScheduleError, `threw ${String(error)}`);
  }
  assert.equal(ms, oracle(text), text);
});
