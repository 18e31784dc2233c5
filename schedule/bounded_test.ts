// The schedule code against the bounded live session of docs/long-sessions.md: a `Session` that
// holds only a tail (`tailStart`), whose `events(from)` throws `RangeError` below it, and a store
// with the indexed `readByType`. Today's `Session` holds every event, so the tests put a view of
// that shape in front of a real session; they fail if any schedule path reads the whole log.
import assert from "node:assert/strict";
import type { AgentHandle, StepBatch, ToolContext } from "@chime/agent";
import type { EventPage, Session, SessionEvent, SessionStore } from "@chime/session";
import { create, delivered, settle, world, wrap } from "./_harness_test.ts";
import { activityHook, scheduleActivityNote } from "./_activity.ts";
import { turnProvenance } from "./_turn_zones.ts";
import { PAGE_EVENTS, walkBack } from "./_window.ts";
import { LiveSchedule } from "./live.ts";
import { readStoredChanges, storeReader, typeIndex } from "./reader.ts";
import { SCHEDULE_CHANGE } from "./protocol.ts";

const MINUTE = 60_000;

/** `session` as the bounded Session shows it: nothing in memory below `tailStart`. */
function bounded(session: Session, tailStart: number): Session {
  return new Proxy(session, {
    get(target, key) {
      if (key === "tailStart") return tailStart;
      if (key === "event") return (seq: number) => seq < tailStart ? undefined : target.event(seq);
      if (key === "events") {
        return (from = 0, to?: number) => {
          if (from < tailStart) throw new RangeError(`events(${from}) below tail ${tailStart}`);
          return target.events(from, to);
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The store as the schedule code uses it, with the indexed read of docs/long-sessions.md. */
function indexedStore(store: SessionStore, real: Session) {
  const calls = { byType: [] as { from?: number; to?: number }[], pages: 0 };
  const view = {
    flush: () => store.flush(real),
    readStored(id: string, page?: EventPage): Promise<SessionEvent[]> {
      calls.pages++;
      return store.readStored(id, page);
    },
    readByType(
      _session: Session | string,
      types: readonly string[],
      range: { from?: number; to?: number } = {},
    ): Promise<SessionEvent[]> {
      calls.byType.push(range);
      const events = real.events(range.from ?? 0, range.to ?? real.length);
      return Promise.resolve(events.filter((e) => types.includes(e.type)));
    },
  };
  return { view: view as unknown as SessionStore, calls };
}

function filler(w: { agent: { append(type: string, data: unknown): unknown } }, n: number) {
  for (let i = 0; i < n; i++) w.agent.append("assistant/message", { text: `filler ${i}` });
}

function userRpc(w: { agent: { append(type: string, data: unknown): unknown } }, id: string) {
  w.agent.append("user-rpc", {
    messageId: id,
    text: "hi",
    source: { kind: "web", clientTimeZone: "Europe/Paris" },
  });
}

Deno.test("walkBack() reads the tail from memory and older events in storage pages", async () => {
  await using w = await world();
  filler(w, 3 * PAGE_EVENTS);
  await w.store.flush(w.session);
  const tail = w.session.length - 10;
  const { view, calls } = indexedStore(w.store, w.session);
  const agent = { session: bounded(w.session, tail), store: view };
  const all: number[] = [];
  assert.equal(walkBack(agent, tail, (e) => void all.push(e.seq)), undefined, "in memory: sync");
  assert.equal(calls.pages, 0);
  const walked = walkBack(agent, 5, (e) => void all.push(e.seq));
  assert.ok(walked instanceof Promise);
  await walked;
  assert.equal(calls.pages, 3);
  const expected = w.session.events(5).map((e) => e.seq).reverse();
  assert.deepEqual(all, [...expected.slice(0, 10), ...expected]);
  const stopped: number[] = [];
  await walkBack(agent, 0, (e) => (stopped.push(e.seq), e.seq === tail - 3));
  assert.deepEqual(stopped.at(-1), tail - 3, "a visit can stop the walk inside a page");
  const lacking = { session: agent.session, store: { readStored: () => Promise.resolve([]) } };
  await assert.rejects(
    async () => await walkBack(lacking as never, 0, () => {}),
    RangeError,
  );
});

Deno.test("turn zones and the activity note read the same facts from a bounded session", async () => {
  await using w = await world({ timeZone: "Europe/Paris" });
  userRpc(w, "m-old"); // retried much later: the walk goes back to it
  w.agent.append("turn/start", { turnId: "t0" });
  w.agent.append("step/start", { turnId: "t0", step: 0, messageIds: ["m-old"] });
  filler(w, 2 * PAGE_EVENTS);
  w.agent.append("turn/end", { turnId: "t0", outcome: "completed" });
  const record = {
    id: "sch_AbCd1234",
    kind: "recurring",
    prompt: "water",
    rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
    dtstart: "2026-01-16T09:00:00",
    timeZone: "UTC",
    scheduledAt: "2026-01-16T09:00:00.000Z",
  };
  w.agent.append(SCHEDULE_CHANGE, { version: 2, op: "create", record }); // the model's own
  w.agent.append(SCHEDULE_CHANGE, { version: 2, op: "stop", id: record.id }); // a page action
  userRpc(w, "m-new");
  w.agent.append("turn/start", { turnId: "t1" });
  w.agent.append("time-context/marker", { turnId: "t1" });
  w.agent.append("step/start", { turnId: "t1", step: 0, messageIds: ["m-new"] });
  w.agent.append("step/start", { turnId: "t1", step: 1, messageIds: ["m-old", "m-new"] });
  await w.store.flush(w.session);
  const { view, calls } = indexedStore(w.store, w.session);
  const agent = { session: bounded(w.session, w.session.length - 8), store: view };
  const full = { session: w.session, store: w.store };

  const zones = await turnProvenance(agent, "t1");
  assert.deepEqual(zones, turnProvenance(full, "t1"));
  assert.deepEqual(zones, {
    sessionTimeZone: "Europe/Paris",
    clientTimeZones: ["Europe/Paris", "Europe/Paris"],
    hasTimeContextMarker: true,
  });
  assert.ok(calls.pages > 0, "the retried message lies below the tail");
  assert.deepEqual(turnProvenance(full, "t-unknown"), {
    sessionTimeZone: "Europe/Paris",
    clientTimeZones: "missing",
    hasTimeContextMarker: false,
  });

  const batch: StepBatch = { turnId: "t1", step: 0, messages: [], followups: [] };
  const note = await activityHook(batch, agent as unknown as AgentHandle);
  assert.deepEqual(note, activityHook(batch, full as unknown as AgentHandle));
  assert.deepEqual(note, [scheduleActivityNote(w.session.events(), "t1")]);
  assert.match(note![0]!, /stopped repeating reminder sch_AbCd1234/);
  assert.equal(activityHook({ ...batch, step: 1 }, agent as unknown as AgentHandle), undefined);
  const earlier = await activityHook({ ...batch, turnId: "t0" }, agent as unknown as AgentHandle);
  assert.equal(earlier, scheduleActivityNote(w.session.events(), "t0"));
});

Deno.test("the owner arms only once the live state's initial read is applied", async () => {
  await using w = await world();
  await create(w, "stretch", 60);
  const gate = Promise.withResolvers<void>();
  const { view } = indexedStore(w.store, w.session);
  const session = bounded(w.session, 0);
  const handle = wrap(w, { session, store: view });
  using _schedule = LiveSchedule.for(handle, {
    read: (s, range) => gate.promise.then(() => storeReader({})(s, range)),
  });
  const owner = await w.startOwner({ handle });
  assert.equal(owner.state, "running", "waiting for the read");
  gate.resolve();
  await settle(w.clock);
  assert.equal(owner.state, "armed");
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.deepEqual(delivered(w), ["stretch"]);
});

Deno.test("tools and owner work on a bounded session through one indexed read", async () => {
  await using w = await world({ timeZone: "Europe/Paris" });
  const early = await create(w, "early", 60);
  filler(w, 600);
  userRpc(w, "m1");
  w.agent.append("turn/start", { turnId: "t1" });
  w.agent.append("step/start", { turnId: "t1", step: 0, messageIds: ["m1"] });
  await w.store.flush(w.session);
  const { view, calls } = indexedStore(w.store, w.session);
  const session = bounded(w.session, w.session.length - 5);
  const handle = wrap(w, { session, store: view });
  const ctx = (callId: string): ToolContext => ({
    agent: handle,
    turnId: "t1",
    callId,
    signal: new AbortController().signal,
  });
  // deno-lint-ignore no-explicit-any
  const call = (name: keyof typeof w.tools, args: unknown): Promise<any> =>
    w.tools[name].execute(args, ctx(name));

  const before = w.session.length;
  const late = await call("schedule_create", { prompt: "late", after_seconds: 120 });
  assert.equal(late.ok, true);
  assert.deepEqual(calls.byType, [{ from: 0, to: before }], "one indexed build");
  assert.equal(calls.pages, 0, "the open turn lies in the tail");
  const list = await call("schedule_list", {});
  assert.deepEqual(list.schedules.map((s: { id: string }) => s.id), [early, late.id]);

  const owner = await w.startOwner({ handle });
  assert.equal(owner.state, "armed");
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.deepEqual(delivered(w), ["early"]);
  await w.clock.advance(MINUTE);
  await settle(w.clock);
  assert.deepEqual(delivered(w), ["early", "late"]);
  assert.equal(LiveSchedule.of(session)?.state.active.size, 0);
  assert.equal(calls.byType.length, 1, "never rebuilt");
  assert.deepEqual(LiveSchedule.of(session)?.activeAt(w.session.length)?.size, 0);
});

Deno.test("storeReader() and readStoredChanges() use the index when the store has one", async () => {
  await using w = await world();
  await create(w, "stretch", 60);
  filler(w, 3);
  await w.store.flush(w.session);
  const { view, calls } = indexedStore(w.store, w.session);
  assert.equal(typeIndex(w.store), w.store, "the store reads by type from its index");
  assert.equal(typeIndex({}), undefined, "a store without readByType has no index");
  assert.equal(typeIndex(view), view);
  const scanned = storeReader({})(w.session, { from: 0, to: w.session.length });
  assert.ok(Array.isArray(scanned), "the unindexed reader answers synchronously");
  const indexed = await storeReader(view)(w.session, { from: 0, to: w.session.length });
  assert.deepEqual(indexed, scanned);
  assert.deepEqual(calls.byType, [{ from: 0, to: w.session.length }]);

  const cold = { ...view, backend: w.store.backend, inspect: () => assert.fail("no full load") };
  const stored = await readStoredChanges(cold as unknown as SessionStore, w.session.id);
  assert.deepEqual(stored?.events, scanned);
  assert.deepEqual(await readStoredChanges(cold as unknown as SessionStore, "nope"), undefined);
  const fallback = await readStoredChanges(w.store, w.session.id);
  assert.deepEqual(fallback, { header: stored?.header, events: scanned });
  assert.equal(await readStoredChanges(w.store, "nope"), undefined);
});
