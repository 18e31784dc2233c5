/**
 * The Upcoming start-up cache (docs/upcoming.md "The start-up cache") on a real libSQL file:
 * a derived copy of the projection that the next start checks against the stored lengths. A
 * host started with it answers exactly what a host that read every log answers (first page,
 * every later page, the feed's rows), a session written while the host was down is read again
 * from its log, a session gone from storage is gone from the list, and a cache of another
 * version or a torn pair is not used.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp, HostRuntime } from "@chime/host";
import { schedulePlugin, scheduleViews } from "@chime/schedule";
import { LibsqlBackend } from "@chime/session/libsql";
import { FakeClock } from "@chime/session/testing";
import { writeFixture } from "../fixtures/upcoming_fixture.ts";

const NOW = Date.parse("2030-03-01T12:00:00.000Z");

async function start(dir: string, cache: boolean) {
  const clock = new FakeClock(NOW);
  const runtime = await HostRuntime.open({
    config: {
      storage: { kind: "libsql", url: `file:${join(dir, "chime.db")}` },
      dataDir: dir,
      model: { kind: "none", reason: "test" },
      plugins: [],
      renderers: [],
      cwd: "/",
    },
    plugins: [
      schedulePlugin({ clock, ...(cache ? { upcomingCacheDir: join(dir, "schedule") } : {}) }),
    ],
    views: [scheduleViews],
    clock,
  });
  const app = createApp(runtime);
  return {
    runtime,
    async all(limit = 200): Promise<{ first: unknown; rows: unknown[] }> {
      const rows: unknown[] = [];
      let first: unknown;
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
        const response = await app.request(`/api/reminders?limit=${limit}${query}`);
        assert.equal(response.status, 200);
        const page = await response.json() as { reminders: unknown[]; nextCursor: string | null };
        first ??= page;
        rows.push(...page.reminders);
        cursor = page.nextCursor;
      } while (cursor !== null);
      return { first, rows };
    },
    async [Symbol.asyncDispose]() {
      await runtime[Symbol.asyncDispose]();
      clock[Symbol.dispose]();
    },
  };
}

async function fixtureDir(sessions = 120) {
  const dir = await Deno.makeTempDir({ prefix: "chime-upcoming-cache-" });
  await using backend = await LibsqlBackend.open({ url: `file:${join(dir, "chime.db")}` });
  const fixture = await writeFixture(backend, { sessions, perSession: 10, forks: 3, now: NOW });
  return { dir, fixture };
}

/** What a host that reads every log answers (no cache). */
async function truth(dir: string) {
  await using host = await start(dir, false);
  return await host.all();
}

Deno.test("a start with the cache answers every page as a start that read every log", async () => {
  const { dir, fixture } = await fixtureDir();
  try {
    {
      // The first start has no cache: it reads the logs and writes one.
      await using host = await start(dir, true);
      assert.equal((await host.all()).rows.length, fixture.active);
    }
    const files = [...Deno.readDirSync(join(dir, "schedule"))].map((e) => e.name).sort();
    assert.deepEqual(files, ["upcoming-meta.json", "upcoming-rows.ndjson"]);
    const expected = await truth(dir);
    const expectedFirst = await (async () => {
      await using plain = await start(dir, false);
      return (await plain.all(50)).first;
    })();
    await using host = await start(dir, true);
    // The first page first (from the cache), then every page (the cache moved into memory).
    const first = await host.all(50);
    assert.deepEqual(first.first, expectedFirst);
    assert.deepEqual(first.rows, expected.rows);
    assert.deepEqual((await host.all()).rows, expected.rows);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a session written while the host was down is read again; a purged one is gone", async () => {
  const { dir, fixture } = await fixtureDir();
  try {
    {
      await using host = await start(dir, true);
      await host.all();
    }
    // While no host runs: a new reminder, due before every other, in one session; another
    // session removed from storage.
    const [changed, gone] = [fixture.sessions[7]!, fixture.sessions[9]!];
    {
      await using backend = await LibsqlBackend.open({ url: `file:${join(dir, "chime.db")}` });
      const cursor = (await backend.cursor(changed))!;
      const record = {
        id: "sch_cachecache01",
        kind: "at",
        prompt: "written while down",
        scheduledAt: new Date(NOW - 86_400_000).toISOString(),
      };
      await backend.append(changed, [{
        seq: cursor.length,
        type: "schedule/change",
        at: new Date(NOW).toISOString(),
        data: { version: 2, op: "create", record },
      }]);
      assert.equal(await backend.remove!(gone), true);
    }
    const expected = await truth(dir);
    await using host = await start(dir, true);
    const got = await host.all(50);
    assert.deepEqual(got.rows, expected.rows);
    const rows = got.rows as { sessionId: string; reminder: { prompt: string } }[];
    assert.equal(rows[0]!.reminder.prompt, "written while down");
    assert.equal(rows[0]!.sessionId, changed);
    assert.ok(rows.every((r) => r.sessionId !== gone));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cache of another version, or a torn pair, is not used", async () => {
  const { dir } = await fixtureDir(40);
  try {
    {
      await using host = await start(dir, true);
      await host.all();
    }
    const expected = await truth(dir);
    const meta = join(dir, "schedule", "upcoming-meta.json");
    const rows = join(dir, "schedule", "upcoming-rows.ndjson");
    // Another version whose rows say something else: not read.
    const text = await Deno.readTextFile(meta);
    const lie = (await Deno.readTextFile(rows)).replaceAll('"prompt":"', '"prompt":"LIE ');
    await Deno.writeTextFile(rows, lie);
    await Deno.writeTextFile(meta, text.replace('"version":1', '"version":0'));
    {
      await using host = await start(dir, true);
      assert.deepEqual((await host.all(50)).rows, expected.rows);
    }
    // That start wrote a fresh pair; a rows file of another pair (its token) is not read.
    const fresh = await Deno.readTextFile(rows);
    const token = fresh.slice(0, fresh.indexOf("\n"));
    await Deno.writeTextFile(
      rows,
      fresh.replace(token, JSON.stringify("another")).replaceAll(
        '"prompt":"',
        '"prompt":"LIE ',
      ),
    );
    {
      await using host = await start(dir, true);
      assert.deepEqual((await host.all(50)).rows, expected.rows);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the first page after a start comes from the cache the stored lengths confirm", async () => {
  const { dir } = await fixtureDir(40);
  try {
    {
      await using host = await start(dir, true);
      await host.all();
    }
    // Rows rewritten behind the host's back (same pair, same lengths): the start trusts the
    // cache, because nothing in the log moved; this is what proves it did not read the logs.
    const rows = join(dir, "schedule", "upcoming-rows.ndjson");
    const text = await Deno.readTextFile(rows);
    await Deno.writeTextFile(rows, text.replaceAll('"prompt":"', '"prompt":"cached '));
    await using host = await start(dir, true);
    const page = (await host.all(50)).rows as { reminder: { prompt: string } }[];
    assert.ok(page.length > 0 && page.every((r) => r.reminder.prompt.startsWith("cached ")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a session that goes live after a start with the cache is listed from its live state, once", async () => {
  const { dir, fixture } = await fixtureDir(40);
  try {
    {
      await using host = await start(dir, true);
      await host.all();
    }
    await using host = await start(dir, true);
    const before = (await host.all(50)).rows as { sessionId: string; live: boolean }[];
    const target = before.find((r) => !r.live)!.sessionId;
    const session = await host.runtime.resume(target);
    const rows = (await host.all(50)).rows as {
      sessionId: string;
      live: boolean;
      reminder: { id: string };
    }[];
    assert.equal(rows.length, fixture.active);
    assert.equal(new Set(rows.map((r) => r.reminder.id)).size, rows.length, "each once");
    const mine = rows.filter((r) => r.sessionId === target);
    assert.ok(mine.length > 0 && mine.every((r) => r.live));
    // Cold again: read from its log, listed as before.
    await host.runtime.release(session);
    assert.deepEqual((await host.all(50)).rows, before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cache whose rows break past the first page, or that most sessions outgrew, gives way to the logs", async () => {
  const { dir } = await fixtureDir(300);
  try {
    {
      await using host = await start(dir, true);
      await host.all();
    }
    const expected = await truth(dir);
    const rows = join(dir, "schedule", "upcoming-rows.ndjson");
    const meta = join(dir, "schedule", "upcoming-meta.json");
    const good = await Deno.readTextFile(rows);
    await Deno.writeTextFile(rows, `${good}["R",1,\n`);
    {
      // The first page reads only the rows' start; the next page reads them all and finds the
      // break: the projection reads the logs instead.
      await using host = await start(dir, true);
      assert.deepEqual((await host.all(50)).rows, expected.rows);
    }
    // More than 256 sessions whose length moved: one pass over the store instead of each alone.
    const text = await Deno.readTextFile(meta);
    const value = JSON.parse(text) as { lengths: Record<string, number> };
    for (const id of Object.keys(value.lengths)) value.lengths[id] = 0;
    await Deno.writeTextFile(meta, JSON.stringify(value));
    await using host = await start(dir, true);
    assert.deepEqual((await host.all(50)).rows, expected.rows);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cache folder that cannot be written costs nothing but the next start's speed", async () => {
  const { dir, fixture } = await fixtureDir(20);
  try {
    // The cache folder's path is a file: every write fails.
    await Deno.writeTextFile(join(dir, "schedule"), "not a folder");
    await using host = await start(dir, true);
    assert.equal((await host.all()).rows.length, fixture.active);
    assert.equal(await Deno.readTextFile(join(dir, "schedule")), "not a folder");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
