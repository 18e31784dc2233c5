import assert from "node:assert/strict";
import { create, settle, T0, world } from "./_harness_test.ts";
import {
  causeOf,
  type Delivered,
  deliveryAttributes,
  type PassFacts,
  pendingCount,
  recordDeliveries,
  trackOwner,
  untrackOwner,
} from "./_telemetry.ts";

const ITEM: Delivered = { id: "sch_AbCd1234", dueAt: T0, missed: 0, coalesced: false, held: false };
const PASS: PassFacts = {
  sessionId: "ses_1",
  startedAt: T0 - 60_000,
  wokeAt: T0,
  decisionNow: T0 + 5_000,
  durableAt: T0 + 5_010,
  durable: true,
  busy: false,
  stepped: false,
};

Deno.test("causeOf() names the first cause that applies: budget, cold, busy, clock, none", () => {
  assert.equal(causeOf({ ...ITEM, coalesced: true }, { ...PASS, busy: true }), "budget");
  assert.equal(causeOf({ ...ITEM, held: true }, PASS), "budget");
  assert.equal(causeOf(ITEM, { ...PASS, startedAt: T0 + 1, busy: true }), "cold");
  assert.equal(causeOf(ITEM, { ...PASS, busy: true, stepped: true }), "busy");
  assert.equal(causeOf(ITEM, { ...PASS, stepped: true }), "clock");
  assert.equal(causeOf(ITEM, PASS), "none");
});

Deno.test("deliveryAttributes() measures lateness from the due instant to admission, never negative", () => {
  assert.deepEqual(deliveryAttributes({ ...ITEM, missed: 2 }, { ...PASS, busy: true }), {
    "chime.session.id": "ses_1",
    "chime.schedule.id": "sch_AbCd1234",
    lateness_ms: 5_000,
    missed: 2,
    coalesced: false,
    cause: "busy",
    "chime.dispatch.durable": true,
  });
  const early = deliveryAttributes(ITEM, { ...PASS, decisionNow: T0 - 3, durable: false });
  assert.equal(early.lateness_ms, 0);
  assert.equal(early["chime.dispatch.durable"], false);
  // Without Deno's exporter the API is a no-op: recording never throws, durable or not.
  recordDeliveries([ITEM], PASS);
  recordDeliveries([ITEM], { ...PASS, durable: false });
});

Deno.test("pendingCount() sums the active reminders of the started owners until they stop", async () => {
  const before = pendingCount();
  await using w = await world();
  const owner = await w.startOwner();
  await create(w, "stretch", 60);
  await create(w, "tea", 120);
  assert.equal(pendingCount() - before, 2);
  await w.clock.advance(60_000);
  await settle(w.clock);
  assert.equal(pendingCount() - before, 1, "a delivered reminder is no longer pending");
  // A session whose state cannot be read counts nothing (the owner reports its own faults).
  const other = { session: {}, store: undefined } as never;
  trackOwner(other);
  assert.equal(pendingCount() - before, 1);
  untrackOwner(other);
  await owner[Symbol.asyncDispose]();
  assert.equal(pendingCount(), before);
});
