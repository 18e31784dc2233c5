import { equal } from "node:assert/strict";
import { deepEqual } from "./_deep_equal.ts";

Deno.test("deepEqual() compares JSON structurally: key order ignored, array order kept", () => {
  equal(deepEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] }), true);
  equal(deepEqual([1, 2], [2, 1]), false);
  equal(deepEqual([1], [1, 2]), false);
  equal(deepEqual([1], { 0: 1 }), false);
  equal(deepEqual({ a: 1 }, { a: 1, b: 2 }), false);
  equal(deepEqual({ a: 1, u: undefined }, { a: 1 }), true);
  equal(deepEqual("x", { x: 1 }), false);
  equal(deepEqual(null, {}), false);
});
