import assert from "node:assert/strict";
import { checkEvent, checkHeader, damageOf, decodeText } from "./_decode.ts";
import { SessionError } from "./errors.ts";

const corrupt = (seq?: number) => (e: unknown) =>
  e instanceof SessionError && e.code === "storage_corrupt" && e.details.sessionId === "s" &&
  e.details.seq === seq;

Deno.test("`decodeText()` accepts only bytes, strictly: a number or invalid UTF-8 is damage", () => {
  const site = { sessionId: "s", seq: 1 };
  assert.equal(decodeText(new TextEncoder().encode("ok").buffer, site, "data"), "ok");
  assert.throws(() => decodeText(5, site, "data"), corrupt(1));
  assert.throws(() => decodeText(new Uint8Array([0xc3]), site, "data"), corrupt(1));
});

Deno.test("`checkEvent()` and `checkHeader()` refuse values that are not objects", () => {
  for (const value of [null, 5, [1], "x"]) {
    assert.throws(() => checkEvent(value, "s", 3), corrupt(3));
    assert.throws(() => checkHeader(value, "s"), corrupt(undefined));
  }
  assert.throws(() => checkEvent({ seq: "0" }, "s", 0), corrupt(0));
});

Deno.test("`damageOf()` maps `storage_corrupt` and rethrows anything else", () => {
  const error = new SessionError("storage_corrupt", "x", {
    details: { sessionId: "s", what: "missing" },
  });
  assert.deepEqual(damageOf(error), { sessionId: "s", what: "missing" });
  const other = new SessionError("persistence_failed", "y");
  assert.throws(() => damageOf(other), (e) => e === other);
});
