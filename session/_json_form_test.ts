import assert from "node:assert/strict";
import fc from "fast-check";
import { NOT_PLAIN, plainJsonCopy } from "./_json_form.ts";
import { Session } from "./session.ts";
import { header } from "../tests/session/_helpers.ts";

/** What `Session.append` stored before the one-pass copy: the JSON round trip, or a throw. */
function roundTrip(value: unknown): { text: string; json: unknown } | "throws" {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    return "throws";
  }
  return text === undefined ? "throws" : { text, json: JSON.parse(text) };
}

function deepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deepFrozen);
}

// Values with everything JSON treats specially: -0, NaN, ±Infinity, undefined members and holes,
// lone surrogates, "__proto__" keys, null prototypes, boxed values, Dates, Maps, BigInts.
const anyValue = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
  key: fc.oneof(fc.string(), fc.constantFrom("__proto__", "toJSON", "1", "-0", "")),
});

Deno.test("`Session.append()` stores exactly the JSON round trip of any value, frozen", () => {
  fc.assert(
    fc.property(anyValue, (value) => {
      const session = new Session({ header: header("s"), now: () => 0 });
      let text: string | undefined;
      using _ = session.subscribe((_e, _s, t) => (text = t));
      const expected = roundTrip(value);
      if (expected === "throws") {
        assert.throws(() => session.append("note", value), TypeError);
        assert.equal(session.length, 0);
        return;
      }
      const event = session.append("note", value);
      assert.deepStrictEqual(event.data, expected.json);
      assert.equal(text, expected.text);
      assert.ok(deepFrozen(event));
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("`plainJsonCopy()` copies plain data in one pass and leaves the rest to the round trip", () => {
  const cycle: Record<string, unknown> = { a: 1 };
  cycle.self = cycle;
  let deep: unknown = 0;
  for (let i = 0; i < 100; i++) deep = [deep];
  const withToJson = { toJSON: () => 1 };
  const array = Object.assign([1], { toJSON: () => 2 });
  for (
    const value of [
      undefined,
      () => 1,
      Symbol("s"),
      1n,
      new Date(0),
      withToJson,
      array,
      cycle,
      deep,
      new (class Point {
        x = 1;
      })(),
      Object.assign(Object.create({ inherited: 1 }), { own: 1 }),
      JSON.parse('{"__proto__": 1}'),
      [1n],
      { a: new Map() },
      Object.setPrototypeOf([1], Object.prototype),
    ]
  ) {
    assert.equal(plainJsonCopy(value), NOT_PLAIN, String(value));
  }
  const plain = { b: [1, -0, NaN, undefined, () => 1, "x"], a: { c: null, u: undefined }, 2: true };
  const copy = plainJsonCopy(plain);
  assert.deepStrictEqual(copy, JSON.parse(JSON.stringify(plain)));
  assert.equal(JSON.stringify(copy), JSON.stringify(plain));
  assert.ok(deepFrozen(copy));
  assert.deepStrictEqual(plainJsonCopy(Object.assign(Object.create(null), { k: [2] })), { k: [2] });
});
