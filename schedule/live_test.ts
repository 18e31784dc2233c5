import assert from "node:assert/strict";
import fc from "fast-check";
import { Session, type SessionEvent, type SessionHeader } from "@chime/session";
import {
  afterRecord,
  atRecord,
  create,
  day,
  dispatch,
  type Entry,
  header,
  id,
  other,
  remove,
  seriesRecord,
  T0,
  v2,
} from "./_fixtures_test.ts";
import { tryDecodeScheduleChange } from "./decoder.ts";
import { foldSession, type ScheduleState } from "./fold.ts";
import { LiveSchedule } from "./live.ts";
import { SCHEDULE_CHANGE } from "./protocol.ts";
import type { ScheduleChangeReader } from "./reader.ts";

const HOUR = 3_600_000;
const TAGS = ["a", "b", "c", "d", "e", "f"];
const tag = fc.constantFrom(...TAGS);

/** Any entry over three ids, valid or not, plus foreign and undecodable events. */
const arbAny: fc.Arbitrary<Entry> = fc.oneof(
  fc.tuple(tag, fc.constantFrom("at", "after"), fc.constantFrom(1, 2)).map(([t, kind, version]) =>
    ({
      version,
      op: "create",
      record: kind === "at" ? atRecord(t) : afterRecord(t),
    }) as Entry
  ),
  tag.map((t) => v2.create(seriesRecord(t))),
  tag.map(remove),
  tag.map(dispatch),
  tag.map(v2.stop),
  tag.map((t) => v2.update(atRecord(t, 9))),
  fc.tuple(tag, fc.constantFrom<("dispatch" | "skip")[]>("dispatch", "skip"), fc.nat(4))
    .map(([t, op, n]) => v2.occurrence(op, t, day(n), day(n + 1))),
  fc.constant({ type: SCHEDULE_CHANGE, data: { version: 1, op: "create", record: {} } }),
);

/**
 * Turns intents into a log that stays valid most of the time (so the states get deep: series
 * advance, one-shots deliver, records update and end) with an occasional arbitrary entry.
 */
function build(
  intents: readonly (readonly [number, number, number, number, Entry])[],
  seed: number,
): Entry[] {
  const series = new Map<string, number>(); // active series → its current target day
  const oneShots = new Set<string>();
  const seen = new Set<string>();
  return intents.map(([op, pick, n, roll, any], i) => {
    if (i === seed) { // a fork's child folds from here: the parent's records are not its own
      series.clear();
      oneShots.clear();
      seen.clear();
    }
    if (roll < 4) return any; // may be invalid: the fold and the live state must agree anyway
    const active = [...oneShots, ...series.keys()];
    const t = active[pick % Math.max(1, active.length)];
    const fresh = TAGS.find((x) => !seen.has(x));
    if (op === 0 || t === undefined) {
      if (fresh === undefined) return other();
      seen.add(fresh);
      if (n % 3 === 0) {
        series.set(fresh, 0);
        return v2.create(seriesRecord(fresh));
      }
      oneShots.add(fresh);
      return n % 3 === 1 ? v2.create(atRecord(fresh)) : create(afterRecord(fresh));
    }
    if (op === 1) return other();
    if (op === 2) {
      oneShots.delete(t);
      series.delete(t);
      return n % 2 === 0 ? remove(t) : v2.remove(t);
    }
    if (op === 3) { // update, possibly changing the kind
      oneShots.delete(t);
      series.delete(t);
      if (n % 2 === 0) {
        series.set(t, 0);
        return v2.update(seriesRecord(t));
      }
      oneShots.add(t);
      return v2.update(atRecord(t, 9));
    }
    if (oneShots.has(t)) {
      oneShots.delete(t);
      return n % 2 === 0 ? dispatch(t) : v2.dispatch(t);
    }
    if (op === 4) {
      series.delete(t);
      return v2.stop(t);
    }
    const occurrence = series.get(t)! + (n % 3);
    const next = pick % 5 === 0 ? null : occurrence + 1 + (n % 2);
    if (next === null) series.delete(t);
    else series.set(t, next);
    const kind = op === 5 ? "skip" : "dispatch";
    return v2.occurrence(kind, t, day(occurrence), next === null ? null : day(next), n % 3);
  });
}

const arbIntents = fc.array(
  fc.tuple(fc.nat(7), fc.nat(11), fc.nat(5), fc.nat(99), arbAny),
  { maxLength: 40, size: "max" },
);

/** A log: entries, how many exist before the state is made, the fork boundary, clock steps. */
const arbLog = arbIntents.chain((intents) =>
  fc.record({
    intents: fc.constant(intents),
    prefix: fc.nat({ max: intents.length }),
    seed: fc.nat({ max: intents.length }),
    steps: fc.array(fc.nat({ max: 40 * 60_000 }), {
      minLength: intents.length,
      maxLength: intents.length,
    }),
  })
).map(({ intents, prefix, seed, steps }) => {
  const fork = Math.min(seed, prefix);
  return { entries: build(intents, fork), prefix, seed: fork, steps };
});

type Log = typeof arbLog extends fc.Arbitrary<infer L> ? L : never;

function toEvent(entry: Entry): { type: string; data: unknown } {
  return "version" in entry ? { type: SCHEDULE_CHANGE, data: entry } : entry;
}

/** A live session holding the log's prefix (a fork of `seed` events when `seed > 0`). */
function sessionOf(log: Log): { session: Session; header: SessionHeader; tick: () => void } {
  let now = T0;
  let i = 0;
  const head = header(log.seed > 0 ? log.seed : undefined);
  const events: SessionEvent[] = log.entries.slice(0, log.prefix).map((entry, seq) => ({
    seq,
    at: new Date(now += log.steps[i++]!).toISOString(),
    ...toEvent(entry),
  }));
  const session = new Session({ header: head, events, now: () => now });
  return { session, header: head, tick: () => void (now += log.steps[i++]!) };
}

function outcome(read: () => ScheduleState) {
  try {
    const state = read();
    return {
      active: [...state.active.entries()],
      terminated: [...state.terminated],
      seen: [...state.seen],
      delivered: [...state.delivered.entries()],
      quarantined: [...state.quarantined],
      held: [...state.held],
    };
  } catch (error) {
    return {
      code: (error as { code?: string }).code,
      seq: (error as { details?: unknown }).details,
    };
  }
}

function activeOutcome(read: () => ScheduleState["active"]) {
  try {
    return [...read().entries()];
  } catch (error) {
    return {
      code: (error as { code?: string }).code,
      seq: (error as { details?: unknown }).details,
    };
  }
}

/** The trailing-hour count as the owner computed it before the live state: a backward scan. */
function scanDispatches(
  events: readonly SessionEvent[],
  now: number,
  quarantined: ReadonlySet<number>,
): number[] {
  const out: number[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    const at = Date.parse(event.at);
    if (at <= now - HOUR) break;
    if (quarantined.has(event.seq)) continue; // a refused dispatch delivered nothing
    if (event.type === SCHEDULE_CHANGE && tryDecodeScheduleChange(event.data)?.op === "dispatch") {
      out.unshift(at);
    }
  }
  return out;
}

function assertSame(schedule: LiveSchedule, session: Session, head: SessionHeader): void {
  const reference = outcome(() => foldSession(head, session.events()));
  assert.deepEqual(outcome(() => schedule.state), reference);
  if ("code" in reference) return;
  const now = Date.parse(session.event(session.length - 1)?.at ?? new Date(T0).toISOString());
  const own = session.events(head.seedLength ?? 0);
  const refused = new Set(reference.quarantined.map((q: { seq: number }) => q.seq));
  assert.deepEqual(schedule.recentDispatches(now), scanDispatches(own, now, refused));
}

const noStore = { store: {} as never };

Deno.test("the live state equals the full fold after every append, forks included (property)", () => {
  fc.assert(
    fc.property(arbLog, (log) => {
      const { session, header: head, tick } = sessionOf(log);
      using schedule = LiveSchedule.for({ session, ...noStore });
      assert.ok(schedule.loaded, "an unindexed store reads synchronously");
      assertSame(schedule, session, head);
      for (const entry of log.entries.slice(log.prefix)) {
        tick();
        const { type, data } = toEvent(entry);
        session.append(type, data);
        assertSame(schedule, session, head);
      }
    }),
    { numRuns: 400 },
  );
});

Deno.test("an asynchronous read buffers the appends made while it runs (property)", async () => {
  await fc.assert(
    fc.asyncProperty(arbLog, fc.nat({ max: 24 }), async (log, during) => {
      const { session, header: head, tick } = sessionOf(log);
      const gate = Promise.withResolvers<void>();
      const reads: { from: number; to: number }[] = [];
      const read: ScheduleChangeReader = async (s, range) => {
        reads.push(range);
        const events = s.events(range.from, range.to);
        await gate.promise;
        return events.filter((e) => e.type === SCHEDULE_CHANGE);
      };
      using schedule = LiveSchedule.for({ session, ...noStore }, { read });
      assert.equal(schedule.loaded, false);
      assert.equal(schedule.activeAt(session.length), undefined, "no answer while loading");
      assert.throws(() => schedule.state, /still loading/);
      const rest = log.entries.slice(log.prefix);
      for (const entry of rest.slice(0, during)) {
        tick();
        const { type, data } = toEvent(entry);
        session.append(type, data);
      }
      schedule.settle(session.length); // ignored while loading
      gate.resolve();
      await schedule.ready;
      assert.deepEqual(reads, [{ from: log.seed > 0 ? log.seed : 0, to: log.prefix }]);
      assertSame(schedule, session, head);
      const durable = outcome(() => foldSession(head, session.events()));
      assert.deepEqual(
        activeOutcome(() => schedule.activeAt(session.length)!),
        "code" in durable ? durable : durable.active,
      );
      for (const entry of rest.slice(during)) {
        tick();
        const { type, data } = toEvent(entry);
        session.append(type, data);
        assertSame(schedule, session, head);
      }
    }),
    { numRuns: 150 },
  );
});

Deno.test("activeAt() answers as of the largest durable length it was told (property)", () => {
  fc.assert(
    fc.property(arbLog, fc.array(fc.nat(), { maxLength: 24 }), (log, marks) => {
      const { session, header: head, tick } = sessionOf(log);
      using schedule = LiveSchedule.for({ session, ...noStore });
      let cursor = 0;
      const check = (mark: number | undefined) => {
        if (mark === undefined) return;
        const length = mark % (session.length + 1);
        const settle = mark % 2 === 0;
        cursor = Math.max(cursor, length);
        const expected = outcome(() => foldSession(head, session.events(0, cursor)));
        if (settle) schedule.settle(length);
        const actual = activeOutcome(() => schedule.activeAt(length)!);
        assert.deepEqual(actual, "code" in expected ? expected : expected.active);
      };
      check(marks[0]);
      log.entries.slice(log.prefix).forEach((entry, i) => {
        tick();
        const { type, data } = toEvent(entry);
        session.append(type, data);
        check(marks[i + 1]);
      });
    }),
    { numRuns: 300 },
  );
});

Deno.test("a failed initial read makes every read throw its error; ready still settles", async () => {
  const { session } = sessionOf({ entries: [], prefix: 0, seed: 0, steps: [] });
  const boom = new Error("storage down");
  using schedule = LiveSchedule.for({ session, ...noStore }, { read: () => Promise.reject(boom) });
  await schedule.ready;
  assert.throws(() => schedule.state, boom);
  assert.throws(() => schedule.activeAt(0), boom);
  const thrown = LiveSchedule.for(
    { session: sessionOf({ entries: [], prefix: 0, seed: 0, steps: [] }).session, ...noStore },
    {
      read: () => {
        throw boom;
      },
    },
  );
  await thrown.ready;
  assert.throws(() => thrown.state, boom);
  thrown[Symbol.dispose]();
});

Deno.test("LiveSchedule.for() shares one state per session; dispose forgets it", () => {
  const { session } = sessionOf({ entries: [], prefix: 0, seed: 0, steps: [] });
  const first = LiveSchedule.for({ session, ...noStore });
  assert.equal(LiveSchedule.for({ session, ...noStore }), first);
  assert.equal(LiveSchedule.of(session), first);
  first[Symbol.dispose]();
  first[Symbol.dispose]();
  assert.equal(LiveSchedule.of(session), undefined);
  session.append(SCHEDULE_CHANGE, v2.create(atRecord("a")));
  assert.equal(first.state.active.size, 0, "a disposed state no longer follows appends");
  using second = LiveSchedule.for({ session, ...noStore });
  assert.notEqual(second, first);
  assert.deepEqual([...second.state.active.keys()], [id("a")], "rebuilt from the log");
});

Deno.test("the trailing-hour dispatch list forgets dispatches an hour older than the newest", () => {
  let now = T0;
  const session = new Session({ header: header(), now: () => now });
  using schedule = LiveSchedule.for({ session, ...noStore });
  for (let i = 0; i < 200; i++) {
    const record = { ...atRecord("x"), id: `sch_n${String(i).padStart(7, "0")}` };
    session.append(SCHEDULE_CHANGE, v2.create(record as ReturnType<typeof atRecord>));
    session.append(SCHEDULE_CHANGE, { version: 2, op: "dispatch", id: record.id });
    now += 60_000;
  }
  assert.equal(schedule.recentDispatches(now).length, 59);
  assert.equal(schedule.recentDispatches(now + HOUR).length, 0);
  assert.equal(schedule.recentDispatches(now - HOUR).length, 60, "the window never grows back");
});
