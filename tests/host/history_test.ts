/**
 * Attached and detached history: views only over a prefix storage proves.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp, type HistoryPage, Views } from "@chime/host";
import { scheduleViews } from "@chime/schedule";
import type { Session, SessionEvent } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { appendReminder, RECORD, reminderView, testRuntime } from "./_helpers.ts";

async function history(app: ReturnType<typeof createApp>, id: string): Promise<HistoryPage> {
  const response = await app.request(`/api/sessions/${id}/history`);
  assert.equal(response.status, 200);
  return await response.json();
}

async function setup() {
  const backend = new MemoryBackend();
  const runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  const seq = appendReminder(session);
  await runtime.store.flush(session);
  return { backend, runtime, app, session, seq };
}

function assertRawOnly(page: HistoryPage, session: Session): void {
  assert.deepEqual(page.events, session.events());
  assert.deepEqual(page.views, {});
  assert.equal(page.live, true);
}

Deno.test("attached history adds views when the stored prefix is identical", async () => {
  const { runtime, app, session, seq } = await setup();
  await using _runtime = runtime;
  const page = await history(app, session.id);
  assert.deepEqual(page.views, { [seq]: reminderView() });
  assert.equal(page.nextBefore, null);
});

Deno.test("attached history treats a missing stored delegationDepth as 0", async () => {
  const { backend, runtime, app, session, seq } = await setup();
  await using _runtime = runtime;
  const stored = backend.raw(session.id)!;
  const { delegationDepth: _, ...legacy } = stored.header;
  stored.header = legacy as typeof stored.header;
  assert.deepEqual((await history(app, session.id)).views, { [seq]: reminderView() });
});

const divergences: [string, (backend: MemoryBackend, session: Session) => void][] = [
  ["missing", (backend) => {
    // Storage answers "no such session" (e.g. the write never landed).
    Object.defineProperty(backend, "cursor", { value: () => Promise.resolve(undefined) });
  }],
  ["failed", (backend) => backend.failNext({ op: "cursor", when: "before" })],
  ["failed (event read)", (backend) => {
    Object.defineProperty(backend, "readEvents", {
      value: () => Promise.reject(new Error("disk on fire")),
    });
  }],
  ["header (origin)", (backend, session) => {
    const stored = backend.raw(session.id)!;
    stored.header = { ...stored.header, origin: "forged" };
  }],
  ["header (createdAt)", (backend, session) => {
    const stored = backend.raw(session.id)!;
    stored.header = { ...stored.header, createdAt: "2000-01-01T00:00:00.000Z" };
  }],
  ...([
    ["version", { version: 2 }],
    ["cwd", { cwd: "/elsewhere" }],
    ["lineage", { lineage: { parentId: "other", forkedThroughSeq: 0 } }],
    ["id", { id: "someone-else" }],
    ["timeZone", { timeZone: "UTC" }],
    ["timeZone missing", { timeZone: undefined }],
    ["seedLength", { seedLength: 0 }],
  ] as const).map(([field, patch]): [string, (b: MemoryBackend, s: Session) => void] => [
    `header (${field})`,
    (backend, session) => {
      const stored = backend.raw(session.id)!;
      const header = { ...stored.header, ...patch } as Record<string, unknown>;
      if ("timeZone" in patch && patch.timeZone === undefined) delete header.timeZone;
      stored.header = header as unknown as typeof stored.header;
    },
  ]),
  ["event", (backend, session) => {
    const stored = backend.raw(session.id)!;
    stored.events[0] = { ...stored.events[0]!, at: "2000-01-01T00:00:00.000Z" };
  }],
  ["longer than live", (backend, session) => {
    const stored = backend.raw(session.id)!;
    stored.events.push({
      seq: stored.events.length,
      type: "note",
      at: "2000-01-01T00:00:00.000Z",
      data: {},
    });
  }],
];

for (const [kind, diverge] of divergences) {
  Deno.test(`attached history omits views but returns raw events when inspect is ${kind}`, async () => {
    const { backend, runtime, app, session } = await setup();
    await using _runtime = runtime;
    diverge(backend, session);
    assertRawOnly(await history(app, session.id), session);
  });
}

Deno.test("a parent dispatch copied into a fork seed shows once the child's storage proves it", async () => {
  const { backend, runtime, app, session } = await setup();
  await using _runtime = runtime;
  // A fork is stored (its prefix copied inside storage) before it goes live.
  backend.hold();
  const forking = runtime.fork(session.id);
  assert.equal(runtime.store.liveSessions().length, 1, "no child before its storage exists");
  backend.release();
  const child = await forking;
  const proven = await history(app, child.id);
  assert.equal(proven.events.length, child.length);
  assert.deepEqual(proven.views, { "1": reminderView() });
});

Deno.test("detached history renders the durable prefix without activating the session", async () => {
  const { runtime, app, session, seq } = await setup();
  await using _runtime = runtime;
  const id = session.id;
  await runtime.store.close(session);
  assert.equal(runtime.store.live(id), undefined);
  const page = await history(app, id);
  assert.equal(page.live, false);
  assert.equal(page.events.length, seq + 1);
  assert.deepEqual(page.views, { [seq]: reminderView() });
  assert.equal(runtime.store.live(id), undefined, "no agent, no live session");
  const paged = await app.request(`/api/sessions/${id}/history?before=2&limit=1`);
  const body: HistoryPage = await paged.json();
  assert.deepEqual(body.events.map((e) => e.seq), [1]);
  assert.equal(body.nextBefore, 1);
  assert.equal((await app.request(`/api/sessions/${id}/history?limit=501`)).status, 400);
});

/** Counts the stored events the backend hands out, and whole-log loads. */
function countReads(backend: MemoryBackend): { events: number; loads: number } {
  const counts = { events: 0, loads: 0 };
  const readEvents = backend.readEvents.bind(backend);
  const load = backend.load.bind(backend);
  Object.defineProperty(backend, "readEvents", {
    value: async (...args: Parameters<MemoryBackend["readEvents"]>) => {
      const events = await readEvents(...args);
      counts.events += events.length;
      return events;
    },
  });
  Object.defineProperty(backend, "load", {
    value: (id: string) => {
      counts.loads++;
      return load(id);
    },
  });
  return counts;
}

Deno.test("attached history verifies incrementally: only stored events beyond the verified prefix", async () => {
  const { backend, runtime, app, session, seq } = await setup();
  await using _runtime = runtime;
  for (let i = 0; i < 300; i++) session.append("note", { i });
  await runtime.store.flush(session);
  const counts = countReads(backend);
  const whole = async () =>
    (await (await app.request(`/api/sessions/${session.id}/history?limit=500`))
      .json()) as HistoryPage;
  assert.deepEqual((await whole()).views, { [seq]: reminderView() });
  assert.equal(counts.events, session.length, "the first request verifies the stored log once");
  counts.events = 0;
  const second = appendReminder(session, "sch_Second123456");
  await runtime.store.flush(session);
  const page = await whole();
  assert.deepEqual(page.views[second], reminderView("sch_Second123456"));
  assert.equal(counts.events, 2, "only the two new stored events are read");
  assert.equal(counts.loads, 0, "the whole log is never loaded");
});

Deno.test("attached history: a divergence, header change or longer log after a verified prefix omits views", async () => {
  const cases: [string, (backend: MemoryBackend, session: Session) => void][] = [
    ["event", (backend, session) => {
      const stored = backend.raw(session.id)!;
      const last = stored.events.length - 1;
      stored.events[last] = { ...stored.events[last]!, at: "2000-01-01T00:00:00.000Z" };
    }],
    ["header", (backend, session) => {
      const stored = backend.raw(session.id)!;
      stored.header = { ...stored.header, cwd: "/forged" };
    }],
    ["longer than live", (backend, session) => {
      const stored = backend.raw(session.id)!;
      stored.events.push({ seq: stored.events.length, type: "note", at: "x", data: {} });
    }],
  ];
  for (const [kind, diverge] of cases) {
    const { backend, runtime, app, session, seq } = await setup();
    await using _runtime = runtime;
    assert.deepEqual((await history(app, session.id)).views, { [seq]: reminderView() }, kind);
    appendReminder(session, "sch_Later1234567");
    await runtime.store.flush(session);
    diverge(backend, session);
    assertRawOnly(await history(app, session.id), session);
    assertRawOnly(await history(app, session.id), session);
  }
});

async function coldSession(build: (session: Session) => void) {
  const backend = new MemoryBackend();
  const runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  build(session);
  await runtime.store.close(session);
  return { backend, runtime, app, id: session.id, counts: countReads(backend) };
}

Deno.test("detached history reads one page and the paired creates, not the whole log", async () => {
  let dispatch = 0;
  const { runtime, app, id, counts } = await coldSession((session) => {
    for (let i = 0; i < 5000; i++) session.append("note", { i });
    dispatch = appendReminder(session);
    for (let i = 0; i < 5000; i++) session.append("note", { i });
  });
  await using _runtime = runtime;
  const response = await app.request(`/api/sessions/${id}/history?before=${dispatch + 5}&limit=10`);
  const page: HistoryPage = await response.json();
  assert.deepEqual(page.events.map((e) => e.seq)[0], dispatch - 5);
  assert.deepEqual(page.views, { [dispatch]: reminderView() }, "the create is inside the page");
  assert.equal(counts.loads, 0);
  assert.equal(counts.events, 10, "the page only");
  const tail: HistoryPage = await (await app.request(`/api/sessions/${id}/history?limit=20`))
    .json();
  assert.equal(tail.events.length, 20);
  assert.equal(tail.nextBefore, 10_002 - 20);
  assert.equal(counts.events, 30);
  assert.equal(runtime.store.live(id), undefined);
});

Deno.test("detached history scans back in bounded pages only until the nearest create", async () => {
  let dispatch = 0;
  const { runtime, app, id, counts } = await coldSession((session) => {
    session.append("schedule/change", {
      version: 1,
      op: "create",
      record: { ...RECORD, prompt: "far" },
    });
    for (let i = 0; i < 3000; i++) session.append("note", { i });
    dispatch = appendReminder(session); // its own create sits right before it
    session.append("schedule/change", { version: 1, op: "dispatch", id: RECORD.id });
    for (let i = 0; i < 50; i++) session.append("note", { i });
  });
  await using _runtime = runtime;
  const page: HistoryPage = await (await app.request(`/api/sessions/${id}/history?limit=51`))
    .json();
  // The page holds only the second dispatch; its nearest same-id create is 2 events back.
  assert.deepEqual(page.views, { [dispatch + 1]: reminderView() });
  assert.ok(counts.events <= 51 + 256, `read ${counts.events} events`);
  assert.equal(counts.loads, 0);
});

Deno.test("sparse view context equals the dense presentation (random logs, forks, id reuse)", async () => {
  const views = new Views([scheduleViews]);
  const ids = ["sch_AaAaAaAa0001", "sch_BbBbBbBb0002", "sch_CcCcCcCc0003"];
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let round = 0; round < 150; round++) {
    const length = 20 + random(400);
    const events: SessionEvent[] = [];
    for (let seq = 0; seq < length; seq++) {
      const id = ids[random(ids.length)]!;
      const r = random(10);
      const data = r < 2
        ? { version: 1, op: "create", record: { ...RECORD, id, prompt: `p${seq}` } }
        : r < 4
        ? { version: 1, op: "dispatch", id }
        : r < 5
        ? { version: 1, op: "create", record: { id } } // undecodable
        : { i: seq };
      events.push({ seq, type: r < 5 ? "schedule/change" : "note", at: "x", data });
    }
    const header = {
      version: 1 as const,
      id: "s",
      cwd: "/",
      createdAt: "2030-01-01T00:00:00.000Z",
      origin: "test",
      lineage: null,
      delegationDepth: 0,
      ...(random(2) === 0 ? {} : { seedLength: random(length) }),
    };
    const dense = views.build(header, events, views.gatedSeqs(events));
    const to = 1 + random(length);
    const from = Math.max(0, to - 1 - random(60));
    const page = events.slice(from, to);
    const seqs = views.gatedSeqs(page);
    const reads: number[] = [];
    const sparse = await views.buildPage(header, page, seqs, (before, limit) => {
      reads.push(limit);
      return events.slice(Math.max(0, before - limit), before);
    });
    const expected = new Map(seqs.flatMap((s) => dense.has(s) ? [[s, dense.get(s)]] : []));
    assert.deepEqual(sparse, expected, `round ${round}`);
    assert.ok(reads.every((limit) => limit <= 16_384));
  }
});

Deno.test("a session resumed from storage starts its verification after the loaded prefix", async () => {
  const backend = new MemoryBackend();
  let id: string;
  let seq: number;
  {
    await using runtime = await testRuntime({ backend });
    const { session } = await runtime.create({ timeZone: "Europe/Paris" });
    for (let i = 0; i < 300; i++) session.append("note", { i });
    seq = appendReminder(session);
    await runtime.store.flush(session);
    id = session.id;
  }
  await using runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  await runtime.resume(id);
  const counts = countReads(backend);
  const page = await history(app, id);
  assert.deepEqual(page.views, { [seq]: reminderView() });
  assert.equal(counts.events, 0, "the loaded prefix is not read again");
  // The header is still compared on every request: a forged stored header hides the views.
  const raw = backend.raw(id)!;
  raw.header = { ...raw.header, origin: "forged" };
  assert.deepEqual((await history(app, id)).views, {});
});
