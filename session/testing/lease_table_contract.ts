/**
 * The {@linkcode LeaseTable} contract (docs/long-sessions.md "Schema v15" and "Fenced
 * appends"), for any driver's lease table: one live owner per session, tokens that only grow,
 * renewal only under the current token, release that frees at once.
 *
 * @module
 */
import type { LeaseTable } from "../backend.ts";
import { FakeClock } from "./fake_clock.ts";

/** Opens two hosts' views of one fresh lease table, both on `clock`. */
export type OpenLeaseTables = (
  clock: FakeClock,
) => Promise<{ a: LeaseTable; b: LeaseTable } & AsyncDisposable>;

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`LeaseTable contract: ${what}`);
}

/**
 * Runs the contract against the tables `open` returns; throws at the first broken rule.
 *
 * @param open opens two holders (`a`, `b`) of one fresh table
 * @param options `realTime`: the table compares expiries on a clock of its own (a database's
 *   `now()`), so each step of time also really passes (the contract then takes about 4 s)
 * @returns once every rule held
 *
 * @example The libSQL lease table meets the contract
 * ```ts
 * import { createClient } from "@libsql/client";
 * import { SessionLeases } from "@chime/session";
 * import { createLeaseTable, leaseTableContract } from "@chime/session/testing";
 * await leaseTableContract(async (clock) => {
 *   const client = createClient({ url: ":memory:" });
 *   await createLeaseTable(client);
 *   return {
 *     a: new SessionLeases(client, { holder: "a", url: "http://a/", clock }),
 *     b: new SessionLeases(client, { holder: "b", url: "http://b/", clock }),
 *     [Symbol.asyncDispose]: () => Promise.resolve(client.close()),
 *   };
 * });
 * ```
 */
export async function leaseTableContract(
  open: OpenLeaseTables,
  options: { readonly realTime?: boolean } = {},
): Promise<void> {
  using fake = new FakeClock(1_000_000);
  const clock = {
    now: () => fake.now(),
    advance: async (ms: number) => {
      if (options.realTime) await new Promise((resolve) => setTimeout(resolve, ms));
      await fake.advance(ms);
    },
  };
  await using tables = await open(fake);
  const { a, b } = tables;
  check(await a.owner("s") === undefined, "a session never leased has no owner");
  const first = await a.acquire("s", 3_000);
  check(first.ok && first.lease.token === 1, "the first acquisition gets token 1");
  if (!first.ok) return;
  check(first.lease.expiresAt === clock.now() + 3_000, "expiresAt is now + ttl");
  const held = await b.acquire("s", 3_000);
  check(!held.ok && held.owner.holder === a.holder && held.owner.live, "a live lease is held");
  check(!held.ok && held.owner.url === a.url, "the owner row carries the holder's URL");
  const again = await a.acquire("s", 3_000);
  check(!again.ok, "a holder renews, it does not acquire twice");
  await clock.advance(1_000);
  const renewed = await a.renew(first.lease, 3_000);
  check(renewed?.expiresAt === clock.now() + 3_000, "renewal extends from now");
  check(await b.renew(first.lease, 3_000) === undefined, "only the holder renews");
  await clock.advance(3_001);
  const expired = await a.owner("s");
  check(expired !== undefined && !expired.live, "an expired lease is not live");
  const taken = await b.acquire("s", 3_000);
  check(taken.ok && taken.lease.token === 2, "a take-over gets a larger token");
  check(await a.renew(renewed!, 3_000) === undefined, "a stale token cannot renew");
  check(!await a.release(renewed!), "a stale token cannot release");
  if (!taken.ok) return;
  check(await b.release(taken.lease), "the holder releases");
  const freed = await b.owner("s");
  check(freed?.live === false && freed.token === 2, "a release frees at once, keeping the token");
  const next = await a.acquire("s", 3_000);
  check(next.ok && next.lease.token === 3, "the next holder's token is larger still");
  let refused = false;
  await a.acquire("t", 0).catch((error) => refused = error instanceof RangeError);
  check(refused, "a ttl that is not a positive integer is a RangeError");
}
