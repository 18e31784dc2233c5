/**
 * {@linkcode HostRuntime}: the store, the plugin loader, one agent per live root session, the
 * watermark and the stream feeds: everything the HTTP layer drives.
 *
 * @module
 */
import { Loader, type ModelAdapter, type Plugin } from "@chime/agent";
import {
  type Clock,
  type LeaseTable,
  type PersistenceBackend,
  type Session,
  SessionError,
  SessionStore,
  type StorageDriver,
  systemClock,
} from "@chime/session";
import { storedMessageExists } from "./_find_message.ts";
import { SESSION_DELETED } from "./admin.ts";
import { IdleRelease } from "./_idle_release.ts";
import { RuntimeAgents } from "./_runtime_agents.ts";
import { SessionLiveness } from "../leases/_runtime_leases.ts";
import { createModel, type HostAgent, openBackend } from "../config/adapters.ts";
import type { HostConfig } from "../config/config.ts";
import { HostError } from "../errors.ts";
import { type HostLeases, isLeaseLost, openLeases, sharedStorage } from "../leases/leases.ts";
import { type FeedLimits, Feeds } from "../feed/feed.ts";
import { type RegistryEntry, resolveRegistry, storageDriver } from "../registry.ts";
import { FileLinkKeys } from "../plugins/link_keys.ts";
import type { LinkKeys } from "@chime/contract";
import { Views, type ViewSource } from "../plugins/views.ts";
import { seedVerifiedPrefix } from "./history.ts";
import { Watermark } from "../feed/watermark.ts";
import { DurableHooks } from "../plugins/durable.ts";
import { webHost } from "../plugins/plugin_routes.ts";
import { AlertFeed } from "../feed/alerts.ts";
import { SessionTitles } from "./titles.ts";
import { HostTelemetry, type TelemetryOptions } from "../telemetry.ts";

/** The data directory plugins may keep files in: `dataDir`, else the local storage's folder. */
function dataDirOf(options: RuntimeOptions): string | undefined {
  if (options.config.dataDir !== undefined) return options.config.dataDir;
  if (options.backend !== undefined) return undefined;
  try {
    return storageDriver(options.config.storage.kind, {
      ...(options.storageDrivers === undefined ? {} : { drivers: options.storageDrivers }),
    }).directory(options.config.storage);
  } catch {
    return undefined; // an unknown kind fails where the storage opens
  }
}

/** Options of {@linkcode HostRuntime.open}. */
export interface RuntimeOptions {
  /** Storage, model, plugins and renderers; ignored parts are replaced by the overrides below. */
  readonly config:
    & Pick<HostConfig, "storage" | "model" | "plugins" | "renderers" | "cwd">
    & Partial<Pick<HostConfig, "lease" | "advertisedUrl" | "pluginOptions" | "dataDir">>;
  /** A backend to use instead of `config.storage` (tests). */
  readonly backend?: PersistenceBackend;
  /** OpenTelemetry options (docs/operations.md). @default no content recorded */
  readonly telemetry?: TelemetryOptions;
  /** A lease table to use instead of one opened from shared `config.storage` (tests). */
  readonly leaseTable?: LeaseTable;
  /**
   * The storage drivers `config.storage.kind` resolves against (tests: a new driver).
   * @default STORAGE_DRIVERS of `host/registry.ts`
   */
  readonly storageDrivers?: Readonly<Record<string, StorageDriver>>;
  /**
   * The plugins `config.plugins` names resolve against (tests: a new plugin).
   * @default PLUGINS of `host/registry.ts`
   */
  readonly pluginTable?: Readonly<Record<string, RegistryEntry>>;
  /** A model to use instead of `config.model` (tests, benches). */
  readonly model?: ModelAdapter;
  /** Plugins to load instead of the registry's (tests). */
  readonly plugins?: readonly Plugin[];
  /** View sources instead of the plugins' `web.views` (tests). */
  readonly views?: readonly ViewSource[];
  /** Wall clock and timers. @default systemClock */
  readonly clock?: Clock;
  /** Stream client queue bounds. */
  readonly feedLimits?: FeedLimits;
  /** Where failures with no caller go. @default globalThis.reportError */
  readonly reportError?: (error: unknown) => void;
  /**
   * Release (make cold) a live session after this long with no running turn, no open stream,
   * no pending plugin work (`Plugin.keepsLive`) and no activity, ms; `0` never releases.
   * `startServer` passes the config's `idleReleaseMinutes` (default 30). @default 0
   */
  readonly idleReleaseMs?: number;
}

/**
 * The host runtime. Plugins are loaded before any agent is published; each live root session
 * gets exactly one {@linkcode Agent} (on create, resume, fork or a message to a cold session);
 * cold history reads never create agents.
 *
 * @example Open a runtime on a memory backend and create a session
 * ```ts ignore
 * import { HostRuntime } from "@chime/host";
 * import { MemoryBackend } from "@chime/session/testing";
 * await using runtime = await HostRuntime.open({
 *   config: { storage: { kind: "libsql", url: ":memory:" }, model: { kind: "offline", reason: "" },
 *     plugins: [], renderers: [], cwd: "/" },
 *   backend: new MemoryBackend(),
 * });
 * const { session } = await runtime.create({ timeZone: "Europe/Paris" });
 * ```
 */
export class HostRuntime implements AsyncDisposable {
  /** The session store. */
  readonly store: SessionStore;
  /** The commit watermark. */
  readonly watermark: Watermark = new Watermark();
  /** Commit-gated view sources. */
  readonly views: Views;
  /** Stream clients. */
  readonly feeds: Feeds;
  /** The pages' alert streams (`GET /api/alerts`). */
  readonly alerts: AlertFeed;
  /** Session titles (the sessions list, the alert stream, `WebHost.title`). */
  readonly titles: SessionTitles;
  /** Enabled client renderers. */
  readonly renderers: readonly string[];
  /** The loaded plugins, in load order (their `web` parts are mounted by `createApp`). */
  readonly plugins: readonly Plugin[];
  /** `cwd` for sessions created without one. */
  readonly cwd: string;
  /** Session leases in shared mode (docs/deploy.md); `undefined` for a single host. */
  readonly leases: HostLeases | undefined;
  /**
   * Revocable link keys (docs/upcoming.md "Calendar feed"), in `config.dataDir`, else the
   * storage's local directory, else in memory.
   */
  readonly links: LinkKeys;
  /** Where contained failures with no caller go (a plugin's `onDeleted`, a hook). */
  readonly reportError: (error: unknown) => void;
  readonly #loader: Loader;
  readonly #agents: RuntimeAgents;
  readonly #liveness: SessionLiveness;
  readonly #idle: IdleRelease;
  readonly #flushed: Disposable;
  readonly #live: Disposable;
  readonly #telemetry: HostTelemetry;
  readonly #plugins: Plugin[] = [];
  #closing: Promise<void> | undefined;

  private constructor(
    options: RuntimeOptions,
    store: SessionStore,
    views: Views,
    leases: HostLeases | undefined,
  ) {
    this.store = store;
    this.links = new FileLinkKeys(linkDirectory(options));
    this.#loader = new Loader();
    this.views = views;
    this.feeds = new Feeds({
      watermark: this.watermark,
      views,
      onDetach: (session) => this.#idle.touch(session.id),
      read: (session, from, to) => this.store.read(session, from, to),
      ...(options.feedLimits === undefined ? {} : { limits: options.feedLimits }),
    });
    this.renderers = options.config.renderers;
    this.plugins = this.#plugins;
    this.titles = new SessionTitles(store);
    this.cwd = options.config.cwd;
    const clock = options.clock ?? systemClock;
    const reportError = options.reportError ?? ((e) => globalThis.reportError(e));
    this.reportError = reportError;
    const telemetry = new HostTelemetry(store, options.telemetry);
    this.#telemetry = telemetry;
    this.#agents = new RuntimeAgents({
      modelFor: (model, session) => telemetry.model(model, session),
      store,
      loader: this.#loader,
      model: options.model ?? createModel(options.config.model, clock),
      clock,
      reportError,
      ...(leases === undefined ? {} : { beforeStep: (id: string) => leases.ensure(id) }),
    });
    this.leases = leases;
    this.#liveness = new SessionLiveness({
      store,
      leases: this.leases,
      feeds: this.feeds,
      agents: this.#agents,
      reportError,
      onReleased: (id) => this.#idle.forget(id),
    });
    this.#idle = new IdleRelease({
      idleMs: options.idleReleaseMs ?? 0,
      clock,
      reportError,
      store,
      feeds: this.feeds,
      plugins: this.#plugins,
      agentOf: (session) => this.#agents.get(session),
      releasing: (id) => this.#liveness.releasing(id),
      closing: () => this.closing,
      release: (session) => this.#liveness.release(session),
    });
    const durable = new DurableHooks({
      plugins: this.#plugins,
      read: (session, from, to) => this.store.read(session, from, to),
      reportError,
      host: webHost(this),
    });
    this.alerts = new AlertFeed({
      views: (session, range) => this.feeds.viewsOf(session, range),
      title: (session) => this.titles.title(session.id, session.header.seedLength ?? 0),
      plugins: this.#plugins,
      reportError,
      ...(options.feedLimits === undefined ? {} : { limits: options.feedLimits }),
    });
    // One commit point (docs/design.md#receipt-watermark): the range the watermark newly covers
    // goes to the stream clients as sidecars and to the plugins' after-commit hooks.
    this.#flushed = store.onFlushed((session, through) => {
      const range = this.watermark.advance(session, through);
      if (range === undefined) return;
      this.feeds.covered(session, range);
      void this.alerts.covered(session, range);
      void durable.covered(session, range);
    });
    // A prefix read back from storage is durable by construction. Seeding here, synchronously as
    // the session goes live (resume, or create of a stored id), uses exactly the loaded length,
    // before any agent or plugin can append to it.
    this.#live = store.onLive((session, durable) => {
      if (durable === 0) return;
      this.watermark.seed(session, durable);
      seedVerifiedPrefix(session, durable);
    });
    // A refused write is withdrawn (README.md "How it behaves on failure"): the session turns cold without storing
    // it, its agent, owners and timers go with the live object, and the next request resumes
    // the durable log only; streams end so the page reads history back.
    this.#withdrawn = store.onWithdrawn((session, error) => {
      void this.#afterWithdrawn(session, error);
    });
  }

  readonly #withdrawn: Disposable;

  /**
   * A withdrawn write's session turns cold. When the storage fence refused it (another host took
   * the lease), the lease is checked first, so the loss path ends its streams with the new
   * owner's URL (`session-lost { url }`, docs/deploy.md "Fencing") and makes it cold; otherwise,
   * or when the lease turns out to be held still, the streams end with no URL here.
   */
  async #afterWithdrawn(session: Session, error: unknown): Promise<void> {
    if (this.leases !== undefined && isLeaseLost(error)) {
      // The loss path (`onLost`) ends the streams with the owner's URL and releases the session.
      await this.leases.confirm(session.id).catch(() => {});
      if (!this.leases.holds(session.id)) return;
    }
    this.feeds.endWithdrawn(session);
    await this.release(session);
  }

  /**
   * Opens storage and loads every plugin (before any agent can be published).
   *
   * @param options configuration and overrides
   * @returns the runtime; dispose it to shut down
   * @throws {ConfigError} for unknown plugin or renderer names
   * @throws {SessionError} `schema_rejected` for a foreign database
   */
  static async open(options: RuntimeOptions): Promise<HostRuntime> {
    const factories = resolveRegistry(
      options.config.plugins,
      options.config.renderers,
      options.config.pluginOptions,
      options.pluginTable,
      { dataDir: dataDirOf(options) },
    );
    const plugins = options.plugins ?? factories.map((create) => create());
    // The fence reads the leases the runtime opens once the backend is open (schema first).
    const late: { runtime?: HostRuntime } = {};
    const fence = (id: string) => late.runtime?.leases?.fence(id);
    const storage = options.config.storage;
    const drivers = options.storageDrivers === undefined ? {} : { drivers: options.storageDrivers };
    const backend = options.backend ??
      await openBackend(storage, {
        ...drivers,
        ...(sharedStorage(storage, options.storageDrivers) ? { fence } : {}),
      });
    let leases: HostLeases | undefined;
    try {
      leases = await openLeases(storage, {
        ...drivers,
        clock: options.clock ?? systemClock,
        reportError: options.reportError ?? ((e) => globalThis.reportError(e)),
        onLost: (id, owner) => {
          if (late.runtime !== undefined) late.runtime.#liveness.lost(id, owner?.url ?? "");
        },
        // A session released elsewhere that a client asked for here is taken at once (its
        // overdue reminders fire now, not on the next request); losing the race is harmless.
        onFreed: (id) => {
          void late.runtime?.resume(id).catch(() => {});
        },
        ...(options.config.lease === undefined ? {} : { lease: options.config.lease }),
        ...(options.config.advertisedUrl === undefined
          ? {}
          : { advertisedUrl: options.config.advertisedUrl }),
        ...(options.leaseTable === undefined ? {} : { table: options.leaseTable }),
      });
    } catch (error) {
      await backend[Symbol.asyncDispose]();
      throw error;
    }
    const store = new SessionStore({
      backend,
      withdrawFailedWrites: true,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.reportError === undefined ? {} : { reportError: options.reportError }),
    });
    const views = new Views(options.views ?? plugins.flatMap((p) => p.web?.views ?? []));
    const runtime = new HostRuntime(options, store, views, leases);
    late.runtime = runtime;
    try {
      for (const plugin of plugins) {
        await runtime.#loader.load(plugin);
        runtime.#plugins.push(plugin);
      }
      runtime.#idle.arm();
    } catch (error) {
      await runtime[Symbol.asyncDispose]();
      throw error;
    }
    return runtime;
  }

  /** `true` once shutdown began. */
  get closing(): boolean {
    return this.#closing !== undefined;
  }

  #open(action: string): void {
    if (this.closing) {
      throw new HostError("shutting_down", `Cannot ${action}: the host is stopping`);
    }
  }

  /** Which sessions were deleted, by id, as read or recorded (`isDeleted`). */
  readonly #deleted = new Map<string, boolean>();

  /**
   * The agent of a live session, created and published on first use.
   *
   * @param session a live root session of this store
   * @returns its one agent
   */
  agentFor(session: Session): Promise<HostAgent> {
    this.#open("start an agent");
    if (this.#liveness.releasing(session.id) || session.closed) {
      return Promise.reject(
        new HostError("session_cold", `Cannot start an agent: session ${session.id} was released`),
      );
    }
    this.#idle.touch(session.id);
    return this.#agents.obtain(session);
  }

  /**
   * The agent of a live session if it has one; never creates one.
   *
   * @param session a live session
   * @returns the agent promise, or `undefined`
   */
  existingAgent(session: Session): Promise<HostAgent> | undefined {
    return this.#agents.get(session);
  }

  /**
   * Creates (or, for the same id, cwd and an equal zone, returns) a live session and its agent.
   *
   * @param options IANA zone (required on the web path), optional cwd and id
   * @returns the session and whether it was new
   * @throws {SessionError} `invalid_time_zone`, `time_zone_conflict`, `session_exists`,
   *   `invalid_session_id`
   */
  async create(
    options: { readonly timeZone: string; readonly cwd?: string; readonly id?: string },
  ): Promise<{ session: Session; created: boolean }> {
    this.#open("create a session");
    if (options.id !== undefined) await this.#liveness.pending(options.id);
    const known = options.id !== undefined &&
      (this.store.live(options.id) !== undefined ||
        await this.store.backend.cursor(options.id) !== undefined);
    if (options.id !== undefined) await this.#liveness.claim(options.id);
    const session = await this.#liveness.leased(options.id, () =>
      this.store.create({
        cwd: options.cwd ?? this.cwd,
        timeZone: options.timeZone,
        origin: "web",
        ...(options.id === undefined ? {} : { id: options.id }),
      }));
    await this.agentFor(session);
    return { session, created: !known };
  }

  /**
   * Makes a session live (cold → live, owners rebuilt by the plugins) and returns it with its
   * agent. Idempotent.
   *
   * @param id session id
   * @returns the live session
   * @throws {SessionError} `session_not_found`, `invalid_session_id`
   */
  async resume(id: string): Promise<Session> {
    this.#open("resume a session");
    if (await this.isDeleted(id)) {
      throw new SessionError("session_not_found", `Cannot resume: session ${id} was deleted`);
    }
    this.#idle.touch(id);
    await this.#liveness.pending(id);
    if (this.leases !== undefined && this.store.live(id) === undefined) {
      // No lease row for an id that names no session.
      if (!await this.exists(id)) {
        throw new SessionError("session_not_found", `Cannot resume: no session ${id}`);
      }
      await this.#liveness.claim(id);
    }
    const session = await this.#liveness.leased(id, () => this.store.resume(id));
    await this.agentFor(session);
    return session;
  }

  /**
   * Forks a live or cold session; the child is live with its own agent. A cold parent stays
   * cold.
   *
   * @param id parent id
   * @param throughSeq last parent seq to copy, inclusive @default the parent's last event
   * @returns the live child
   * @throws {SessionError} `session_not_found`, `invalid_seq`, `invalid_session_id`
   */
  async fork(id: string, throughSeq?: number): Promise<Session> {
    this.#open("fork a session");
    const parent = this.store.live(id) ?? id;
    const child = await this.#liveness.leased(
      undefined,
      () => this.store.fork(parent, throughSeq === undefined ? {} : { throughSeq }),
    );
    await this.agentFor(child);
    return child;
  }

  /**
   * Whether a session exists, live or stored, without activating it.
   *
   * @param id a valid session id
   * @returns `true` when live or stored
   */
  async exists(id: string): Promise<boolean> {
    return this.store.live(id) !== undefined || await this.store.backend.cursor(id) !== undefined;
  }

  /**
   * Whether a person deleted the session (its log holds `session/deleted`, docs/events.md): a
   * deleted session answers `session_not_found` everywhere and is left out of the list. Read
   * once per id from the store's type index, then remembered (a delete through this host
   * updates it; another host's delete is seen by this one after its restart).
   *
   * @param id a valid session id
   * @returns `true` once deleted; `false` for a session that is not (or an unknown id)
   */
  async isDeleted(id: string): Promise<boolean> {
    const known = this.#deleted.get(id);
    if (known !== undefined) return known;
    // A live session is not deleted: resume refuses a deleted one, and a delete releases it.
    if (this.store.live(id) !== undefined) return false;
    const marks = await this.store.readByType(id, [SESSION_DELETED]);
    const deleted = marks.length > 0;
    this.#deleted.set(id, deleted);
    return deleted;
  }

  /**
   * Makes a session live in the store without an agent (no plugin owner runs: nothing is
   * delivered), for a host write such as a rename or a delete; a session already live is
   * returned as is.
   *
   * @param id session id
   * @returns the live session and whether it was cold before (give it back with
   *   {@linkcode HostRuntime.release})
   * @throws {SessionError} `session_not_found`, `invalid_session_id`
   */
  async attach(id: string): Promise<{ session: Session; wasCold: boolean }> {
    this.#open("open a session");
    await this.#liveness.pending(id);
    const live = this.store.live(id);
    if (live !== undefined) return { session: live, wasCold: false };
    if (!await this.exists(id)) {
      throw new SessionError("session_not_found", `Cannot open: no session ${id}`);
    }
    await this.#liveness.claim(id);
    const session = await this.#liveness.leased(id, () => this.store.resume(id));
    return { session, wasCold: true };
  }

  /**
   * Makes a live session cold: its agent (and the plugins' owners) disposed, then the store's
   * object closed. Settles once it is cold; never rejects (failures are reported).
   *
   * @param session the live session
   */
  release(session: Session): Promise<void> {
    return this.#liveness.release(session);
  }

  /**
   * Records that a session was deleted here (after its `session/deleted` is durable).
   *
   * @param id the session id
   */
  markDeleted(id: string): void {
    this.#deleted.set(id, true);
  }

  /**
   * The live session for `id`, unless it is being released; never activates one.
   *
   * @param id a session id
   * @returns the live session, or `undefined` when cold (or becoming cold)
   */
  liveSession(id: string): Session | undefined {
    return this.#liveness.releasing(id) ? undefined : this.store.live(id);
  }

  /**
   * Checks that a message exists before an action on it resumes its session: a cold session
   * is looked up in storage and stays cold when the message is missing (README.md "How it
   * behaves on failure", "Bad input": a 404 retry never activates a session, so its overdue
   * reminder does not fire).
   *
   * @param id the session id
   * @param messageId the `user-rpc` message id
   * @param action what is attempted, for the message
   * @throws {SessionError} `session_not_found`
   * @throws {HostError} `message_not_found`
   */
  async requireMessage(id: string, messageId: string, action: string): Promise<void> {
    if (this.liveSession(id) !== undefined) return; // the live agent checks it
    const found = await storedMessageExists(this.store, id, messageId);
    if (found === undefined) {
      throw new SessionError("session_not_found", `Cannot ${action}: no session ${id}`);
    }
    if (!found) {
      throw new HostError("message_not_found", `Cannot ${action}: no message ${messageId}`);
    }
  }

  /**
   * Shuts down: closes stream clients, disposes every agent (their owners first), unloads the
   * plugins, then flushes and closes the store, so no appended event is lost. Idempotent.
   */
  [Symbol.asyncDispose](): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    await this.#idle.stop();
    this.feeds.closeAll();
    this.alerts.closeAll();
    const errors = await this.#agents.disposeAll();
    await this.#loader[Symbol.asyncDispose]().catch((e) => errors.push(e));
    await this.store[Symbol.asyncDispose]().catch((e) => errors.push(e));
    // After the last flush: the leases are released so another host may take them at once.
    await this.leases?.[Symbol.asyncDispose]().catch((e) => errors.push(e));
    this.#flushed[Symbol.dispose]();
    this.#live[Symbol.dispose]();
    this.#withdrawn[Symbol.dispose]();
    this.#telemetry[Symbol.dispose]();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "Cannot shut down cleanly");
  }
}

/** Where link keys are kept: `dataDir`, else the storage's local directory, else nowhere. */
function linkDirectory(options: RuntimeOptions): string | undefined {
  if (options.config.dataDir !== undefined) return options.config.dataDir;
  if (options.backend !== undefined) return undefined;
  const drivers = options.storageDrivers === undefined ? {} : { drivers: options.storageDrivers };
  return storageDriver(options.config.storage.kind, drivers).directory(options.config.storage);
}
