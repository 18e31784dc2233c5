/**
 * Restart lanes (docs/architecture.md#done): real child processes on a real libSQL file
 * (and once JSONL), killed with SIGKILL. The lanes run concurrently to keep wall time near the
 * longest one (≈ 22 s).
 */
import assert from "node:assert/strict";
import { scheduleReminderPresentation } from "../../schedule/presentation.ts";
import {
  changes,
  created,
  dispatched,
  events,
  frames,
  freshStorage,
  type LaneKind,
  laneKinds,
  LaneProcess,
  ON_TIME_MS,
  quiet,
  run,
  scheduledAt,
  sleep,
  type Storage,
  stored,
} from "./_lane.ts";

async function lane1(kind: LaneKind): Promise<void> {
  const storage = await freshStorage(kind);
  const id = "lane1";
  const first = await run(
    { storage, sessionId: id, create: [["stretch", 3]] },
    created(1),
    "create",
  );
  const [due] = scheduledAt(first, id);
  assert.ok(Date.now() < due!, "killed before the reminder was due");
  await sleep(due! - Date.now() + 300);
  const second = await run({ storage, sessionId: id }, dispatched(id, 1), "overdue delivery");
  const [frame] = frames(second, id);
  assert.equal(frames(second, id).length, 1);
  assert.equal(frame!.prompt, "stretch");
  assert.ok((frame!.lateBySeconds as number) >= 0);
  assert.ok(second[0]!.t > due!, "the process only started after the target: overdue at resume");
  const log = await stored(storage, id);
  const ops = log.events.filter((e) => e.type === "schedule/change").map((e) =>
    (e.data as { op: string }).op
  );
  assert.deepEqual(ops, ["create", "dispatch"], "the dispatch is durable");
  const third = await quiet({ storage, sessionId: id }, 1_500);
  assert.deepEqual(frames(third, id), [], "no delivery after a further restart");
}

async function lane2(_kind: LaneKind): Promise<void> {
  const storage: Storage = { kind: "jsonl", dir: await Deno.makeTempDir() };
  const id = "lane2";
  const create = [["tea", 6, "local"]] as const;
  const first = await run({ storage, sessionId: id, create }, created(1), "create");
  const [due] = scheduledAt(first, id);
  const [result] = events(first, id, "tool/result");
  assert.equal(
    (result!.data as { result: { kind: string } }).result.kind,
    "at",
    "implicit local at",
  );
  const second = await run({ storage, sessionId: id }, dispatched(id, 1), "on-time delivery");
  const dispatch = changes(second, id).find((c) => c.op === "dispatch")!;
  const late = Date.parse(dispatch.at) - due!;
  assert.ok(late >= 0 && late <= ON_TIME_MS, `JSONL lane fired on time (late ${late} ms)`);
  assert.equal(frames(second, id)[0]!.status, "due");
}

async function lane3(kind: LaneKind): Promise<void> {
  const storage = await freshStorage(kind);
  const [id, child] = ["lane3", "lane3child"];
  const first = await run(
    { storage, sessionId: id, create: [["parent", 3]], forkId: child },
    dispatched(id, 1),
    "parent delivery",
  );
  assert.ok(first.some((l) => l.forked === child));
  assert.deepEqual(frames(first, child), [], "the child never delivers the parent's reminder");
  assert.deepEqual(changes(first, child), []);
  const again = await quiet({ storage, sessionId: id, resumeFork: child }, 1_500);
  assert.deepEqual([...frames(again, id), ...frames(again, child)], []);
}

async function lane4(kind: LaneKind): Promise<void> {
  const storage = await freshStorage(kind);
  const id = "lane4";
  const lines = await run(
    { storage, sessionId: id, create: [["water", 2]], model: "fail" },
    (l) => dispatched(id, 1)(l) && events(l, id, "turn/end").length >= 2,
    "failed follow-up turn",
  );
  const ends = events(lines, id, "turn/end").map((e) => (e.data as { outcome: string }).outcome);
  assert.equal(ends.at(-1), "error", "the model failed after the dispatch");
  const log = await stored(storage, id);
  const dispatch = log.events.find((e) => (e.data as { op?: string }).op === "dispatch")!;
  const view = scheduleReminderPresentation(log.header, log.events, dispatch.seq);
  assert.equal(view?.prompt, "water");
  assert.equal(view?.occurrenceAt, new Date(scheduledAt(lines, id)[0]!).toISOString());
}

async function lane5(kind: LaneKind): Promise<void> {
  const storage = await freshStorage(kind);
  const id = "lane5";
  const create: [string, number][] = [["c", 4], ["a", 2], ["b", 3]];
  const first = await run({ storage, sessionId: id, create }, created(3), "three creates");
  await sleep(Math.max(...scheduledAt(first, id)) - Date.now() + 300);
  const second = await run({ storage, sessionId: id }, dispatched(id, 3), "three deliveries");
  assert.deepEqual(frames(second, id).map((f) => f.prompt), ["a", "b", "c"]);
  assert.equal(events(second, id, "followup").length, 3, "one follow-up each");
}

async function lane6(kind: LaneKind): Promise<void> {
  const storage = await freshStorage(kind);
  const id = "lane6";
  const first = await run(
    { storage, sessionId: id, create: [["later", 20]] },
    created(1),
    "create",
  );
  const [due] = scheduledAt(first, id);
  await using lane = new LaneProcess({ storage, sessionId: id });
  await lane.waitFor(dispatched(id, 1), "delivery with no traffic", 30_000);
  const dispatch = changes(lane.lines, id).find((c) => c.op === "dispatch")!;
  const late = Date.parse(dispatch.at) - due!;
  assert.ok(
    late >= 0 && late <= ON_TIME_MS,
    `fired on time after a quiet resume (late ${late} ms)`,
  );
  assert.deepEqual(events(lane.lines, id, "tool/result"), [], "nothing else happened");
}

for (const kind of laneKinds()) {
  Deno.test(`restart lanes on ${kind}: SIGKILL, resume, fork, model failure, overdue order, quiet resume`, async () => {
    // lane2 is the JSONL lane: it runs once, beside the private libSQL file.
    const lanes = kind === "libsql"
      ? { lane1, lane2, lane3, lane4, lane5, lane6 }
      : { lane1, lane3, lane4, lane5, lane6 };
    const results = await Promise.allSettled(Object.values(lanes).map((lane) => lane(kind)));
    const failures = results.flatMap((r, i) =>
      r.status === "rejected" ? [`${Object.keys(lanes)[i]}: ${r.reason?.stack ?? r.reason}`] : []
    );
    assert.deepEqual(failures, []);
  });
}
