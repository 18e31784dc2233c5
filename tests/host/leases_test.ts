/**
 * Leases in one process (docs/deploy.md): two host runtimes over one shared backend and one
 * lease table (the storage fence stood in by {@linkcode FencedBackend}). A session live on A
 * answers 409 with A's URL on B; reads are served anywhere; a lease taken over turns the session
 * cold on A with a `session-lost` stream event, and A's appends are refused.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { type ModelAdapter, ScriptedModel } from "@chime/agent";
import { createApp, HostRuntime } from "@chime/host";
import { scheduleViews } from "@chime/schedule";
import { SessionLeases } from "@chime/session";
import { createLeaseTable, FakeClock, MemoryBackend } from "@chime/session/testing";
import { fencedBackend } from "./_fenced_backend.ts";
import { postJson, readSse, scheduleWebOnly } from "./_helpers.ts";

const TTL_S = 2;

async function twoHosts(clock: FakeClock, models: { a?: ModelAdapter } = {}) {
  const client = createClient({ url: ":memory:" });
  await createLeaseTable(client);
  const shared = new MemoryBackend();
  const errors: unknown[] = [];
  const host = async (name: string) => {
    const late: { runtime?: HostRuntime } = {};
    const backend = fencedBackend(shared, client, (id) => late.runtime?.leases?.fence(id));
    const runtime = await HostRuntime.open({
      config: {
        storage: { kind: "libsql", url: ":memory:" },
        model: { kind: "none", reason: "test" },
        plugins: [],
        renderers: [],
        cwd: "/",
        lease: { ttlSeconds: TTL_S },
      },
      backend,
      ...(name === "a" && models.a !== undefined ? { model: models.a } : {}),
      leaseTable: new SessionLeases(client, { holder: name, url: `http://${name}/`, clock }),
      // The schedule routes without agent setup: GET /reminders is a read that passes.
      plugins: [scheduleWebOnly()],
      views: [scheduleViews],
      clock,
      reportError: (e) => errors.push(e),
    });
    late.runtime = runtime;
    return { runtime, backend, app: createApp(runtime, { heartbeatMs: 60_000 }) };
  };
  const a = await host("a");
  const b = await host("b");
  return {
    a,
    b,
    client,
    errors,
    async [Symbol.asyncDispose]() {
      await a.runtime[Symbol.asyncDispose]();
      await b.runtime[Symbol.asyncDispose]();
      await shared[Symbol.asyncDispose]();
      client.close();
    },
  };
}

async function errorOf(
  response: Response,
): Promise<{ status: number; code: string; url?: string }> {
  const body = await response.json();
  return { status: response.status, code: body.error?.code, url: body.error?.url };
}

Deno.test("a session live on A answers 409 session_owned_elsewhere with A's URL on B; reads pass", async () => {
  using clock = new FakeClock(Date.parse("2030-01-01T00:00:00Z"));
  await using hosts = await twoHosts(clock);
  const { a, b } = hosts;
  const created = await a.app.request("/api/sessions", postJson({ timeZone: "Europe/Paris" }));
  assert.equal(created.status, 201);
  const id = (await created.json()).header.id as string;
  const elsewhere = { status: 409, code: "session_owned_elsewhere", url: "http://a/" };
  const attempts: [string, RequestInit][] = [
    [`/api/sessions/${id}/resume`, postJson({})],
    [`/api/sessions/${id}/messages`, postJson({ text: "hi", clientTimeZone: "Europe/Paris" })],
    [`/api/sessions/${id}/turns/current/cancel`, postJson({})],
    [`/api/sessions/${id}/fork`, postJson({})],
    [`/api/sessions/${id}/messages/m1/retry`, postJson({})],
    [`/api/sessions/${id}/reminders/sch_x/stop`, postJson({})],
    [`/api/sessions/${id}/stream`, {}],
  ];
  for (const [path, init] of attempts) {
    assert.deepEqual(await errorOf(await b.app.request(path, init)), elsewhere, path);
  }
  assert.equal(b.runtime.liveSession(id), undefined);
  const history = await b.app.request(`/api/sessions/${id}/history`);
  assert.equal(history.status, 200);
  assert.equal((await history.json()).live, false);
  assert.equal((await b.app.request(`/api/sessions/${id}/reminders`)).status, 200);
  // Renewals keep A's lease in force however long it lives.
  await clock.advance(10 * TTL_S * 1000);
  assert.deepEqual(
    await errorOf(await b.app.request(`/api/sessions/${id}/resume`, postJson({}))),
    elsewhere,
  );
  assert.equal((await a.app.request(`/api/sessions/${id}/resume`, postJson({}))).status, 200);
});

Deno.test("a lease taken over ends A's streams with session-lost, turns A cold and fences A's appends", async () => {
  using clock = new FakeClock(Date.parse("2030-01-01T00:00:00Z"));
  await using hosts = await twoHosts(clock);
  const { a, b } = hosts;
  const created = await a.app.request("/api/sessions", postJson({ timeZone: "Europe/Paris" }));
  const id = (await created.json()).header.id as string;
  const stream = await a.app.request(`/api/sessions/${id}/stream`);
  assert.equal(stream.status, 200);
  const lost = readSse(stream.body!, (m) => m.some((x) => x.event === "session-lost"));
  // A stalls (no renewal runs) past its expiry; B takes the session.
  clock.setWall(clock.now() + TTL_S * 1000 + 1);
  assert.equal((await b.app.request(`/api/sessions/${id}/resume`, postJson({}))).status, 200);
  const before = (await b.runtime.store.backend.cursor(id))!.length;
  // A wakes up and writes before its renewal notices: the fence refuses, A answers 409 with B.
  const write = await a.app.request(
    `/api/sessions/${id}/messages`,
    postJson({ text: "late", clientTimeZone: "Europe/Paris" }),
  );
  assert.deepEqual(await errorOf(write), {
    status: 409,
    code: "session_owned_elsewhere",
    url: "http://b/",
  });
  assert.ok(a.backend.refused > 0);
  assert.equal((await b.runtime.store.backend.cursor(id))!.length, before);
  const messages = await lost;
  assert.deepEqual(messages.at(-1), {
    id: messages.at(-1)!.id,
    event: "session-lost",
    data: { code: "session_owned_elsewhere", url: "http://b/" },
  });
  await clock.advance(1);
  assert.equal(a.runtime.liveSession(id), undefined);
  assert.equal(a.runtime.leases!.holds(id), false);
  // B writes normally; A still answers 409 with B's URL.
  const ok = await b.app.request(
    `/api/sessions/${id}/messages`,
    postJson({ text: "on b", clientTimeZone: "Europe/Paris" }),
  );
  assert.equal(ok.status, 202);
  const again = await errorOf(await a.app.request(`/api/sessions/${id}/resume`, postJson({})));
  assert.equal(again.url, "http://b/");
});

Deno.test("a paused owner whose lease lapsed proves it before a turn: no model call after a take-over", async () => {
  using clock = new FakeClock(Date.parse("2030-01-01T00:00:00Z"));
  const model = new ScriptedModel(() => ({ text: "ok" }));
  await using hosts = await twoHosts(clock, { a: model });
  const { a, b } = hosts;
  const created = await a.app.request("/api/sessions", postJson({ timeZone: "Europe/Paris" }));
  const id = (await created.json()).header.id as string;
  const first = await a.app.request(
    `/api/sessions/${id}/messages`,
    postJson({ text: "hello", clientTimeZone: "Europe/Paris" }),
  );
  assert.equal(first.status, 202);
  await (await a.runtime.existingAgent(a.runtime.liveSession(id)!))!.whenIdle();
  assert.equal(model.requests.length, 1, "a turn under a fresh lease calls the model");
  // A stalls (its renewal timer never runs) past its expiry; B takes the session.
  clock.setWall(clock.now() + TTL_S * 1000 + 1);
  assert.equal((await b.app.request(`/api/sessions/${id}/resume`, postJson({}))).status, 200);
  // A wakes with a message to answer: the lease is proven before the step, so no model call.
  const late = await a.app.request(
    `/api/sessions/${id}/messages`,
    postJson({ text: "late", clientTimeZone: "Europe/Paris" }),
  );
  assert.equal(late.status, 409);
  await late.body?.cancel();
  await clock.advance(1);
  assert.equal(model.requests.length, 1, "the stale owner never called the model");
  assert.equal(a.runtime.leases!.holds(id), false);
});

Deno.test("a renewal that finds the lease taken turns the session cold (no write needed)", async () => {
  using clock = new FakeClock(Date.parse("2030-01-01T00:00:00Z"));
  await using hosts = await twoHosts(clock);
  const { a, b } = hosts;
  const { session } = await a.runtime.create({ timeZone: "Europe/Paris" });
  await a.runtime.store.flush(session);
  clock.setWall(clock.now() + TTL_S * 1000 + 1);
  await b.runtime.resume(session.id);
  await clock.advance(TTL_S * 1000);
  assert.equal(a.runtime.liveSession(session.id), undefined);
  assert.equal(session.closed, true);
  assert.deepEqual(hosts.errors, []);
});

Deno.test("idle release and shutdown give the lease back at once", async () => {
  using clock = new FakeClock(Date.parse("2030-01-01T00:00:00Z"));
  await using hosts = await twoHosts(clock);
  const { a, b } = hosts;
  const { session } = await a.runtime.create({ timeZone: "Europe/Paris" });
  await a.runtime.store.flush(session);
  await a.runtime[Symbol.asyncDispose]();
  const owner = await b.runtime.leases!.table.owner(session.id);
  assert.equal(owner?.expiresAt, 0);
  assert.equal((await b.runtime.resume(session.id)).id, session.id);
  assert.equal((await b.runtime.leases!.table.owner(session.id))?.token, 2);
});

Deno.test("resuming an unknown id takes no lease", async () => {
  using clock = new FakeClock(Date.parse("2030-01-01T00:00:00Z"));
  await using hosts = await twoHosts(clock);
  const response = await hosts.a.app.request("/api/sessions/nope123/resume", postJson({}));
  assert.equal(response.status, 404);
  assert.equal(await hosts.a.runtime.leases!.table.owner("nope123"), undefined);
});

Deno.test("/readyz says when lease renewals fail (the lease table cannot be reached)", async () => {
  using clock = new FakeClock(Date.parse("2030-01-01T00:00:00Z"));
  await using hosts = await twoHosts(clock);
  const { a, client } = hosts;
  const { session } = await a.runtime.create({ timeZone: "Europe/Paris" });
  await a.runtime.store.flush(session);
  const ready = async () => {
    const response = await a.app.request("/readyz");
    return { status: response.status, body: await response.json() };
  };
  assert.deepEqual(await ready(), { status: 200, body: { ready: true } });
  client.close(); // the lease table is gone: the next renewal throws
  await clock.advance(Math.ceil((TTL_S * 1000) / 3) + 1);
  const failing = await ready();
  assert.equal(failing.status, 503);
  assert.match(failing.body.reasons.join("\n"), /lease renewals are failing/);
  hosts.errors.length = 0;
});
