/**
 * Upcoming over a damaged store (README.md "How it behaves on failure", docs/upcoming.md): one
 * session's damaged reminder row or header leaves that session out of `GET /api/reminders`,
 * named in `damaged`, and every other session's reminders are still listed: on a first start
 * (one scan of the store), after a restart from the start-up cache (the damaged session's log
 * moved, so it is read again), on libSQL and JSONL. Before, one damaged row emptied the whole
 * list with a `200`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { createApp, HostRuntime } from "@chime/host";
import { schedulePlugin, scheduleViews } from "@chime/schedule";
import { LibsqlBackend } from "@chime/session/libsql";
import { JsonlBackend } from "@chime/session/jsonl";
import { FakeClock } from "@chime/session/testing";
import { writeFixture } from "../fixtures/upcoming_fixture.ts";

const NOW = Date.parse("2030-03-01T12:00:00.000Z");

type Kind = "libsql" | "jsonl";
type Row = { sessionId: string; reminder: { id: string } };

const dbUrl = (dir: string) => `file:${join(dir, "chime.db")}`;

function storage(kind: Kind, dir: string) {
  return kind === "libsql"
    ? { kind: "libsql" as const, url: `file:${join(dir, "chime.db")}` }
    : { kind: "jsonl" as const, dir: join(dir, "sessions") };
}

/** Every row of `GET /api/reminders` (all pages) and the `damaged` of the first page. */
async function upcoming(kind: Kind, dir: string) {
  const clock = new FakeClock(NOW);
  await using runtime = await HostRuntime.open({
    config: {
      storage: storage(kind, dir),
      dataDir: dir,
      model: { kind: "none", reason: "test" },
      plugins: [],
      renderers: [],
      cwd: "/",
    },
    plugins: [schedulePlugin({ clock, upcomingCacheDir: join(dir, "schedule") })],
    views: [scheduleViews],
    clock,
  });
  const app = createApp(runtime);
  const rows: Row[] = [];
  let damaged: unknown;
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const response = await app.request(`/api/reminders?limit=7${query}`);
    assert.equal(response.status, 200);
    const page = await response.json();
    rows.push(...page.reminders);
    damaged ??= page.damaged;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { rows: rows.map((r) => `${r.sessionId}/${r.reminder.id}`), damaged };
}

/** Changes one byte of the first reminder row of `id` (its checksum no longer matches). */
async function damageRow(kind: Kind, dir: string, id: string): Promise<number> {
  if (kind === "libsql") {
    const client = createClient({ url: dbUrl(dir) });
    try {
      const { rows } = await client.execute({
        sql: "SELECT min(seq) AS seq FROM events WHERE session_id = ? AND type = 'schedule/change'",
        args: [id],
      });
      const seq = Number(rows[0]!.seq);
      await client.execute({
        sql:
          "UPDATE events SET data = replace(data, '\"op\"', '\"oq\"') WHERE session_id = ? AND seq = ?",
        args: [id, seq],
      });
      return seq;
    } finally {
      client.close();
    }
  }
  const path = join(dir, "sessions", `${id}.jsonl`);
  const lines = (await Deno.readTextFile(path)).split("\n");
  const index = lines.findIndex((l) => l.includes('"type":"schedule/change"'));
  lines[index] = lines[index]!.replace('"op"', '"oq"');
  await Deno.writeTextFile(path, lines.join("\n"));
  return index - 1;
}

/** Changes the damaged session's header (its checksum no longer matches). */
async function damageHeader(kind: Kind, dir: string, id: string): Promise<void> {
  if (kind === "libsql") {
    const client = createClient({ url: dbUrl(dir) });
    await client.execute({ sql: "UPDATE sessions SET cwd = '/x' WHERE id = ?", args: [id] });
    client.close();
    return;
  }
  const path = join(dir, "sessions", `${id}.jsonl`);
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, text.replace('"cwd":"/', '"cwd":"/x'));
}

/** Appends one plain event to `id` (its stored length moves: the cache's part is stale). */
async function grow(kind: Kind, dir: string, id: string): Promise<void> {
  await using backend = kind === "libsql"
    ? await LibsqlBackend.open({ url: dbUrl(dir) })
    : await JsonlBackend.open({ dir: join(dir, "sessions") });
  const length = (await backend.cursor(id))!.length;
  await backend.append(id, [{
    seq: length,
    type: "note",
    at: new Date(NOW).toISOString(),
    data: {},
  }]);
}

for (const kind of ["libsql", "jsonl"] as const) {
  for (const cached of [false, true]) {
    const when = cached ? "after a restart from the start-up cache" : "on a first start";
    Deno.test(`Upcoming (${kind}) leaves out one session with a damaged reminder row ${when}`, async () => {
      await using dir = {
        path: await Deno.makeTempDir(),
        async [Symbol.asyncDispose]() {
          await Deno.remove(this.path, { recursive: true });
        },
      };
      let fixture;
      {
        await using backend = kind === "libsql"
          ? await LibsqlBackend.open({ url: dbUrl(dir.path) })
          : await JsonlBackend.open({ dir: join(dir.path, "sessions") });
        fixture = await writeFixture(backend, { sessions: 5, perSession: 10, now: NOW });
      }
      const bad = fixture.sessions[2]!;
      // With a cache: the list once (the cache is written), then the damaged log moves.
      const before = cached ? await upcoming(kind, dir.path) : undefined;
      if (cached) await grow(kind, dir.path, bad);
      const seq = await damageRow(kind, dir.path, bad);
      const after = await upcoming(kind, dir.path);
      assert.deepEqual(after.damaged, [{ sessionId: bad, seq }]);
      const others = after.rows.filter((r) => !r.startsWith(`${bad}/`));
      assert.deepEqual(after.rows, others, "nothing of the damaged session is listed");
      assert.ok(others.length > 0);
      if (before !== undefined) {
        assert.deepEqual(after.rows, before.rows.filter((r) => !r.startsWith(`${bad}/`)));
        assert.ok(before.rows.some((r) => r.startsWith(`${bad}/`)));
      }
    });
  }

  Deno.test(`Upcoming (${kind}) leaves out one session whose header is damaged`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      let fixture;
      {
        await using backend = kind === "libsql"
          ? await LibsqlBackend.open({ url: dbUrl(dir) })
          : await JsonlBackend.open({ dir: join(dir, "sessions") });
        fixture = await writeFixture(backend, { sessions: 4, perSession: 10, now: NOW });
      }
      const bad = fixture.sessions[1]!;
      const whole = await upcoming(kind, dir);
      // A first start (no start-up cache): the header is read with the scan.
      await Deno.remove(join(dir, "schedule"), { recursive: true });
      await damageHeader(kind, dir, bad);
      const after = await upcoming(kind, dir);
      assert.deepEqual(after.damaged, [{ sessionId: bad }], "the damaged header is named");
      assert.deepEqual(after.rows, whole.rows.filter((r) => !r.startsWith(`${bad}/`)));
      assert.ok(whole.rows.some((r) => r.startsWith(`${bad}/`)));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
