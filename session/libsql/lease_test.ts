import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import fc from "fast-check";
import type { Clock } from "../clock.ts";
import { type Lease, SessionLeases } from "./lease.ts";
import { createLeaseTable } from "../testing/lease_table.ts";

const TTL = 15_000;
const noTimers = (): never => {
  throw new Error("no timers here");
};

function manualClock(start: number): Clock & { t: number } {
  const clock = { t: start, now: () => clock.t, setTimer: noTimers };
  return clock;
}

async function memoryTable() {
  const client = createClient({ url: ":memory:" });
  await createLeaseTable(client);
  return Object.assign(client, { [Symbol.dispose]: () => client.close() });
}

Deno.test("`SessionLeases.acquire()` takes a free session and refuses a held one", async () => {
  using client = await memoryTable();
  const clock = manualClock(1_000);
  const a = new SessionLeases(client, { holder: "a", url: "http://a/", clock });
  const b = new SessionLeases(client, { holder: "b", clock });
  b.url = "http://b/";
  assert.equal(b.url, "http://b/");
  assert.equal(await a.owner("s"), undefined);
  assert.deepEqual(await a.acquire("s", TTL), {
    ok: true,
    lease: { sessionId: "s", token: 1, expiresAt: 16_000 },
  });
  const refused = await b.acquire("s", TTL);
  assert.deepEqual(refused, {
    ok: false,
    owner: { holder: "a", url: "http://a/", token: 1, expiresAt: 16_000, live: true },
  });
  // A holder does not acquire twice: it renews.
  assert.equal((await a.acquire("s", TTL)).ok, false);
});

Deno.test("an expired lease is taken with a larger token and the old holder cannot renew", async () => {
  using client = await memoryTable();
  const clock = manualClock(0);
  const a = new SessionLeases(client, { holder: "a", url: "http://a/", clock });
  const b = new SessionLeases(client, { holder: "b", url: "http://b/", clock });
  const first = await a.acquire("s", TTL);
  assert.ok(first.ok);
  clock.t = TTL; // expires_at = now: still in force
  assert.equal((await b.acquire("s", TTL)).ok, false);
  clock.t = TTL + 1;
  assert.equal((await a.owner("s"))?.live, false);
  const second = await b.acquire("s", TTL);
  assert.ok(second.ok);
  assert.equal(second.lease.token, 2);
  assert.equal(await a.renew(first.lease, TTL), undefined);
  assert.equal(await a.release(first.lease), false);
  assert.deepEqual(await b.renew(second.lease, TTL), { ...second.lease, expiresAt: 2 * TTL + 1 });
});

Deno.test("`release()` frees a session at once and keeps its token growing", async () => {
  using client = await memoryTable();
  const clock = manualClock(5_000);
  const a = new SessionLeases(client, { holder: "a", clock });
  const b = new SessionLeases(client, { holder: "b", clock });
  const got = await a.acquire("s", TTL);
  assert.ok(got.ok);
  assert.equal(await a.release(got.lease), true);
  assert.deepEqual(await b.owner("s"), {
    holder: "a",
    url: "",
    token: 1,
    expiresAt: 0,
    live: false,
  });
  const next = await b.acquire("s", TTL);
  assert.ok(next.ok);
  assert.equal(next.lease.token, 2);
});

Deno.test("an expired lease nobody took may still be renewed by its holder", async () => {
  using client = await memoryTable();
  const clock = manualClock(0);
  const a = new SessionLeases(client, { holder: "a", clock });
  const got = await a.acquire("s", TTL);
  assert.ok(got.ok);
  clock.t = 10 * TTL;
  assert.equal((await a.renew(got.lease, TTL))?.expiresAt, 11 * TTL);
});

Deno.test("`SessionLeases` refuses a ttl that is not a positive integer", async () => {
  using client = await memoryTable();
  const a = new SessionLeases(client, { holder: "a" });
  const lease: Lease = { sessionId: "s", token: 1, expiresAt: 0 };
  await assert.rejects(a.acquire("s", 0), RangeError);
  await assert.rejects(a.renew(lease, 1.5), RangeError);
  assert.equal((await a.acquire("s", 1)).ok, true); // the system clock by default
});

Deno.test("hosts racing through separate connections to one file: exactly one wins", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = `file:${dir}/leases.db`;
    const clients = Array.from({ length: 3 }, () => createClient({ url }));
    await clients[0]!.execute("PRAGMA journal_mode = WAL");
    await createLeaseTable(clients[0]!);
    const hosts = clients.map((c, i) => new SessionLeases(c, { holder: `h${i}` }));
    for (let round = 0; round < 10; round++) {
      const results = await Promise.all(
        hosts.flatMap((h) => [h.acquire(`s${round}`, TTL), h.acquire(`s${round}`, TTL)]),
      );
      assert.equal(results.filter((r) => r.ok).length, 1);
      const owners = new Set(results.map((r) => r.ok ? r.lease.token : r.owner.token));
      assert.deepEqual([...owners], [1]);
    }
    for (const c of clients) c.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// The model: one row per session, one held lease per (host, session).
type Op =
  | {
    readonly kind: "acquire" | "renew" | "release" | "append";
    readonly host: number;
    readonly s: number;
  }
  | { readonly kind: "advance"; readonly ms: number };
interface ModelRow {
  holder: string;
  token: number;
  expiresAt: number;
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constantFrom("acquire", "renew", "release", "append"),
    host: fc.integer({ min: 0, max: 2 }),
    s: fc.integer({ min: 0, max: 1 }),
  }),
  fc.record({
    kind: fc.constant("advance"),
    // The expiry boundary (`expires_at < now` frees a session) is hit on purpose.
    ms: fc.oneof(
      fc.constantFrom(0, 1, TTL - 1, TTL, TTL + 1),
      fc.integer({ min: 0, max: 2 * TTL }),
    ),
  }),
) as fc.Arbitrary<Op>;

Deno.test("property: leases against a model (acquire, renew, expire, steal, release, fence)", async () => {
  using client = await memoryTable();
  await fc.assert(
    fc.asyncProperty(
      fc.array(opArb, { minLength: 10, maxLength: 60, size: "max" }),
      async (ops) => {
        await client.execute("DELETE FROM session_leases");
        const clock = manualClock(1_000_000);
        // Host 2 reuses host 0's id (a restart with the same id): only the token tells them apart.
        const hosts = [0, 1, 0].map((i) =>
          new SessionLeases(client, { holder: `h${i}`, url: `http://h${i}/`, clock })
        );
        const rows = new Map<number, ModelRow>();
        const held = new Map<string, Lease>();
        for (const op of ops) {
          if (op.kind === "advance") {
            clock.t += op.ms;
            continue;
          }
          const host = hosts[op.host]!;
          const key = `${op.host}/${op.s}`;
          const id = `s${op.s}`;
          const row = rows.get(op.s);
          const mine = held.get(key);
          const current = mine !== undefined && row?.token === mine.token &&
            row.holder === host.holder;
          if (op.kind === "acquire") {
            const got = await host.acquire(id, TTL);
            const free = row === undefined || row.expiresAt < clock.t;
            assert.equal(got.ok, free);
            if (got.ok) {
              const next = {
                holder: host.holder,
                token: (row?.token ?? 0) + 1,
                expiresAt: clock.t + TTL,
              };
              assert.deepEqual(got.lease, {
                sessionId: id,
                token: next.token,
                expiresAt: next.expiresAt,
              });
              rows.set(op.s, next);
              held.set(key, got.lease);
            } else {
              assert.equal(got.owner.token, row!.token);
              assert.equal(got.owner.holder, row!.holder);
            }
          } else if (op.kind === "renew" && mine !== undefined) {
            const renewed = await host.renew(mine, TTL);
            assert.equal(renewed !== undefined, current);
            if (renewed !== undefined) {
              row!.expiresAt = clock.t + TTL;
              held.set(key, renewed);
            }
          } else if (op.kind === "release" && mine !== undefined) {
            assert.equal(await host.release(mine), current);
            if (current) row!.expiresAt = 0;
            held.delete(key);
          } else if (op.kind === "append") {
            // The storage fence (docs/long-sessions.md "Fenced appends"): the stored token must
            // equal the one this host holds.
            const stored = (await client.execute({
              sql: "SELECT token FROM session_leases WHERE session_id = ?",
              args: [id],
            })).rows[0]?.token;
            const allowed = mine !== undefined && Number(stored) === mine.token;
            assert.equal(allowed, mine !== undefined && row?.token === mine.token);
          }
          // Invariants: the table is the model; at most one host holds a lease that is both in
          // force and passes the fence.
          for (const [s, model] of rows) {
            const owner = await hosts[0]!.owner(`s${s}`);
            assert.deepEqual(
              { holder: owner?.holder, token: owner?.token, expiresAt: owner?.expiresAt },
              model,
            );
            const owners = [0, 1, 2].filter((h) => {
              const lease = held.get(`${h}/${s}`);
              return lease !== undefined && lease.token === model.token &&
                model.expiresAt >= clock.t;
            });
            assert.ok(owners.length <= 1);
          }
        }
      },
    ),
    { numRuns: 150 },
  );
});
