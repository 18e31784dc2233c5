/**
 * Shared mode and fenced appends (`docs/long-sessions.md` §"Fenced appends"): two backends on
 * one real database stand in for two hosts, on a shared libSQL file and on PostgreSQL.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import postgres from "postgres";
import type { PersistenceBackend } from "../../session/backend.ts";
import { SessionError } from "../../session/errors.ts";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import { PostgresBackend } from "../../session/postgres/postgres_backend.ts";
import { ev, evs, header, runnable, storageUrl, tempDir } from "./_helpers.ts";

type Shared = "libsql-shared" | "postgres";

/** Runs one raw statement (`?` marks) on the shared database, as another host would. */
async function raw(kind: Shared, url: string, sql: string, args: (string | number)[]) {
  if (kind === "postgres") {
    const client = postgres(url, { onnotice: () => {} });
    try {
      let n = 0;
      await client.unsafe(
        sql.replace(/\?/g, () => `$${++n}`).replace(/\bsession_leases\b|\bevents\b/g, "chime.$&"),
        args,
      );
    } finally {
      await client.end();
    }
    return;
  }
  const client = createClient({ url });
  try {
    await client.execute({ sql, args });
  } finally {
    client.close();
  }
}

async function setLease(kind: Shared, url: string, id: string, token: number): Promise<void> {
  await raw(
    kind,
    url,
    "INSERT INTO session_leases VALUES (?, 'h', 'http://h', ?, 0) " +
      "ON CONFLICT (session_id) DO UPDATE SET token = excluded.token",
    [id, token],
  );
}

/** Opens a shared backend of `kind` on `url`. */
async function openShared(
  kind: Shared,
  url: string,
  fence?: (id: string) => number | undefined,
): Promise<PersistenceBackend & { readonly commits: number }> {
  const own = fence === undefined ? {} : { fence };
  return kind === "postgres"
    ? await PostgresBackend.open({ url, ...own })
    : await LibsqlBackend.open({ url, shared: true, ...own });
}

const SHARED = runnable(["libsql-shared", "postgres"] as const);

const leaseLost = (e: unknown) => e instanceof SessionError && e.code === "lease_lost";

Deno.test("a private file is locked to one process; shared mode lets several open it", async () => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/shared.db`;
  {
    await using _first = await LibsqlBackend.open({ url });
    await assert.rejects(
      LibsqlBackend.open({ url }),
      (e) => e instanceof SessionError && e.code === "storage_in_use",
    );
  }
  await using a = await LibsqlBackend.open({ url, shared: true });
  await using b = await LibsqlBackend.open({ url, shared: true });
  await a.initialize(header("s"), evs(0, 2));
  await b.append("s", [ev(2)]);
  assert.equal((await a.cursor("s"))?.length, 3);
});

for (const kind of SHARED) {
  Deno.test(`${kind}: a stale fencing token cannot append; the rest of its group commit commits`, async () => {
    await using dir = await tempDir();
    const url = await storageUrl(kind, dir.path);
    const tokens = new Map<string, number>();
    await using stale = await openShared(kind, url, (id) => tokens.get(id));
    await using owner = await openShared(kind, url, () => 2);
    for (const id of ["s", "t", "u"]) await stale.initialize(header(id), []);
    await setLease(kind, url, "s", 2);
    await setLease(kind, url, "u", 1);
    tokens.set("s", 1); // taken over: the lease now holds token 2
    tokens.set("u", 1); // still held
    const commits = stale.commits;
    const results = await Promise.allSettled([
      stale.append("s", [ev(0)]),
      stale.append("t", [ev(0), ev(1)]),
      stale.append("u", [ev(0)]),
      stale.append("s", []),
    ]);
    assert.equal(stale.commits, commits + 1, "one group commit");
    assert.ok(results[0]!.status === "rejected" && leaseLost(results[0]!.reason));
    assert.equal(results[1]!.status, "fulfilled");
    assert.equal(results[2]!.status, "fulfilled");
    assert.ok(results[3]!.status === "rejected" && leaseLost(results[3]!.reason));
    assert.equal((await owner.cursor("s"))?.length, 0, "nothing of the stale append is written");
    assert.equal((await owner.cursor("t"))?.length, 2);
    assert.equal((await owner.cursor("u"))?.length, 1);
    await owner.append("s", [ev(0)]);
    await assert.rejects(stale.append("s", [ev(1)]), leaseLost);
    assert.equal((await owner.cursor("s"))?.length, 1);
    // A fenced initialize or fork without the lease stores nothing either.
    tokens.set("v", 3);
    await assert.rejects(stale.initialize(header("v"), evs(0, 1)), leaseLost);
    assert.equal(await owner.cursor("v"), undefined);
    tokens.set("kid", 3);
    await assert.rejects(stale.fork(header("kid"), "t", 1, [ev(2)]), leaseLost);
    assert.equal(await owner.cursor("kid"), undefined);
    await setLease(kind, url, "kid", 3);
    await stale.fork(header("kid"), "t", 1, [ev(2)]);
    assert.equal((await owner.cursor("kid"))?.length, 3);
    // The stale writer's cached length was not advanced by the refused append.
    tokens.set("s", 2);
    await stale.append("s", [ev(1)]);
    assert.equal((await owner.cursor("s"))?.length, 2);
  });
}

Deno.test("`LibsqlBackend.fork()` copies the parent's rows inside the database", async () => {
  await using dir = await tempDir();
  await using backend = await LibsqlBackend.open({ url: `file:${dir.path}/fork.db` });
  await backend.initialize(header("p"), evs(0, 50));
  await backend.fork(header("c"), "p", 19, [ev(20, { seedLength: 21 })]);
  const child = (await backend.load("c"))!;
  assert.deepEqual(child.events.slice(0, 20), evs(0, 20));
  assert.deepEqual(child.events[20]?.data, { seedLength: 21 });
  await assert.rejects(
    backend.fork(header("c2"), "p", 50, []),
    (e) => e instanceof SessionError && e.code === "invalid_seq",
  );
  await assert.rejects(
    backend.fork(header("c3"), "nope", 0, []),
    (e) => e instanceof SessionError && e.code === "session_not_found",
  );
  await assert.rejects(
    backend.fork(header("c"), "p", 1, [ev(2)]),
    (e) => e instanceof SessionError && e.code === "session_exists",
  );
  await assert.rejects(
    backend.fork(header("c4"), "p", 1, [ev(5)]),
    (e) => e instanceof SessionError && e.code === "invalid_seq",
  );
  const tail = (await backend.tail("p", 3))!;
  assert.deepEqual([tail.length, tail.events.map((e) => e.seq)], [50, [47, 48, 49]]);
  assert.equal(await backend.tail("nope", 3), undefined);
  assert.deepEqual((await backend.tail("p", 500))!.events, evs(0, 50));
});

for (const kind of SHARED) {
  Deno.test(`${kind}: an empty fenced append proves the lease; a damaged stored tail is storage_corrupt`, async () => {
    await using dir = await tempDir();
    const url = await storageUrl(kind, dir.path);
    let token = 1;
    await using backend = await openShared(kind, url, () => token);
    await setLease(kind, url, "s", 1);
    await backend.initialize(header("s"), evs(0, 5));
    await backend.append("s", []);
    token = 2;
    await assert.rejects(backend.append("s", []), leaseLost);
    await raw(kind, url, "DELETE FROM events WHERE session_id = 's' AND seq = 3", []);
    await assert.rejects(
      backend.tail("s", 3),
      (e) => e instanceof SessionError && e.code === "storage_corrupt" && e.details.seq === 2,
    );
  });
}

for (const kind of SHARED) {
  Deno.test(`${kind}: racing shared openers of one fresh database all open it, the schema created once`, async () => {
    await using dir = await tempDir();
    const url = await storageUrl(kind, dir.path);
    const opened = await Promise.all([
      openShared(kind, url),
      openShared(kind, url),
      openShared(kind, url),
    ]);
    try {
      await opened[0]!.initialize(header("r"), evs(0, 1));
      for (const backend of opened) assert.equal((await backend.cursor("r"))?.length, 1);
    } finally {
      for (const backend of opened) await backend[Symbol.asyncDispose]();
    }
  });
}
