/**
 * Recurring restart lanes (docs/recurring.md "Delivery"): a real child process on a
 * real libSQL file runs a `FREQ=MINUTELY` series and is killed with SIGKILL between occurrences.
 * Every occurrence is delivered exactly once across the kills (no duplicate, no loss); a series
 * that outlived its COUNT ends with an explicit `nextAt: null`. The two lanes run concurrently
 * (≈ 70 s of wall time: one minute between occurrences is the protocol's minimum).
 */
import assert from "node:assert/strict";
import { foldSession } from "../../schedule/fold.ts";
import {
  type changes,
  dispatched,
  events,
  frames,
  freshStorage,
  type LaneKind,
  laneKinds,
  ON_TIME_MS,
  quiet,
  run,
  scheduledAt,
  sleep,
  stored,
} from "./_lane.ts";

const MINUTE = 60_000;

type Dispatch = { occurrenceAt: string; missed: number; nextAt: string | null };

function dispatches(lines: Parameters<typeof changes>[0], id: string) {
  return events(lines, id, "schedule/change")
    .filter((e) => (e.data as { op: string }).op === "dispatch")
    .map((e) => ({ at: Date.parse(e.at), ...(e.data as Dispatch) }));
}

/** Killed right after the first occurrence; the restarted process delivers the second on time. */
async function killBetween(kind: LaneKind): Promise<void> {
  const storage = await freshStorage(kind);
  const id = "rlane1";
  const create = [["blink", 3, "minutely", 2]] as const;
  const first = await run({ storage, sessionId: id, create }, dispatched(id, 1), "occurrence 1");
  const [m1] = scheduledAt(first, id);
  const [one] = dispatches(first, id);
  assert.equal(Date.parse(one!.occurrenceAt), m1);
  assert.deepEqual([one!.missed, one!.nextAt], [0, new Date(m1! + MINUTE).toISOString()]);
  assert.ok(one!.at - m1! <= ON_TIME_MS, `occurrence 1 on time (late ${one!.at - m1!} ms)`);
  const second = await run({ storage, sessionId: id }, dispatched(id, 1), "occurrence 2");
  const [two, extra] = dispatches(second, id);
  assert.equal(extra, undefined, "the restarted process delivered one occurrence");
  assert.equal(Date.parse(two!.occurrenceAt), m1! + MINUTE, "not occurrence 1 again");
  assert.deepEqual([two!.missed, two!.nextAt], [0, null], "COUNT=2: an explicit end");
  assert.ok(two!.at - (m1! + MINUTE) <= ON_TIME_MS, `occurrence 2 on time`);
  assert.equal(frames(second, id)[0]!.status, "due");
  const log = await stored(storage, id);
  const ops = log.events.filter((e) => e.type === "schedule/change")
    .map((e) => (e.data as { op: string }).op);
  assert.deepEqual(ops, ["create", "dispatch", "dispatch"]);
  assert.equal(foldSession(log.header, log.events).active.size, 0, "the series ended");
}

/** Down across an occurrence: the restart delivers it once, late; a further restart adds none. */
async function downAcross(kind: LaneKind): Promise<void> {
  const storage = await freshStorage(kind);
  const id = "rlane2";
  const create = [["drink", 3, "minutely", 3]] as const;
  const first = await run({ storage, sessionId: id, create }, dispatched(id, 1), "occurrence 1");
  const [m1] = scheduledAt(first, id);
  const m2 = m1! + MINUTE;
  await sleep(m2 - Date.now() + 2_000); // no process while occurrence 2 falls due
  const second = await run({ storage, sessionId: id }, dispatched(id, 1), "catch-up");
  assert.ok(second[0]!.t > m2, "the process started after occurrence 2");
  const [late, extra] = dispatches(second, id);
  assert.equal(extra, undefined, "one follow-up, never a burst");
  assert.equal(late!.occurrenceAt, new Date(m2).toISOString());
  assert.equal(late!.missed, 0);
  assert.equal(late!.nextAt, new Date(m2 + MINUTE).toISOString());
  assert.ok((frames(second, id)[0]!.lateBySeconds as number) >= 2);
  const third = await quiet({ storage, sessionId: id }, 1_500);
  assert.deepEqual(dispatches(third, id), [], "no second delivery of occurrence 2");
  const log = await stored(storage, id);
  const delivered = log.events.filter((e) => (e.data as { op?: string }).op === "dispatch")
    .map((e) => (e.data as Dispatch).occurrenceAt);
  assert.deepEqual(delivered, [new Date(m1!).toISOString(), new Date(m2).toISOString()]);
}

for (const kind of laneKinds()) {
  Deno.test(`recurring restart lanes on ${kind}: SIGKILL between occurrences, no duplicate, no loss`, async () => {
    const lanes = { killBetween, downAcross };
    const results = await Promise.allSettled(Object.values(lanes).map((lane) => lane(kind)));
    const failures = results.flatMap((r, i) =>
      r.status === "rejected" ? [`${Object.keys(lanes)[i]}: ${r.reason?.stack ?? r.reason}`] : []
    );
    assert.deepEqual(failures, []);
  });
}
