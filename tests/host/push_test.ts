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
import { b64url, startPushService, type TestSubscription } from "./_push_service.ts";

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

/**
 * A host with the push plugin. The local push service is plain `http:` on loopback, which the
 * plugin refuses unless its origin is listed in `allowedOrigins` (docs/push.md "What is
 * accepted"): `service` lists it.
 */
async function setup(
  options: { timeoutMs?: number; dir?: string; service?: { origin: string } } = {},
) {
  const dir = options.dir ?? await Deno.makeTempDir();
  const push = pushPlugin({
    dir,
    timeoutMs: options.timeoutMs ?? 5_000,
    ...(options.service === undefined ? {} : { allowedOrigins: [options.service.origin] }),
  });
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
  await using t = await setup({ service });
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
  await using again = await setup({ service, dir: t.dir });
  const reread = await again.app.request(`/api/sessions/${again.session.id}/push`);
  assert.deepEqual(await reread.json(), { publicKey });
});

Deno.test("a 410 Gone removes the subscription; unsubscribe removes it too", async () => {
  await using service = await startPushService();
  await using t = await setup({ service });
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
  await using t = await setup({ service, timeoutMs: 60_000 });
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

Deno.test("a rejected flush pushes nothing, ever: its dispatch is withdrawn; a new one after resume pushes", async () => {
  await using service = await startPushService();
  await using t = await setup({ service });
  await subscribe(t.app, t.session.id, await service.subscription("a"));
  t.backend.failNext({ op: "append", when: "before" });
  appendReminder(t.session);
  await assert.rejects(t.runtime.store.flush(t.session));
  await settled();
  await t.push.idle();
  assert.equal(service.received.length, 0, "nothing before session/flushed covers it");
  assert.notEqual(await t.runtime.store.flush(t.session).catch(() => "refused"), true);
  await t.push.idle();
  assert.equal(service.received.length, 0, "the withdrawn dispatch is never pushed");
  const resumed = await t.runtime.resume(t.session.id);
  appendReminder(resumed);
  assert.equal(await t.runtime.store.flush(resumed), true);
  await service.waitFor(1);
  assert.equal(service.received[0]!.message.body, "stretch");
});

Deno.test("acknowledging a card's tag sends a close message; an unknown tag is refused and pushes nothing", async () => {
  await using service = await startPushService();
  await using t = await setup({ service });
  await subscribe(t.app, t.session.id, await service.subscription("a"));
  const tag = `chime:${t.session.id}:${SCHEDULE_ID}@${RECORD.scheduledAt}`;
  const ack = (body: unknown, id = t.session.id) =>
    t.app.request(`/api/sessions/${id}/acknowledge`, postJson(body));
  // Before the card is durable its tag names nothing; nor does any other string.
  for (
    const other of [tag, "chime:x", `chime:${t.session.id}:sch_Nope12345678@2030`, `${tag}x`]
  ) {
    const refused = await ack({ tag: other });
    assert.equal(refused.status, 404, other);
    assert.deepEqual(
      [(await refused.json()).error.code, service.received.length],
      ["tag_not_found", 0],
    );
  }
  appendReminder(t.session);
  await t.runtime.store.flush(t.session);
  await service.waitFor(1);
  assert.equal(service.received[0]!.message.type, "show");
  assert.equal((await ack({ tag })).status, 200);
  await service.waitFor(2);
  assert.deepEqual(service.received[1]!.message, { type: "close", tag });
  // Another session's card tag is not this session's.
  const { session: b } = await t.runtime.create({ timeZone: "UTC" });
  await t.runtime.store.flush(b);
  const foreign = await ack({ tag }, b.id);
  assert.equal(foreign.status, 404);
  assert.equal((await foreign.json()).error.code, "tag_not_found");
  assert.equal((await ack({})).status, 400);
  assert.equal((await ack({ tag }, "nope")).status, 404);
  await settled();
  await t.push.idle();
  assert.equal(service.received.length, 2, "no push for a refused tag");
});

Deno.test("the subscribe route refuses bad subscriptions and unknown sessions, storing nothing", async () => {
  await using service = await startPushService();
  await using t = await setup({ service });
  const sub = await service.subscription("a");
  const post = (body: unknown, id = t.session.id) =>
    t.app.request(`/api/sessions/${id}/push/subscribe`, postJson(body));
  const cases: [unknown, string][] = [
    [{}, "subscription"],
    [{ subscription: { ...sub.json, endpoint: "http://example.com/x" } }, "endpoint"],
    [
      { subscription: { ...sub.json, keys: { p256dh: "AAAA", auth: sub.json.keys.auth } } },
      "keys.p256dh",
    ],
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

/** 65 bytes that look like an uncompressed point (`0x04` first) but lie on no P-256 curve. */
const OFF_CURVE = b64url(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : 1)));

Deno.test("subscribe takes only https push services on public addresses; a local one needs allowedOrigins", async () => {
  await using service = await startPushService();
  await using t = await setup(); // no allowedOrigins: the local service is not let through
  const sub = await service.subscription("a");
  const post = (endpoint: unknown) =>
    t.app.request(
      `/api/sessions/${t.session.id}/push/subscribe`,
      postJson({ subscription: { ...sub.json, endpoint } }),
    );
  const refused = [
    sub.json.endpoint, // http: on loopback, not listed
    "http://fcm.googleapis.com/fcm/send/x",
    "https://localhost/x",
    "https://push.localhost./x",
    "https://127.0.0.1/x",
    "https://0x7f.0.0.1/x", // URL writes it 127.0.0.1
    "https://10.1.2.3/x",
    "https://172.20.0.1/x",
    "https://192.168.1.1/x",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/x",
    "https://0.0.0.0/x",
    "https://[::1]/x",
    "https://[::]/x",
    "https://[fe80::1]/x",
    "https://[fd00::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[::ffff:a9fe:a9fe]/x",
    "https://user:secret@fcm.googleapis.com/x",
    "ftp://fcm.googleapis.com/x",
  ];
  for (const endpoint of refused) {
    const answer = await post(endpoint);
    assert.equal(answer.status, 400, endpoint);
    const { error } = await answer.json();
    assert.deepEqual([error.code, error.field], ["push_endpoint_refused", "endpoint"], endpoint);
  }
  for (const endpoint of ["not a url", "", 7, `https://fcm.googleapis.com/${"a".repeat(2048)}`]) {
    const answer = await post(endpoint);
    assert.equal(answer.status, 400, String(endpoint).slice(0, 40));
    const { error } = await answer.json();
    assert.deepEqual([error.code, error.field], ["invalid_request", "endpoint"]);
  }
  assert.deepEqual((await t.push.subscriptions()).all, [], "nothing stored on a refusal");
  for (
    const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://8.8.8.8/x",
      "https://[2606:4700::1111]/x",
    ]
  ) {
    assert.equal((await post(endpoint)).status, 200, endpoint);
  }
  // The opt-in is exact origins, checked when the plugin is made.
  assert.throws(() => pushPlugin({ allowedOrigins: ["http://127.0.0.1:1/path"] }), TypeError);
  assert.throws(() => pushPlugin({ allowedOrigins: ["file:///tmp"] }), TypeError);
});

Deno.test("subscribe refuses keys that are not a P-256 point and a 16-byte auth, storing nothing", async () => {
  await using service = await startPushService();
  await using t = await setup({ service });
  const sub = await service.subscription("a");
  const { p256dh, auth } = sub.json.keys;
  const raw = sub.publicRaw;
  const compressed = b64url(Uint8Array.from([2 + (raw[64]! & 1), ...raw.slice(1, 33)]));
  const wrongPrefix = b64url(Uint8Array.from([5, ...raw.slice(1)]));
  const cases: [unknown, string][] = [
    [{ p256dh: OFF_CURVE, auth }, "keys.p256dh"],
    [{ p256dh: compressed, auth }, "keys.p256dh"],
    [{ p256dh: wrongPrefix, auth }, "keys.p256dh"],
    [{ p256dh: `${p256dh.slice(0, -2)}+/`, auth }, "keys.p256dh"],
    [{ p256dh: "A".repeat(5000), auth }, "keys.p256dh"],
    [{ p256dh: 65, auth }, "keys.p256dh"],
    [{ p256dh, auth: b64url(new Uint8Array(15)) }, "keys.auth"],
    [{ p256dh, auth: b64url(new Uint8Array(17)) }, "keys.auth"],
    [{ p256dh }, "keys.auth"],
    [null, "keys"],
  ];
  for (const [keys, field] of cases) {
    const answer = await t.app.request(
      `/api/sessions/${t.session.id}/push/subscribe`,
      postJson({ subscription: { endpoint: sub.json.endpoint, keys } }),
    );
    assert.equal(answer.status, 400, field);
    const { error } = await answer.json();
    assert.deepEqual([error.code, error.field], ["invalid_push_keys", field]);
  }
  assert.deepEqual((await t.push.subscriptions()).all, []);
  assert.equal((await subscribe(t.app, t.session.id, sub)).status, 200, "real keys are taken");
});

Deno.test("a stored subscription whose keys cannot encrypt is removed when a push is sent", async () => {
  await using service = await startPushService();
  const dir = await Deno.makeTempDir();
  const good = await service.subscription("good");
  const fake = await service.subscription("fake");
  // Stored before the keys were checked (an older host wrote it): only a send finds it out.
  const stored = (s: typeof good, p256dh: string) => ({
    endpoint: s.json.endpoint,
    keys: { p256dh, auth: s.json.keys.auth },
    sessions: [] as string[],
    lang: "en",
    createdAt: "2030-01-01T00:00:00.000Z",
  });
  await using t = await setup({ service, dir });
  const file = {
    version: 1,
    subscriptions: [stored(fake, OFF_CURVE), stored(good, good.json.keys.p256dh)].map((s) => ({
      ...s,
      sessions: [t.session.id],
    })),
  };
  await Deno.writeTextFile(`${dir}/subscriptions.json`, JSON.stringify(file));
  appendReminder(t.session);
  await t.runtime.store.flush(t.session);
  await service.waitFor(1);
  await settled();
  await t.push.idle();
  const subscriptions = await t.push.subscriptions();
  await subscriptions.flushed();
  assert.deepEqual(subscriptions.all.map((s) => s.endpoint), [good.json.endpoint]);
  assert.deepEqual(service.received.map((r) => r.path), ["/good"]);
  const reread = JSON.parse(await Deno.readTextFile(`${dir}/subscriptions.json`));
  assert.deepEqual(reread.subscriptions.map((s: { endpoint: string }) => s.endpoint), [
    good.json.endpoint,
  ]);
});

Deno.test("a deleted session leaves every subscription; one left with none is removed", async () => {
  await using service = await startPushService();
  await using t = await setup({ service });
  const { session: kept } = await t.runtime.create({ timeZone: "UTC" });
  await t.runtime.store.flush(kept);
  const both = await service.subscription("both");
  const onlyDoomed = await service.subscription("only");
  await subscribe(t.app, t.session.id, both);
  await subscribe(t.app, kept.id, both);
  await subscribe(t.app, t.session.id, onlyDoomed);
  const deleted = await t.app.request(`/api/sessions/${t.session.id}`, { method: "DELETE" });
  assert.equal(deleted.status, 200);
  const subscriptions = await t.push.subscriptions();
  assert.deepEqual(subscriptions.all.map((s) => [s.endpoint, s.sessions]), [
    [both.json.endpoint, [kept.id]],
  ]);
  const file = JSON.parse(await Deno.readTextFile(`${t.dir}/subscriptions.json`));
  assert.deepEqual(file.subscriptions.map((s: { sessions: string[] }) => s.sessions), [[kept.id]]);
  // Its routes are gone; unsubscribing through an unknown or deleted id finds no session.
  for (const id of [t.session.id, "no-such-session"]) {
    const off = await t.app.request(
      `/api/sessions/${id}/push/unsubscribe`,
      postJson({ endpoint: both.json.endpoint }),
    );
    assert.equal(off.status, 404, id);
    assert.equal((await off.json()).error.code, "session_not_found");
  }
  assert.equal(subscriptions.all.length, 1, "nothing removed through them");
  const long = await t.app.request(
    `/api/sessions/${kept.id}/push/unsubscribe`,
    postJson({ endpoint: `https://fcm.googleapis.com/${"a".repeat(2048)}` }),
  );
  assert.equal(long.status, 400);
  assert.equal((await long.json()).error.field, "endpoint");
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
    await using push = pushPlugin({ dir, allowedOrigins: [service.origin] });
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
  await using push = pushPlugin({ dir, allowedOrigins: [service.origin] });
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
