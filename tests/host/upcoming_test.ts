/**
 * Upcoming across sessions (docs/upcoming.md) on a real libSQL file (shared mode, so a resume
 * would take a lease) and real JSONL files: 1,000 sessions with 10,000 reminders (live, cold,
 * paused, finished) and forks. The list comes from the type index and never activates anything:
 * no lease row, no live session, no new event, unchanged files. A fork's inherited reminders are
 * not listed as the fork's. The feed is served without the host token only with its link key.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import ICAL from "ical.js";
import { createApp, HostRuntime } from "@chime/host";
import { schedulePlugin, scheduleViews } from "@chime/schedule";
import { LibsqlBackend } from "@chime/session/libsql";
import { JsonlBackend } from "@chime/session/jsonl";
import { FakeClock } from "@chime/session/testing";
import { writeFixture } from "../fixtures/upcoming_fixture.ts";
import { postJson } from "./_helpers.ts";

const NOW = Date.parse("2030-03-01T12:00:00.000Z");
const TOKEN = "a-long-enough-test-token";

type Kind = "libsql" | "jsonl";

async function fixtureHost(kind: Kind, sessions = 1000, perSession = 10) {
  const dir = await Deno.makeTempDir({ prefix: "chime-upcoming-" });
  const storage = kind === "libsql"
    ? { kind: "libsql" as const, url: `file:${join(dir, "chime.db")}`, shared: true }
    : { kind: "jsonl" as const, dir: join(dir, "sessions") };
  let fixture;
  {
    await using backend = kind === "libsql"
      ? await LibsqlBackend.open({ url: storage.url! })
      : await JsonlBackend.open({ dir: storage.dir! });
    await Deno.mkdir(join(dir, "sessions"), { recursive: true });
    fixture = await writeFixture(backend, { sessions, perSession, forks: 5, now: NOW });
  }
  const clock = new FakeClock(NOW);
  const runtime = await HostRuntime.open({
    config: {
      storage,
      dataDir: dir,
      model: { kind: "none", reason: "test" },
      plugins: [],
      renderers: [],
      cwd: "/",
    },
    plugins: [schedulePlugin({ clock })],
    views: [scheduleViews],
    clock,
  });
  const app = createApp(runtime, { token: TOKEN });
  return {
    dir,
    fixture,
    runtime,
    app,
    get: (path: string) => app.request(path, { headers: { authorization: `Bearer ${TOKEN}` } }),
    async [Symbol.asyncDispose]() {
      await runtime[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Everything durable: the stored lengths, the lease rows, the files' bytes. */
async function durableSnapshot(kind: Kind, dir: string, runtime: HostRuntime) {
  const lengths = [...(await runtime.store.storedLengths())].sort();
  let leases: unknown[] = [];
  const files: Record<string, string> = {};
  if (kind === "libsql") {
    const client = createClient({ url: `file:${join(dir, "chime.db")}` });
    leases = (await client.execute("SELECT * FROM session_leases")).rows;
    client.close();
  } else {
    for await (const entry of Deno.readDir(join(dir, "sessions"))) {
      const bytes = await Deno.readFile(join(dir, "sessions", entry.name));
      files[entry.name] = String(bytes.length) + ":" +
        bytes.reduce((a, b) => (a * 31 + b) >>> 0, 7);
    }
  }
  return { lengths, leases, files };
}

for (const kind of ["libsql", "jsonl"] as const) {
  Deno.test(`Upcoming lists 10,000 reminders of 1,000 ${kind} sessions without activating any`, async () => {
    await using host = await fixtureHost(kind);
    const before = await durableSnapshot(kind, host.dir, host.runtime);
    const rows: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const response = await host.get(`/api/reminders?limit=200${query}`);
      assert.equal(response.status, 200);
      const page = await response.json() as {
        reminders: Record<string, unknown>[];
        nextCursor: string | null;
      };
      rows.push(...page.reminders);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    assert.equal(rows.length, host.fixture.active, "every active reminder, each once");
    assert.equal(new Set(rows.map((r) => (r.reminder as { id: string }).id)).size, rows.length);
    assert.ok(pages >= 35);
    // Ordered by next occurrence, paused series last.
    const keys = rows.map((r) =>
      r.state === "paused"
        ? Infinity
        : Date.parse((r.reminder as { scheduledAt: string }).scheduledAt)
    );
    assert.deepEqual(keys, [...keys].sort((a, b) => a - b));
    const states = new Map<string, number>();
    for (const r of rows) states.set(r.state as string, (states.get(r.state as string) ?? 0) + 1);
    assert.equal(states.get("paused"), host.fixture.paused);
    assert.ok((states.get("overdue") ?? 0) > 0 && (states.get("cold") ?? 0) > 0);
    assert.equal(states.get("live"), undefined, "no session is live");
    // A fork's inherited reminders are its parent's, not the fork's.
    assert.ok(rows.every((r) => !String(r.sessionId).startsWith("fk")));
    const first = rows[0]!;
    assert.equal(first.sessionTitle, `session ${Number(String(first.sessionId).slice(2))}: plans`);
    assert.match((first.next as { local: string }).local, /^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    const series = rows.find((r) => (r.reminder as { kind: string }).kind === "recurring")!;
    assert.equal(
      (series.next as { timeZone: string }).timeZone,
      (series.reminder as {
        repeat: { timeZone: string };
      }).repeat.timeZone,
    );
    // No lease, no owner, no write.
    assert.equal(host.runtime.store.liveSessions().length, 0);
    assert.deepEqual(await durableSnapshot(kind, host.dir, host.runtime), before);
  });
}

Deno.test("Upcoming pages by `before` and refuses a bad query without a write", async () => {
  await using host = await fixtureHost("libsql", 40, 10);
  const soon = new Date(NOW + 86_400_000).toISOString();
  const page = await (await host.get(`/api/reminders?before=${soon}&limit=200`)).json();
  assert.ok(page.reminders.length > 0);
  for (const row of page.reminders) {
    assert.ok(Date.parse(row.reminder.scheduledAt) < Date.parse(soon));
    assert.notEqual(row.state, "paused");
  }
  for (const bad of ["limit=0", "limit=201", "before=tomorrow", "cursor=xyz"]) {
    const response = await host.get(`/api/reminders?${bad}`);
    assert.equal(response.status, 400, bad);
    assert.equal((await response.json()).error.code, "invalid_arguments");
  }
  const unauthorized = await host.app.request("/api/reminders");
  assert.equal(unauthorized.status, 401, "the list needs the host token");
});

Deno.test("Upcoming follows a session that changes: a live one shows as live, a stopped series leaves", async () => {
  await using host = await fixtureHost("libsql", 20, 10);
  const first = await (await host.get("/api/reminders?limit=200")).json();
  const target = first.reminders.find((r: { state: string; reminder: { kind: string } }) =>
    r.state === "cold" && r.reminder.kind === "recurring"
  );
  // Open the session through its own route; its reminders become live.
  await host.runtime.resume(target.sessionId);
  const second = await (await host.get("/api/reminders?limit=200")).json();
  const mine = second.reminders.filter((r: { sessionId: string }) =>
    r.sessionId === target.sessionId
  );
  assert.ok(mine.length > 0);
  assert.ok(mine.every((r: { live: boolean }) => r.live));
  // Stop through the session's own route: the list follows the log.
  const stop = await host.app.request(
    `/api/sessions/${target.sessionId}/reminders/${target.reminder.id}/stop`,
    {
      ...postJson({}),
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    },
  );
  assert.equal(stop.status, 200);
  const third = await (await host.get("/api/reminders?limit=200")).json();
  assert.ok(
    !third.reminders.some((r: { reminder: { id: string } }) =>
      r.reminder.id === target.reminder.id
    ),
  );
});

Deno.test("The calendar feed needs its link key, not the token, and revoking it is one call", async () => {
  await using host = await fixtureHost("libsql", 10, 10);
  const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  assert.equal((await (await host.get("/api/reminders/feed")).json()).url, null);
  const issued = await host.app.request("/api/reminders/feed", {
    method: "POST",
    headers: auth,
    body: "{}",
  });
  const { url } = await issued.json() as { url: string };
  assert.match(url, /^\/api\/reminders\.ics\?key=[\w-]{43}$/);
  // The key lives in the data directory, not in a log.
  const stored = JSON.parse(await Deno.readTextFile(join(host.dir, "link-keys.json")));
  assert.equal(`/api/reminders.ics?key=${stored["reminders.ics"]}`, url);
  const feed = await host.app.request(url); // no token
  assert.equal(feed.status, 200);
  assert.match(feed.headers.get("content-type")!, /^text\/calendar/);
  const text = await feed.text();
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents("vevent");
  assert.equal(events.length, host.fixture.active - host.fixture.paused);
  assert.equal(calendar.getAllSubcomponents("valarm").length, 0);
  assert.ok(
    events.every((e) => e.getAllSubcomponents("valarm").length === 0),
    "no VALARM by default",
  );
  assert.ok(calendar.getAllSubcomponents("vtimezone").length === 5);
  const withAlarm = await (await host.app.request(`${url}&alarm=1`)).text();
  assert.match(withAlarm, /BEGIN:VALARM/);
  assert.equal((await host.app.request("/api/reminders.ics?key=wrong")).status, 404);
  assert.equal((await host.app.request("/api/reminders.ics")).status, 404);
  // One session's feed.
  const session = "up000003";
  const one = await (await host.app.request("/api/reminders/feed", {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ session }),
  })).json();
  assert.match(one.url, /^\/api\/sessions\/up000003\/reminders\.ics\?key=/);
  const mine = await (await host.app.request(one.url)).text();
  assert.ok(mine.split("BEGIN:VEVENT").length - 1 > 0);
  assert.ok(!mine.includes("X-CHIME-SESSION:up000004"));
  // The session's key does not open the other feed.
  const key = new URL(one.url, "http://h").searchParams.get("key");
  assert.equal((await host.app.request(`/api/reminders.ics?key=${key}`)).status, 404);
  // Revoke: the URL stops working at once.
  const revoked = await host.app.request("/api/reminders/feed", {
    method: "DELETE",
    headers: auth,
  });
  assert.deepEqual(await revoked.json(), { revoked: true });
  assert.equal((await host.app.request(url)).status, 404);
  assert.equal(host.runtime.store.liveSessions().length, 0, "serving a feed activates nothing");
});

Deno.test("GET …/reminders?asOf folds the schedule as of a seq; history names a late delivery's cause", async () => {
  const { testRuntime, scheduleWebOnly } = await import("./_helpers.ts");
  const clock = new FakeClock(Date.parse("2030-01-01T01:00:00.000Z"));
  await using runtime = await testRuntime({ plugins: [scheduleWebOnly()], clock });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  const id = "sch_AbCd12345678";
  const record = { id, kind: "at", prompt: "stretch", scheduledAt: "2030-01-01T02:30:00.000Z" };
  const created = session.append("schedule/change", { version: 2, op: "create", record }).seq;
  await clock.advance(70 * 60_000); // 02:10
  session.append("assistant/message", { turnId: "t0", text: "ok" });
  await clock.advance(330 * 60_000); // 07:40
  const dispatched = session.append("schedule/change", { version: 2, op: "dispatch", id }).seq;
  await runtime.store.flush(session);
  const asOf = await (await app.request(`/api/sessions/${session.id}/reminders?asOf=${created}`))
    .json();
  assert.equal(asOf.asOf, created);
  assert.deepEqual(asOf.reminders.map((r: { id: string }) => r.id), [id]);
  assert.deepEqual(asOf.reminders[0].decidedBy, [created]);
  assert.equal(asOf.reminders[0].status, "scheduled");
  const after =
    await (await app.request(`/api/sessions/${session.id}/reminders?asOf=${dispatched}`)).json();
  assert.deepEqual(after.reminders, []);
  for (const bad of ["-1", "x", String(dispatched + 1)]) {
    const response = await app.request(`/api/sessions/${session.id}/reminders?asOf=${bad}`);
    assert.equal(response.status, 400, bad);
  }
  const history = await (await app.request(`/api/sessions/${session.id}/reminders/${id}/history`))
    .json();
  const delivered = history.history.find((e: { kind: string }) => e.kind === "delivered");
  assert.equal(delivered.cause.kind, "closed");
  assert.equal(delivered.cause.text.en, "the session was closed from 02:10 to 07:40");
});
