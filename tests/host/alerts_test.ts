/**
 * The page alert stream (`GET /api/alerts?sessions=…`, README "The page"): the views of every
 * watched session that just became durable, with the session's title, never for a session not
 * watched or before a flush commits; acknowledgements broadcast; the sessions list's counts of
 * pending and late reminders (`PluginWeb.sessionCounts`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp, watchedIds } from "@chime/host";
import { schedulePlugin } from "@chime/schedule";
import { MemoryBackend } from "@chime/session/testing";
import {
  appendReminder,
  postJson,
  readSse,
  RECORD,
  reminderView,
  SCHEDULE_ID,
  scheduleWebOnly,
  testRuntime,
} from "./_helpers.ts";

Deno.test("GET /api/alerts streams the durable cards of every watched session, with titles", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ plugins: [scheduleWebOnly()], backend });
  const app = createApp(runtime);
  const { session: a } = await runtime.create({ timeZone: "UTC" });
  const { session: b } = await runtime.create({ timeZone: "UTC" });
  const { session: other } = await runtime.create({ timeZone: "UTC" });
  b.append("user-rpc", { text: "Kitchen", source: { kind: "web", clientTimeZone: "UTC" } });
  for (const s of [a, b, other]) await runtime.store.flush(s);
  assert.equal((await (await app.request("/api/client-config")).json()).alerts, true);
  const response = await app.request(`/api/alerts?sessions=${a.id},${b.id}`);
  assert.equal(response.status, 200);
  // Not watched, and rejected: nothing for either.
  appendReminder(other);
  await runtime.store.flush(other);
  // A rejected write is withdrawn (never alerted, never stored); the card made again after the
  // session resumed is the one alerted.
  backend.failNext({ op: "append", when: "before" });
  appendReminder(b);
  await assert.rejects(runtime.store.flush(b));
  const resumed = await runtime.resume(b.id);
  const seq = appendReminder(resumed);
  assert.equal(await runtime.store.flush(resumed), true);
  // The card's own tag (a made-up one is refused, tests/host/push_test.ts).
  const tag = `chime:${b.id}:${SCHEDULE_ID}@${RECORD.scheduledAt}`;
  const ack = await app.request(`/api/sessions/${b.id}/acknowledge`, postJson({ tag }));
  assert.equal(ack.status, 200);
  const messages = await readSse(response.body!, (m) => m.length >= 2);
  assert.deepEqual(messages.map((m) => m.event), ["alert", "acknowledged"]);
  const alert = messages[0]!.data as Record<string, unknown>;
  assert.equal(alert.sessionId, b.id);
  assert.equal(alert.title, "Kitchen");
  assert.equal((alert.event as { seq: number }).seq, seq);
  assert.deepEqual(alert.view, reminderView());
  assert.deepEqual(messages[1]!.data, { sessionId: b.id, tag });
  assert.equal(runtime.alerts.clientCount, 0, "the closed stream detached");
});

Deno.test("GET /api/alerts refuses malformed or too many session ids", () => {
  assert.deepEqual([...watchedIds("a,b")], ["a", "b"]);
  assert.deepEqual([...watchedIds(undefined)], []);
  assert.throws(() => watchedIds("a,b c"), /invalid_query|session ids/);
  assert.throws(() => watchedIds(Array.from({ length: 201 }, (_, i) => `s${i}`).join(",")));
});

Deno.test("the sessions list counts pending and late reminders from the plugins", async () => {
  await using runtime = await testRuntime({ plugins: [schedulePlugin()] });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  const { session: empty } = await runtime.create({ timeZone: "UTC" });
  session.append("schedule/change", { version: 1, op: "create", record: RECORD });
  session.append("schedule/change", {
    version: 1,
    op: "create",
    record: {
      id: "sch_Late12345678",
      kind: "at",
      prompt: "late one",
      scheduledAt: "2020-01-01T00:00:00.000Z",
    },
  });
  for (const s of [session, empty]) await runtime.store.flush(s);
  const rows = (await (await app.request("/api/sessions")).json()).sessions as {
    header: { id: string };
    counts?: unknown;
  }[];
  const row = (id: string) => rows.find((r) => r.header.id === id)!;
  assert.deepEqual(row(session.id).counts, { pending: 1, late: 1 });
  assert.equal(row(empty.id).counts, undefined, "no reminders: no counts");
});
