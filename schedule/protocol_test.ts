import assert from "node:assert/strict";
import fc from "fast-check";
import { afterRecord, atRecord, T0 } from "./_fixtures_test.ts";
import { isScheduleId, makeScheduleId, scheduledAtMs } from "./protocol.ts";

const zeros = (n: number) => new Uint8Array(n);

Deno.test("`isScheduleId()` accepts `sch_` + 8–64 url-safe characters only", () => {
  for (const good of ["sch_AbCd1234", "sch_a-b_c-d_", `sch_${"x".repeat(64)}`]) {
    assert.equal(isScheduleId(good), true, good);
  }
  for (const bad of ["sch_1234567", `sch_${"x".repeat(65)}`, "sch_abcd+123", "SCH_abcd1234", 7]) {
    assert.equal(isScheduleId(bad), false, String(bad));
  }
});

Deno.test("`makeScheduleId()` encodes 12 injected bytes as base64url", () => {
  assert.equal(makeScheduleId(zeros), "sch_AAAAAAAAAAAAAAAA");
  assert.equal(makeScheduleId((n) => new Uint8Array(n).fill(0xff)), "sch_________________");
  assert.equal(makeScheduleId((n) => new Uint8Array(n).fill(0xfb)), "sch_-_v7-_v7-_v7-_v7");
  fc.assert(fc.property(fc.uint8Array({ minLength: 12, maxLength: 12 }), (bytes) => {
    assert.equal(isScheduleId(makeScheduleId(() => bytes)), true);
  }));
});

Deno.test("`makeScheduleId()` never returns an avoided (already seen) id", () => {
  let calls = 0;
  const random = (n: number) => new Uint8Array(n).fill(calls++ === 0 ? 0 : 1);
  const id = makeScheduleId(random, { avoid: new Set(["sch_AAAAAAAAAAAAAAAA"]) });
  assert.equal(id, "sch_AQEBAQEBAQEBAQEB");
  assert.throws(
    () => makeScheduleId(zeros, { avoid: new Set(["sch_AAAAAAAAAAAAAAAA"]) }),
    RangeError,
  );
});

Deno.test("`makeScheduleId()` refuses a short random source", () => {
  assert.throws(() => makeScheduleId(() => new Uint8Array(11)), RangeError);
});

Deno.test("`scheduledAtMs()` reads the UTC target", () => {
  assert.equal(scheduledAtMs(atRecord("a", 5)), T0 + 300_000);
  assert.equal(scheduledAtMs(afterRecord("b", 60)), T0 + 60_000);
});
