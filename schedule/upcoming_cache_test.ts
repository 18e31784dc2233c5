// The Upcoming projection with its start-up cache (docs/upcoming.md "The start-up cache") over a
// real libSQL store: a session already live when the projection first reads the cache is shown
// from its live state, once, on the first page and on every later page.
import assert from "node:assert/strict";
import { join } from "node:path";
import { SessionStore } from "@chime/session";
import { LibsqlBackend } from "@chime/session/libsql";
import { FakeClock } from "@chime/session/testing";
import { writeFixture } from "../tests/fixtures/upcoming_fixture.ts";
import { UpcomingProjection } from "./upcoming.ts";

const NOW = Date.parse("2030-03-01T12:00:00.000Z");

Deno.test("a session live before the projection read its cache is listed from its live state, once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chime-upcoming-live-" });
  try {
    const url = `file:${join(dir, "chime.db")}`;
    const cacheDir = join(dir, "schedule");
    using clock = new FakeClock(NOW);
    let fixture;
    {
      await using backend = await LibsqlBackend.open({ url });
      fixture = await writeFixture(backend, { sessions: 30, perSession: 10, now: NOW });
    }
    const all = async (
      projection: UpcomingProjection,
      host: Parameters<UpcomingProjection["page"]>[0],
    ) => {
      const rows = [];
      let cursor: string | undefined;
      do {
        const page = await projection.page(host, { limit: 40, ...(cursor ? { cursor } : {}) });
        rows.push(...page.reminders);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      return rows;
    };
    {
      await using store = new SessionStore({ backend: await LibsqlBackend.open({ url }), clock });
      using projection = new UpcomingProjection({ cacheDir });
      assert.equal(
        (await all(projection, { store, durableLength: (s) => s.length })).length,
        fixture.active,
      );
    }
    await using store = new SessionStore({ backend: await LibsqlBackend.open({ url }), clock });
    const target = fixture.sessions[3]!;
    await store.resume(target);
    using projection = new UpcomingProjection({ cacheDir });
    const host = { store, durableLength: (s: { length: number }) => s.length };
    const first = await projection.page(host, { limit: 200 });
    const rows = await all(projection, host);
    for (const list of [first.reminders, rows]) {
      const mine = list.filter((r) => r.sessionId === target);
      assert.ok(mine.length > 0 && mine.every((r) => r.live && r.state !== "cold"));
    }
    assert.equal(rows.length, fixture.active);
    assert.equal(new Set(rows.map((r) => r.reminder.id)).size, rows.length, "each once");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
