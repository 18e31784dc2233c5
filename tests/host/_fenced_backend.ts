/**
 * A test stand-in for the storage fence of docs/long-sessions.md "Fenced appends" (the s11 half
 * of issue 16) over any backend: before a session's events are written, the token the host
 * holds is compared with `session_leases`; a difference (or no row) refuses the write with
 * code `lease_lost`. Two hosts in one process share one inner backend through two of these.
 *
 * @module
 */
import type { Client } from "@libsql/client";
import {
  type EventPage,
  type PersistenceBackend,
  SessionError,
  type SessionEvent,
  type SessionHeader,
  type StoredCursor,
  type StoredSession,
} from "@chime/session";

/** A backend whose writes are fenced by the lease table; disposing it leaves `inner` open. */
export class FencedBackend implements PersistenceBackend {
  /** Backend name. */
  readonly kind = "fenced";
  /** Writes refused by the fence so far. */
  refused = 0;
  readonly #inner: PersistenceBackend;
  readonly #client: Client;
  readonly #fence: (id: string) => number | undefined;

  /**
   * @param inner the shared backend
   * @param client a client of the database holding `session_leases`
   * @param fence the host's token per session
   */
  constructor(
    inner: PersistenceBackend,
    client: Client,
    fence: (id: string) => number | undefined,
  ) {
    this.#inner = inner;
    this.#client = client;
    this.#fence = fence;
  }

  async #check(id: string): Promise<void> {
    const token = this.#fence(id);
    if (token === undefined) return;
    const row = (await this.#client.execute({
      sql: "SELECT token FROM session_leases WHERE session_id = ?",
      args: [id],
    })).rows[0];
    if (row === undefined || Number(row.token) !== token) {
      this.refused++;
      // The contract's `SessionError` code `lease_lost` (not in this branch's code union yet).
      const error = new SessionError("persistence_failed", `Cannot append: lease of ${id} lost`);
      throw Object.assign(error, { code: "lease_lost" });
    }
  }

  /** Reads the inner cursor. */
  cursor(id: string): Promise<StoredCursor | undefined> {
    return this.#inner.cursor(id);
  }
  /** Fenced initialize. */
  async initialize(header: SessionHeader, events: readonly SessionEvent[]): Promise<void> {
    await this.#check(header.id);
    await this.#inner.initialize(header, events);
  }
  /** Fenced append. */
  async append(id: string, events: readonly SessionEvent[]): Promise<void> {
    await this.#check(id);
    await this.#inner.append(id, events);
  }
  /** Reads a whole session. */
  load(id: string): Promise<StoredSession | undefined> {
    return this.#inner.load(id);
  }
  /** Reads a page. */
  readEvents(id: string, page?: EventPage): Promise<SessionEvent[]> {
    return this.#inner.readEvents(id, page);
  }
  /** Lists headers. */
  list(): Promise<SessionHeader[]> {
    return this.#inner.list();
  }
  /** Leaves the shared inner backend open. */
  async [Symbol.asyncDispose](): Promise<void> {}
}
