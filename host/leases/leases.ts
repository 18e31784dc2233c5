/**
 * {@linkcode HostLeases}: one live owner per session among several hosts sharing one storage
 * (docs/deploy.md, docs/long-sessions.md "Fenced appends"), over the driver's `LeaseTable`. Making a session live acquires its lease; the runtime
 * renews every held lease each TTL/3; a lease that cannot be renewed (taken by another host, or
 * past its expiry without a successful renewal) is lost, and the runtime turns the session cold
 * here. {@linkcode leaseRouting} answers `409 session_owned_elsewhere` with the owner's URL for
 * requests that would make a session live while another host holds it.
 *
 * Leases exist only in shared mode (the driver's `shared`: for libSQL `storage.shared`, implied
 * for remote URLs); a single host keeps the per-file writer lock and needs none.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import type {
  Clock,
  Lease,
  LeaseOwner,
  LeaseTable,
  StorageDriver,
  TimerHandle,
} from "@chime/session";
import { SessionError } from "@chime/session";
import type { StorageSettings } from "../config/config.ts";
import { ConfigError, HostError } from "../errors.ts";
import { storageDriver } from "../registry.ts";
import { sessionIdParam } from "../http/_http.ts";
import { countLease } from "../telemetry.ts";

/** Lease settings of a host. */
export interface LeaseSettings {
  /** Lease length, seconds; renewed every third of it. @default 15 */
  readonly ttlSeconds: number;
}

/** Options of {@linkcode HostLeases}. */
export interface HostLeasesOptions {
  /** Lease length, ms. */
  readonly ttlMs: number;
  /** Wall clock and the renewal timer. */
  readonly clock: Clock;
  /** Told once per lost lease, with the new owner when one is known. */
  readonly onLost: (sessionId: string, owner: LeaseOwner | undefined) => void;
  /** Where renewal failures go. */
  readonly reportError: (error: unknown) => void;
  /** Called last by dispose (closes the lease connection). @default nothing */
  readonly onClose?: () => void | PromiseLike<void>;
  /**
   * Told when a session this host recently answered `409` for was released by its owner (the
   * table's `onReleased` hint, a clean shutdown elsewhere): the runtime takes it at once.
   * @default nothing
   */
  readonly onFreed?: (sessionId: string) => void;
}

/** How long a session this host answered `409` for stays wanted, ms. */
const WANTED_MS = 10 * 60_000;

/**
 * Whether storage is shared by several hosts, as its driver says (libSQL: `storage.shared`,
 * implied for remote URLs, as docs/long-sessions.md "Fenced appends" says).
 *
 * @param storage resolved storage settings
 * @param drivers the driver table @default STORAGE_DRIVERS
 * @returns `true` in shared mode
 */
export function sharedStorage(
  storage: StorageSettings,
  drivers?: Readonly<Record<string, StorageDriver>>,
): boolean {
  return storageDriver(storage.kind, drivers === undefined ? {} : { drivers }).shared(storage);
}

/**
 * A host id unique to this process (a restarted host is a new holder).
 *
 * @returns `hostname/pid/random`
 */
export function hostId(): string {
  const random = crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36);
  return `${Deno.hostname()}/${Deno.pid}/${random}`;
}

/**
 * The `409 session_owned_elsewhere` error for a session another host holds.
 *
 * @param id the session
 * @param url the owner's advertised base URL
 * @returns the error (details `{ url }`)
 */
export function ownedElsewhere(id: string, url: string): HostError {
  return new HostError(
    "session_owned_elsewhere",
    `Cannot make session ${id} live here: another host owns it`,
    { url },
  );
}

/**
 * Whether an error is the storage fence refusing an append (`SessionError` `lease_lost`), or
 * was caused by it.
 *
 * @param error anything thrown
 * @returns `true` for a refused append
 */
export function isLeaseLost(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === "lease_lost") return true;
  }
  return false;
}

/**
 * The leases this host holds, their renewal, and the fencing token of each session for the
 * storage fence (docs/long-sessions.md "Fenced appends").
 */
export class HostLeases implements AsyncDisposable {
  /** The lease table (this host's view of it). */
  readonly table: LeaseTable;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  readonly #onLost: HostLeasesOptions["onLost"];
  readonly #reportError: (error: unknown) => void;
  readonly #onClose: (() => void | PromiseLike<void>) | undefined;
  readonly #held = new Map<string, Lease>();
  /** The last token held per session, kept after a loss: a stale token fails the fence. */
  readonly #tokens = new Map<string, number>();
  readonly #pending = new Map<string, Promise<void>>();
  #timer: TimerHandle | undefined;
  #renewing: Promise<void> = Promise.resolve();
  #closed = false;
  /** When the last renewal attempt that threw did so (host clock, ms); cleared by a success. */
  #failingSince: number | undefined;
  /** When the last renewal pass ended (host clock, ms). */
  #lastPass: number;
  /** Sessions this host answered `409` for, with when (host clock, ms). */
  readonly #wanted = new Map<string, number>();
  #unlisten: Promise<(() => Promise<void>) | undefined> = Promise.resolve(undefined);

  /**
   * Creates the host's lease holder and starts renewing every TTL/3.
   *
   * @param table the lease table, holder and URL set
   * @param options ttl, clock, loss callback
   */
  constructor(table: LeaseTable, options: HostLeasesOptions) {
    this.table = table;
    this.#ttlMs = options.ttlMs;
    this.#clock = options.clock;
    this.#onLost = options.onLost;
    this.#reportError = options.reportError;
    this.#onClose = options.onClose;
    this.#lastPass = this.#clock.now();
    this.#arm();
    const onFreed = options.onFreed;
    if (onFreed !== undefined && table.onReleased !== undefined) {
      this.#unlisten = table.onReleased((id) => {
        const since = this.#wanted.get(id);
        if (since === undefined || this.#closed || this.#held.has(id)) return;
        this.#wanted.delete(id);
        if (this.#clock.now() - since <= WANTED_MS) onFreed(id);
      }).catch((error) => {
        this.#reportError(error);
        return undefined;
      });
    }
  }

  /**
   * The storage fence hook (`LibsqlBackend` option `fence`): the token this host holds for a
   * session, the stale one after a loss, `undefined` for a session never leased here.
   */
  readonly fence = (sessionId: string): number | undefined => this.#tokens.get(sessionId);

  /**
   * Whether this host holds the session's lease.
   *
   * @param sessionId the session
   * @returns `true` while held
   */
  holds(sessionId: string): boolean {
    return this.#held.has(sessionId);
  }

  /**
   * Acquires a session's lease unless this host holds it already.
   *
   * @param sessionId the session
   * @throws {HostError} `session_owned_elsewhere` (`{ url }`) while another host holds it
   */
  claim(sessionId: string): Promise<void> {
    if (this.#held.has(sessionId)) return Promise.resolve();
    let pending = this.#pending.get(sessionId);
    if (pending === undefined) {
      pending = this.#acquire(sessionId).finally(() => this.#pending.delete(sessionId));
      this.#pending.set(sessionId, pending);
    }
    return pending;
  }

  /** Remembers a session a client asked for here while another host held it. */
  #want(sessionId: string): void {
    const now = this.#clock.now();
    this.#wanted.set(sessionId, now);
    if (this.#wanted.size > 10_000) {
      for (const [id, at] of this.#wanted) if (now - at > WANTED_MS) this.#wanted.delete(id);
    }
  }

  async #acquire(sessionId: string): Promise<void> {
    const got = await this.table.acquire(sessionId, this.#ttlMs);
    if (!got.ok) {
      if (got.owner.holder !== this.table.holder) this.#want(sessionId);
      throw ownedElsewhere(sessionId, got.owner.url);
    }
    this.#wanted.delete(sessionId);
    this.#held.set(sessionId, got.lease);
    this.#tokens.set(sessionId, got.lease.token);
  }

  /**
   * The live owner of a session when it is another host.
   *
   * @param sessionId the session
   * @returns the owner, or `undefined` when free or held here
   */
  async elsewhere(sessionId: string): Promise<LeaseOwner | undefined> {
    if (this.#held.has(sessionId)) return undefined;
    const owner = await this.table.owner(sessionId);
    const elsewhere = owner?.live === true && owner.holder !== this.table.holder;
    if (elsewhere) this.#want(sessionId);
    return elsewhere ? owner : undefined;
  }

  /**
   * Gives a held lease up (the session went cold here): another host may take it at once.
   *
   * @param sessionId the session
   */
  async release(sessionId: string): Promise<void> {
    const lease = this.#held.get(sessionId);
    if (lease === undefined) return;
    this.#held.delete(sessionId);
    await this.table.release(lease);
    this.#tokens.delete(sessionId);
  }

  /**
   * Proves a session's lease before work that must not run under a lost one (a turn's model
   * call, docs/deploy.md "Fencing"): a lease renewed within the last TTL/2 (on this host's
   * clock) passes at once; an older one (the renewal timer ran late: a paused or starved
   * process) is renewed now, so a host that wakes after another took over finds out here,
   * before it calls the model.
   *
   * @param sessionId the session
   * @throws {SessionError} `lease_lost` (`details.sessionId`) when this host no longer holds
   *   the lease
   */
  async ensure(sessionId: string): Promise<void> {
    let lease = this.#held.get(sessionId);
    if (lease !== undefined && this.#clock.now() >= lease.expiresAt - this.#ttlMs / 2) {
      await this.#renew(lease);
      lease = this.#held.get(sessionId);
    }
    if (lease === undefined) {
      throw new SessionError(
        "lease_lost",
        `Cannot run a turn of ${sessionId}: its lease was lost`,
        {
          details: { sessionId },
        },
      );
    }
  }

  /**
   * Whether this host held a session's lease and has lost it (checked now: a held lease is
   * renewed first).
   *
   * @param sessionId the session
   * @returns `true` once another host took it from this one
   */
  async lostHere(sessionId: string): Promise<boolean> {
    if (this.#tokens.get(sessionId) === undefined) return false;
    await this.confirm(sessionId);
    return !this.#held.has(sessionId);
  }

  /**
   * Re-checks one lease now (an append was refused by the fence): renews it, or declares it
   * lost.
   *
   * @param sessionId the session
   */
  async confirm(sessionId: string): Promise<void> {
    const lease = this.#held.get(sessionId);
    if (lease !== undefined) await this.#renew(lease);
  }

  async #renew(lease: Lease): Promise<void> {
    let renewed: Lease | undefined;
    try {
      renewed = await this.table.renew(lease, this.#ttlMs);
    } catch (error) {
      this.#reportError(error);
      this.#failingSince ??= this.#clock.now();
      // Unreachable storage: keep acting as owner only while the lease is surely in force.
      if (this.#clock.now() < lease.expiresAt) return;
    }
    this.#failingSince = undefined;
    if (this.#held.get(lease.sessionId) !== lease) return; // released or renewed meanwhile
    if (renewed !== undefined) {
      this.#held.set(lease.sessionId, renewed);
      countLease("renewed");
      return;
    }
    countLease("lost");
    this.#held.delete(lease.sessionId);
    const owner = await this.table.owner(lease.sessionId).catch(() => undefined);
    this.#onLost(lease.sessionId, owner?.live === true ? owner : undefined);
  }

  #arm(): void {
    if (this.#closed) return;
    this.#timer = this.#clock.setTimer(() => {
      this.#renewing = Promise.all([...this.#held.values()].map((l) => this.#renew(l)))
        .then(() => {}, this.#reportError)
        .finally(() => {
          this.#lastPass = this.#clock.now();
          this.#arm();
        });
    }, Math.max(1, Math.floor(this.#ttlMs / 3)));
  }

  /**
   * Whether renewals keep the held leases in force, for `/readyz` (docs/operations.md): a
   * renewal that threw (the lease table cannot be reached) until one succeeds, and a renewal
   * pass later than one TTL while leases are held (a starved or paused process), each give one
   * sentence.
   *
   * @returns `{ reasons }`, empty while renewing
   */
  health(): { readonly reasons: readonly string[] } {
    const now = this.#clock.now();
    const reasons: string[] = [];
    if (this.#failingSince !== undefined) {
      reasons.push(
        `lease renewals are failing since ${new Date(this.#failingSince).toISOString()} ` +
          "(the lease table cannot be reached)",
      );
    }
    const late = now - this.#lastPass;
    if (this.#held.size > 0 && late > this.#ttlMs) {
      reasons.push(
        `lease renewals are late: the last pass was ${late} ms ago (TTL ${this.#ttlMs} ms)`,
      );
    }
    return { reasons };
  }

  /** Stops renewing and releases every held lease (a clean shutdown hands sessions over). */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#closed = true;
    this.#timer?.cancel();
    await (await this.#unlisten)?.().catch(this.#reportError);
    await this.#renewing;
    const held = [...this.#held.keys()];
    await Promise.all(held.map((id) => this.release(id).catch(this.#reportError)));
    await this.#onClose?.();
  }
}

/** Options of {@linkcode openLeases}. */
export interface OpenLeasesOptions extends Omit<HostLeasesOptions, "ttlMs"> {
  /** Lease settings. @default { ttlSeconds: 15 } */
  readonly lease?: LeaseSettings;
  /** This host's advertised base URL. @default set by `startServer` once it listens */
  readonly advertisedUrl?: string;
  /** A lease table to use whatever the storage (tests). @default the storage driver's */
  readonly table?: LeaseTable;
  /** The storage drivers. @default STORAGE_DRIVERS of `host/registry.ts` */
  readonly drivers?: Readonly<Record<string, StorageDriver>>;
}

/**
 * Opens the lease holder of a host in shared mode, over the storage driver's lease table on its
 * own connection (for libSQL the `session_leases` table of schema v15).
 *
 * @param storage resolved storage settings
 * @param options lease settings, URL, clock, loss callback
 * @returns the holder, or `undefined` when storage is not shared
 * @throws {ConfigError} `config_invalid` when the storage is shared but its driver has no
 *   lease table
 */
export async function openLeases(
  storage: StorageSettings,
  options: OpenLeasesOptions,
): Promise<HostLeases | undefined> {
  const { table, lease, advertisedUrl, drivers, ...rest } = options;
  const ttlMs = (lease?.ttlSeconds ?? 15) * 1000;
  if (table !== undefined) return new HostLeases(table, { ...rest, ttlMs });
  const driver = storageDriver(storage.kind, drivers === undefined ? {} : { drivers });
  if (!driver.shared(storage)) return undefined;
  if (driver.leases === undefined) {
    throw new ConfigError(
      "config_invalid",
      `Cannot load config: storage.kind "${driver.kind}" is shared but has no lease table`,
    );
  }
  const own = await driver.leases(storage, {
    holder: hostId(),
    clock: options.clock,
    ...(advertisedUrl === undefined ? {} : { url: advertisedUrl }),
  });
  return new HostLeases(own, { ...rest, ttlMs, onClose: () => own[Symbol.asyncDispose]() });
}

/**
 * Routing of requests for sessions owned elsewhere (docs/deploy.md): every request under
 * `/api/sessions/:id/` that would make the session live (every `POST`, and the stream) answers
 * `409 session_owned_elsewhere` with `{ url }` of the live owner when the session is not live
 * here and another host holds its lease. History and reminders reads pass: they read the
 * durable log. An append refused by the fence (`lease_lost`) re-checks the lease and answers
 * the same 409.
 *
 * @param runtime what the middleware reads of the runtime
 * @returns the middleware
 */
export function leaseRouting(
  runtime: {
    readonly leases: HostLeases | undefined;
    liveSession(id: string): unknown;
  },
): MiddlewareHandler {
  return async (c, next) => {
    const leases = runtime.leases;
    const activates = c.req.method !== "GET" || c.req.path.endsWith("/stream");
    if (leases === undefined || !activates) return await next();
    const id = sessionIdParam(c);
    if (runtime.liveSession(id) === undefined) {
      const owner = await leases.elsewhere(id);
      if (owner !== undefined) throw ownedElsewhere(id, owner.url);
    }
    await next();
    // Refused by the fence, or failed in any way for a session this host held: when the lease
    // is gone (a slow renewal may not have noticed yet), the answer is where the session went.
    if (isLeaseLost(c.error) || (c.error !== undefined && await leases.lostHere(id))) {
      await leases.confirm(id);
      const owner = await leases.elsewhere(id);
      const error = ownedElsewhere(id, owner?.url ?? "");
      c.res = c.json(
        { error: { ...error.details, code: error.code, message: error.message } },
        409,
      );
    }
  };
}
