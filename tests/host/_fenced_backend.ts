/**
 * A test stand-in for the storage fence of docs/long-sessions.md "Fenced appends" over any
 * backend: before a session's events are written, the token the host holds is compared with
 * `session_leases`; a difference (or no row) refuses the write with code `lease_lost`. Two hosts
 * in one process share one inner backend through two of these.
 *
 * @module
 */
import type { Client } from "@libsql/client";
import {
  type PersistenceBackend,
  SessionError,
  type SessionEvent,
  type SessionHeader,
} from "@chime/session";

/** A fenced view of a shared backend; `refused` counts the writes the fence refused. */
export type FencedBackend = PersistenceBackend & { readonly refused: number };

/**
 * Wraps a shared backend: `initialize` and `append` are fenced, disposal leaves `inner` open,
 * every other member (whatever the backend interface holds) is the inner one.
 *
 * @param inner the shared backend
 * @param client a client of the database holding `session_leases`
 * @param fence the host's token per session
 * @returns the fenced view
 */
export function fencedBackend(
  inner: PersistenceBackend,
  client: Client,
  fence: (id: string) => number | undefined,
): FencedBackend {
  let refused = 0;
  const check = async (id: string): Promise<void> => {
    const token = fence(id);
    if (token === undefined) return;
    const row = (await client.execute({
      sql: "SELECT token FROM session_leases WHERE session_id = ?",
      args: [id],
    })).rows[0];
    if (row === undefined || Number(row.token) !== token) {
      refused++;
      throw new SessionError("lease_lost", `Cannot append: lease of ${id} lost`);
    }
  };
  const own: Record<PropertyKey, unknown> = {
    kind: "fenced",
    get refused() {
      return refused;
    },
    async initialize(header: SessionHeader, events: readonly SessionEvent[]) {
      await check(header.id);
      await inner.initialize(header, events);
    },
    async append(id: string, events: readonly SessionEvent[]) {
      await check(id);
      await inner.append(id, events);
    },
    [Symbol.asyncDispose]: async () => {},
  };
  return new Proxy(inner, {
    get(target, key) {
      if (key in own) return Reflect.get(own, key);
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as FencedBackend;
}
