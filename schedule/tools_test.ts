import assert from "node:assert/strict";
import { flushMicrotasks } from "@chime/session/testing";
import { T0, type World, world } from "./_harness_test.ts";
import { barrier } from "./_tx.ts";
import type { CreateChange } from "./protocol.ts";

const IN_A_MINUTE = { prompt: "stretch", after_seconds: 60 };

/** Given a turn whose messages carry `zones`, optionally with a time-context marker. */
function givenTurn(w: World, turnId: string, zones: (string | undefined)[], marker = true): void {
  const ids = zones.map((zone, i) => {
    const messageId = `${turnId}-m${i}`;
    w.store.append(w.session, "user-rpc", {
      messageId,
      text: "remind me tomorrow at nine",
      source: zone === undefined ? { kind: "web" } : { kind: "web", clientTimeZone: zone },
    });
    return messageId;
  });
  w.store.append(w.session, "turn/start", { turnId });
  w.store.append(w.session, "step/start", { turnId, step: 0, messageIds: ids });
  if (marker) w.store.append(w.session, "time-context/marker", { turnId });
}

function failFlushes(w: World): Disposable {
  return w.store.addFlushListener(w.session, () => Promise.reject(new Error("disk full")));
}

function countFlushes(w: World): { count: number } & Disposable {
  const counter = { count: 0 };
  const handle = w.store.addFlushListener(w.session, () => {
    counter.count++;
  });
  return Object.assign(counter, handle);
}

Deno.test("shape-only errors are answered before the FIFO", async () => {
  await using w = await world();
  const parked = Promise.withResolvers<void>();
  const blocker = w.fifo.run(() => parked.promise);
  const cases: [keyof World["tools"], unknown, string][] = [
    ["schedule_create", { prompt: "x", every_seconds: 5 }, "unsupported_rule"],
    ["schedule_create", { prompt: "x", cron: "* * * * *" }, "unsupported_rule"],
    ["schedule_create", { prompt: " ", after_seconds: 5 }, "invalid_arguments"],
    [
      "schedule_create",
      { prompt: "x", after_seconds: 5, at: "2030-01-01T00:00:00Z" },
      "invalid_arguments",
    ],
    ["schedule_delete", { id: "nope" }, "invalid_arguments"],
    ["schedule_list", { extra: 1 }, "invalid_arguments"],
  ];
  for (const [name, args, code] of cases) {
    const result = await w.call(name, args);
    assert.equal(result.error.code, code, JSON.stringify(args));
  }
  assert.equal(w.fifo.pending, 1);
  parked.resolve();
  await blocker;
  assert.deepEqual(w.changes(), []);
});

Deno.test("schedule_create preflights, allocates, appends create and confirms it", async () => {
  await using w = await world();
  const flushes = countFlushes(w);
  const result = await w.call("schedule_create", IN_A_MINUTE);
  assert.equal(result.ok, true);
  assert.equal(result.status, "scheduled");
  assert.equal(result.deliveryMode, "session-local");
  assert.equal(result.scheduledAt, new Date(T0 + 60_000).toISOString());
  const [change] = w.changes() as CreateChange[];
  assert.deepEqual(change, {
    version: 2,
    op: "create",
    record: {
      id: result.id,
      kind: "after",
      prompt: "stretch",
      afterSeconds: 60,
      scheduledAt: result.scheduledAt,
    },
  });
  assert.equal(flushes.count, 2);
  assert.equal(w.confirmations, 2);
  const stored = w.backend.raw(w.session.id)!.events.filter((e) => e.type === "schedule/change");
  assert.equal(stored.length, 1);
});

Deno.test("schedule_create answers persistence_uncertain and appends nothing when preflight fails", async () => {
  await using w = await world();
  using _fail = failFlushes(w);
  const result = await w.call("schedule_create", IN_A_MINUTE);
  assert.equal(result.error.code, "persistence_uncertain");
  assert.deepEqual(w.changes(), []);
  assert.equal(w.confirmations, 0);
});

Deno.test("a rejected post-append barrier is persistence_uncertain; a later list confirms the batch", async () => {
  await using w = await world();
  await w.store.flush(w.session);
  w.backend.failNext({ op: "append", when: "before" });
  w.backend.failNext({ op: "append", when: "before" });
  const created = await w.call("schedule_create", IN_A_MINUTE);
  assert.equal(created.error.code, "persistence_uncertain");
  assert.equal(w.changes().length, 1, "the create stays in the live log");
  assert.equal(w.confirmations, 1, "only the preflight was confirmed");
  const listed = await w.call("schedule_list", {});
  assert.equal(listed.ok, true);
  assert.equal(listed.schedules.length, 1);
  assert.equal(listed.schedules[0].status, "scheduled");
  assert.equal(listed.deliveryMode, "session-local");
  const stored = w.backend.raw(w.session.id)!.events.filter((e) => e.type === "schedule/change");
  assert.equal(stored.length, 1, "the retained batch is durable exactly once");
});

Deno.test("barrier() treats a non-true flush as a failure", async () => {
  const session = {} as never;
  const falsy = await barrier({ store: { flush: () => Promise.resolve(false) } as never, session });
  assert.equal(falsy.ok, false);
  const ok = await barrier({ store: { flush: () => Promise.resolve(true) } as never, session });
  assert.equal(ok.ok, true);
});

Deno.test("schedule_create never reuses an id of its own suffix, even a terminated one", async () => {
  const sequences = [0, 0, 1];
  await using w = await world({ random: (n) => new Uint8Array(n).fill(sequences.shift() ?? 2) });
  const first = await w.call("schedule_create", IN_A_MINUTE);
  assert.equal((await w.call("schedule_delete", { id: first.id })).ok, true);
  const second = await w.call("schedule_create", IN_A_MINUTE);
  assert.equal(second.ok, true);
  assert.notEqual(second.id, first.id);
});

Deno.test("list waits for earlier transactions and its own barrier, never an unconfirmed suffix", async () => {
  await using w = await world();
  await w.store.flush(w.session);
  w.backend.hold();
  let settled = 0;
  const created = w.call("schedule_create", IN_A_MINUTE).finally(() => settled++);
  const listed = w.call("schedule_list", {}).finally(() => settled++);
  await flushMicrotasks(50);
  assert.equal(settled, 0);
  w.backend.release();
  const [c, l] = await Promise.all([created, listed]);
  assert.equal(l.schedules[0].id, c.id);
});

Deno.test("list answers persistence_uncertain instead of reading an unconfirmed fold", async () => {
  await using w = await world();
  assert.equal((await w.call("schedule_create", IN_A_MINUTE)).ok, true);
  using _fail = failFlushes(w);
  assert.equal((await w.call("schedule_list", {})).error.code, "persistence_uncertain");
});

Deno.test("list derives overdue status from the decision clock", async () => {
  await using w = await world();
  await w.call("schedule_create", IN_A_MINUTE);
  await w.clock.advance(120_000);
  const listed = await w.call("schedule_list", {});
  assert.equal(listed.schedules[0].status, "overdue");
});

Deno.test("schedule_delete judges unknown and terminated ids only after its preflight", async () => {
  await using w = await world();
  const flushes = countFlushes(w);
  const unknown = await w.call("schedule_delete", { id: "sch_AAAAAAAAAAAA" });
  assert.equal(unknown.error.code, "schedule_not_found");
  assert.equal(unknown.error.id, "sch_AAAAAAAAAAAA");
  assert.equal(flushes.count, 1, "no second barrier without an append");
  const created = await w.call("schedule_create", IN_A_MINUTE);
  flushes.count = 0;
  const deleted = await w.call("schedule_delete", { id: created.id });
  assert.equal(deleted.ok, true);
  assert.equal(deleted.deleted.id, created.id);
  assert.equal(deleted.deliveryMode, "session-local");
  assert.equal(flushes.count, 2);
  assert.deepEqual(w.changes().at(-1), { version: 2, op: "delete", id: created.id });
  const again = await w.call("schedule_delete", { id: created.id });
  assert.equal(again.error.code, "schedule_not_active");
});

Deno.test("schedule_delete answers persistence_uncertain on a failed preflight or barrier", async () => {
  await using w = await world();
  const created = await w.call("schedule_create", IN_A_MINUTE);
  {
    using _fail = failFlushes(w);
    const unknown = await w.call("schedule_delete", { id: "sch_AAAAAAAAAAAA" });
    assert.equal(unknown.error.code, "persistence_uncertain");
    assert.equal(w.changes().length, 1);
  }
  w.backend.failNext({ op: "append", when: "before" });
  w.backend.failNext({ op: "append", when: "before" });
  const deleted = await w.call("schedule_delete", { id: created.id });
  assert.equal(deleted.error.code, "persistence_uncertain");
  const listed = await w.call("schedule_list", {});
  assert.deepEqual(listed.schedules, [], "the retained delete is confirmed by the next preflight");
});

Deno.test("an implicit local at needs the open turn's marker and one matching client zone", async () => {
  await using w = await world({ timeZone: "Europe/Berlin" });
  const at = { date: "2026-01-16", time: "09:00" };
  givenTurn(w, "t1", ["Europe/Berlin"]);
  const ok = await w.call("schedule_create", { prompt: "standup", at }, "t1");
  assert.equal(ok.ok, true);
  assert.equal(ok.kind, "at");
  assert.equal(ok.scheduledAt, "2026-01-16T08:00:00.000Z");

  givenTurn(w, "t2", ["Europe/Berlin", "Asia/Tokyo"]);
  const mixed = await w.call("schedule_create", { prompt: "standup", at }, "t2");
  assert.equal(mixed.error.code, "timezone_confirmation_required");
  assert.deepEqual(mixed.error.knownTimeZones, ["Europe/Berlin", "Asia/Tokyo"]);

  givenTurn(w, "t3", ["Europe/Berlin"], false);
  const noMarker = await w.call("schedule_create", { prompt: "standup", at }, "t3");
  assert.equal(noMarker.error.code, "timezone_confirmation_required");
  const otherTurn = await w.call("schedule_create", { prompt: "standup", at }, "t-unknown");
  assert.equal(otherTurn.error.code, "timezone_confirmation_required");

  givenTurn(w, "t4", ["Europe/Berlin", undefined]);
  const missing = await w.call("schedule_create", { prompt: "standup", at }, "t4");
  assert.equal(missing.error.code, "timezone_confirmation_required");

  const explicit = await w.call("schedule_create", {
    prompt: "standup",
    at: { ...at, time_zone: "Asia/Tokyo" },
  }, "t3");
  assert.equal(explicit.scheduledAt, "2026-01-16T00:00:00.000Z");
  assert.equal(w.changes().length, 2);
});

Deno.test("an RFC 3339 at in the past is not_in_future and appends nothing", async () => {
  await using w = await world();
  const past = await w.call("schedule_create", { prompt: "x", at: "2026-01-15T07:00:00Z" });
  assert.equal(past.error.code, "not_in_future");
  assert.deepEqual(w.changes(), []);
});

Deno.test("concurrent management calls serialize in arrival order", async () => {
  await using w = await world();
  const [a, b, listed] = await Promise.all([
    w.call("schedule_create", IN_A_MINUTE),
    w.call("schedule_create", { prompt: "drink", after_seconds: 30 }),
    w.call("schedule_list", {}),
  ]);
  assert.notEqual(a.id, b.id);
  assert.deepEqual(listed.schedules.map((s: { id: string }) => s.id), [a.id, b.id]);
});

Deno.test("tool specs tell the model how to use every field", async () => {
  await using w = await world();
  const create = w.tools.schedule_create;
  for (const word of ["after_seconds", "RFC 3339", "time_zone", "every_seconds", "cron"]) {
    assert.ok(create.description.includes(word), word);
  }
  assert.deepEqual(Object.keys(create.parameters.properties as object), [
    "prompt",
    "after_seconds",
    "at",
    "repeat",
  ]);
  assert.ok(create.description.includes("RRULE"));
  assert.ok(w.tools.schedule_list.description.includes("session-local"));
  assert.deepEqual(w.tools.schedule_delete.parameters.required, ["id"]);
});
