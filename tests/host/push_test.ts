/**
 * Web Push while a session is live (docs/push.md), against a real local push service that
 * decrypts what the host sends (RFC 8291, `./_push_service.ts`): the payload of a durable
 * reminder card, one push per occurrence, a `410 Gone` removing the subscription, a hanging
 * service delaying no dispatch, nothing for a cold session, nothing for a rejected flush, the
 * keys generated once with mode 0600, unsubscribe, and the close message of an acknowledgement.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp } from "@chime/host";
import { type PushPlugin, pushPlugin } from "@chime/push";
import { schedulePlugin } from "@chime/schedule";
import { FakeClock, flushMicrotasks, MemoryBackend } from "@chime/session/testing";
import type { Session } from "@chime/session";
import {
  appendReminder,
  postJson,
  RECORD,
  SCHEDULE_ID,
  scheduleWebOnly,
  testRuntime,
} from "./_helpers.ts";
import { startPushService, type TestSubscription } from "./_push_service.ts";

async function settled(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

async function subscribe(
  app: ReturnType<typeof createApp>,
  id: string,
  sub: TestSubscription,
  lang = "en",
): Promise<Response> {
  return await app.request(
    `/api/sessions/${id}/push/subscribe`,
    postJson({ subscription: sub.json, lang }),
  );
}

async function setup(options: { timeoutMs?: number; dir?: string } = {}) {
  const dir = options.dir ?? await Deno.makeTempDir();
  const push = pushPlugin({ dir, timeoutMs: options.timeoutMs ?? 5_000 });
  const backend = new MemoryBackend();
  const runtime = await testRuntime({ plugins: [scheduleWebOnly(), push], backend });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  session.append("user-rpc", {
    text: "Morning routine",
    source: { kind: "web", clientTimeZone: "UTC" },
  });
  await runtime.store.flush(session);
  return {
    dir,
    push,
    backend,
    runtime,
    app,
    session,
    async [Symbol.asyncDispose]() {
      await push[Symbol.asyncDispose]();
      await runtime[Symbol.asyncDispose]();
    },
  };
}

Deno.test("a durable reminder card is pushed once, encrypted as RFC 8291, with its actions", async () => {
  await using service = await startPushService();
  await using t = await setup();
  const sub = await service.subscription("a");
  const keyAnswer = await t.app.request(`/api/sessions/${t.session.id}/push`);
  const { publicKey } = await keyAnswer.json() as { publicKey: string };
  assert.equal((await subscribe(t.app, t.session.id, sub)).status, 200);
  const seq = appendReminder(t.session);
  assert.equal(service.received.length, 0);
  await t.runtime.store.flush(t.session);
  await service.waitFor(1);
  assert.deepEqual(service.failures, []);
  const [got] = service.received;
  assert.equal(got!.vapidKey, publicKey, "signed with the key the page subscribed with");
  assert.equal(got!.headers.get("content-encoding"), "aes128gcm");
  const id = encodeURIComponent(t.session.id);
  assert.deepEqual(got!.message, {
    type: "show",
    tag: `chime:${t.session.id}:${SCHEDULE_ID}@${RECORD.scheduledAt}`,
    title: "Reminder — Morning routine",
    body: "stretch",
    sessionId: t.session.id,
    seq,
    url: `/#/s/${id}`,
    ack: `/api/sessions/${id}/acknowledge`,
    lang: "en",
    actions: [
      {
        action: "snooze",
        title: "Snooze 10 min",
        url: `/api/sessions/${id}/reminders/${SCHEDULE_ID}/snooze`,
        body: { seconds: 600 },
      },
      { action: "open", title: "Open" },
    ],
  });
  // Another flush covers nothing new; the same occurrence is never pushed twice.
  await t.runtime.store.flush(t.session);
  t.session.append("schedule/change", { version: 1, op: "dispatch", id: SCHEDULE_ID });
  await t.runtime.store.flush(t.session);
  await settled();
  await t.push.idle();
  assert.equal(service.received.length, 1);
  // The private key is stored with mode 0600, and generated once: a new process reads it back.
  for (const name of ["vapid.json", "subscriptions.json"]) {
    assert.equal((await Deno.stat(`${t.dir}/${name}`)).mode! & 0o777, 0o600, name);
  }
  await using again = await setup({ dir: t.dir });
  const reread = await again.app.request(`/api/sessions/${again.session.id}/push`);
  assert.deepEqual(await reread.json(), { publicKey });
});

Deno.test("a 410 Gone removes the subscription; unsubscribe removes it too", async () => {
  await using service = await startPushService();
  await using t = await setup();
  const gone = await service.subscription("gone", "gone");
  const kept = await service.subscription("kept");
  await subscribe(t.app, t.session.id, gone);
  await subscribe(t.app, t.session.id, kept, "zh");
  const stored = async () => (await t.push.subscriptions()).all.map((s) => s.endpoint);
  assert.deepEqual(await stored(), [gone.json.endpoint, kept.json.endpoint]);
  appendReminder(t.session);
  await t.runtime.store.flush(t.session);
  await service.waitFor(1);
  await t.push.idle();
  await (await t.push.subscriptions()).flushed();
  assert.deepEqual(await stored(), [kept.json.endpoint], "the gone one is forgotten");
  const file = JSON.parse(await Deno.readTextFile(`${t.dir}/subscriptions.json`));
  assert.deepEqual(file.subscriptions.map((s: { endpoint: string }) => s.endpoint), [
    kept.json.endpoint,
  ]);
  assert.equal(service.received[0]!.message.title, "提醒 — Morning routine", "in its language");
  const off = await t.app.request(
    `/api/sessions/${t.session.id}/push/unsubscribe`,
    postJson({ endpoint: kept.json.endpoint }),
  );
  assert.deepEqual(await off.json(), { removed: true });
  assert.deepEqual(await stored(), []);
});

Deno.test("a hanging push service delays no dispatch and no other push", async () => {
  await using service = await startPushService();
  await using t = await setup({ timeoutMs: 60_000 });
  await subscribe(t.app, t.session.id, await service.subscription("stuck", "hang"));
  await subscribe(t.app, t.session.id, await service.subscription("fine"));
  appendReminder(t.session);
  assert.equal(await t.runtime.store.flush(t.session), true);
  await service.waitFor(1);
  assert.equal(service.hanging(), 1, "the stuck request is still open");
  // The next reminder commits and is pushed while the first request still hangs.
  appendReminder(t.session, "sch_Second123456");
  assert.equal(await t.runtime.store.flush(t.session), true);
  await service.waitFor(2);
  assert.equal(service.hanging(), 2);
  assert.deepEqual(service.received.map((r) => r.message.body), ["stretch", "stretch"]);
});

Deno.test("a rejected flush pushes nothing until a later flush commits the dispatch", async () => {
  await using service = await startPushService();
  await using t = await setup();
  await subscribe(t.app, t.session.id, await service.subscription("a"));
  t.backend.failNext({ op: "append", when: "before" });
  t.backend.failNext({ op: "append", when: "before" });
  appendReminder(t.session);
  await assert.rejects(t.runtime.store.flush(t.session));
  await settled();
  await t.push.idle();
  assert.equal(service.received.length, 0, "nothing before session/flushed covers it");
  assert.equal(await t.runtime.store.flush(t.session), true);
  await service.waitFor(1);
  assert.equal(service.received[0]!.message.body, "stretch");
});

Deno.test("acknowledging a notification sends a close message to the session's subscriptions", async () => {
  await using service = await startPushService();
  await using t = await setup();
  await subscribe(t.app, t.session.id, await service.subscription("a"));
  const tag = `chime:${t.session.id}:${SCHEDULE_ID}@${RECORD.scheduledAt}`;
  const ack = await t.app.request(`/api/sessions/${t.session.id}/acknowledge`, postJson({ tag }));
  assert.equal(ack.status, 200);
  await service.waitFor(1);
  assert.deepEqual(service.received[0]!.message, { type: "close", tag });
  const bad = await t.app.request(`/api/sessions/${t.session.id}/acknowledge`, postJson({}));
  assert.equal(bad.status, 400);
  const unknown = await t.app.request(`/api/sessions/nope/acknowledge`, postJson({ tag }));
  assert.equal(unknown.status, 404);
});

Deno.test("the subscribe route refuses bad subscriptions and unknown sessions, storing nothing", async () => {
  await using service = await startPushService();
  await using t = await setup();
  const sub = await service.subscription("a");
  const post = (body: unknown, id = t.session.id) =>
    t.app.request(`/api/sessions/${id}/push/subscribe`, postJson(body));
  const cases: [unknown, string][] = [
    [{}, "subscription"],
    [{ subscription: { ...sub.json, endpoint: "http://example.com/x" } }, "endpoint"],
    [{ subscription: { ...sub.json, keys: { p256dh: "AAAA", auth: sub.json.keys.auth } } }, "keys"],
    [{ subscription: sub.json, lang: "fr" }, "lang"],
  ];
  for (const [body, field] of cases) {
    const answer = await post(body);
    assert.equal(answer.status, 400);
    assert.equal((await answer.json()).error.field, field);
  }
  assert.equal((await post({ subscription: sub.json }, "no-such-session")).status, 404);
  assert.deepEqual((await t.push.subscriptions()).all, []);
});

Deno.test("a cold session pushes nothing; once resumed, its late reminder is pushed once", async () => {
  await using service = await startPushService();
  const START = Date.parse("2030-01-01T00:00:00.000Z");
  using clock = new FakeClock(START);
  const dir = await Deno.makeTempDir();
  const backend = new MemoryBackend();
  const open = (push: PushPlugin) =>
    testRuntime({
      backend,
      clock,
      modelSettings: { kind: "offline", reason: "test" },
      plugins: [schedulePlugin({ clock }), push],
    });
  let id: string;
  {
    await using push = pushPlugin({ dir });
    await using runtime = await open(push);
    const { session } = await runtime.create({ timeZone: "UTC" });
    id = session.id;
    const app = createApp(runtime);
    assert.equal((await subscribe(app, id, await service.subscription("a"))).status, 200);
    const agent = await runtime.agentFor(session);
    agent.submit({
      text: "remind me in 1 minute to stretch",
      source: { kind: "web", clientTimeZone: "UTC" },
    });
    await until(session, "create");
    await runtime.store.flush(session);
  }
  // A new host process on the same storage: the session stays cold, its reminder comes due.
  await using push = pushPlugin({ dir });
  await using runtime = await open(push);
  await clock.advance(120_000);
  for (let i = 0; i < 50; i++) await flushMicrotasks();
  await settled();
  await push.idle();
  assert.equal(service.received.length, 0, "a cold session dispatches and pushes nothing");
  const session = await runtime.resume(id);
  await clock.advance(1_000); // the owner's catch-up timer on the fake clock
  await until(session, "dispatch");
  await service.waitFor(1);
  assert.equal(service.received[0]!.message.body, "stretch");
  await settled();
  await push.idle();
  assert.equal(service.received.length, 1);
});

async function until(session: Session, op: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (
      session.events().some((e) =>
        e.type === "schedule/change" && (e.data as { op: string }).op === op
      )
    ) return;
    await flushMicrotasks();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.fail(`no ${op}`);
}
