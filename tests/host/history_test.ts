/**
 * Attached and detached history: views only over a prefix storage proves.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp, type HistoryPage } from "@chime/host";
import type { Session } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { appendReminder, reminderView, testRuntime } from "./_helpers.ts";

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
    Object.defineProperty(backend, "load", { value: () => Promise.resolve(undefined) });
  }],
  ["failed", (backend) => backend.failNext({ op: "load", when: "before" })],
  ["header (origin)", (backend, session) => {
    const stored = backend.raw(session.id)!;
    stored.header = { ...stored.header, origin: "forged" };
  }],
  ["header (createdAt)", (backend, session) => {
    const stored = backend.raw(session.id)!;
    stored.header = { ...stored.header, createdAt: "2000-01-01T00:00:00.000Z" };
  }],
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
  backend.hold();
  const child = await runtime.fork(session.id);
  const page = await history(app, child.id);
  assert.equal(page.events.length, child.length);
  assert.deepEqual(page.views, {}, "the child prefix is not stored yet");
  backend.release();
  await runtime.store.flush(child);
  const proven = await history(app, child.id);
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
