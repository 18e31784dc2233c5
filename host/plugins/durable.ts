/**
 * The after-commit hook of the web contract (`PluginWeb.onDurable`, `contract/web.ts`): each time
 * `session/flushed` advances a live session's watermark (docs/design.md#receipt-watermark), the
 * plugins that declare the hook get exactly the newly durable events, page attached or not.
 *
 * @module
 */
import type { Plugin, WebHost } from "@chime/contract";
import type { Session, SessionEvent } from "@chime/session";
import type { EventRange } from "../feed/feed.ts";
import type { CoveredRange } from "../feed/watermark.ts";

/** Options of {@linkcode DurableHooks}. */
export interface DurableHooksOptions {
  /** The loaded plugins, read at each call (plugins load after the runtime is built). */
  readonly plugins: readonly Plugin[];
  /** Reads `[from, to)` of a live session, storage included (`SessionStore.read`). */
  readonly read: EventRange;
  /** Where a hook's throw or rejection goes; the commit stands. */
  readonly reportError: (error: unknown) => void;
  /** What the hooks get as their third argument (the host's `WebHost`). */
  readonly host?: WebHost;
}

/**
 * Calls `onDurable` of every plugin that has one with each newly covered range, in order per
 * session. The watermark (`Watermark`, max-monotonic per exact `Session` object) is what makes a
 * range new, so no event is offered twice in one process and none before an acknowledged flush
 * covers it; the prefix a session loads from storage seeds the watermark and is not offered, nor
 * is a fork's inherited prefix (below its `seedLength`: its parent's events).
 *
 * @example Offer the events a flush covered
 * ```ts
 * import { DurableHooks } from "@chime/host";
 * import { Session } from "@chime/session";
 * const session = new Session({
 *   header: { version: 1, id: "s", cwd: "/", createdAt: "2030-01-01T00:00:00.000Z",
 *     origin: "doc", lineage: null, delegationDepth: 0 },
 *   now: () => 0,
 * });
 * session.append("note", {});
 * const seen: number[] = [];
 * const hooks = new DurableHooks({
 *   plugins: [{ name: "p", setup() {}, web: { onDurable: (_s, events) => {
 *     seen.push(...events.map((e) => e.seq));
 *   } } }],
 *   read: (s, from, to) => Promise.resolve(s.events(from, to)),
 *   reportError: () => {},
 * });
 * await hooks.covered(session, { from: 0, to: 1 });
 * console.assert(seen.join() === "0");
 * ```
 */
export class DurableHooks {
  readonly #options: DurableHooksOptions;
  readonly #chains = new WeakMap<Session, Promise<void>>();

  /**
   * Creates the hook runner.
   *
   * @param options plugins, the range reader and the error sink
   */
  constructor(options: DurableHooksOptions) {
    this.#options = options;
  }

  /**
   * Offers one newly covered range to every hook, after the ranges offered before it for the
   * same session object.
   *
   * @param session the exact live object the flush acknowledged
   * @param range the newly durable `[from, to)` the watermark reported
   * @returns settles once every hook of this range settled (errors are reported, not thrown)
   */
  covered(session: Session, range: CoveredRange): Promise<void> {
    const hooks = this.#options.plugins.flatMap((plugin) => {
      const hook = plugin.web?.onDurable;
      return hook === undefined ? [] : [hook.bind(plugin.web)];
    });
    const from = Math.max(range.from, session.header.seedLength ?? 0);
    if (hooks.length === 0 || from >= range.to) {
      return this.#chains.get(session) ?? Promise.resolve();
    }
    const run = (this.#chains.get(session) ?? Promise.resolve())
      .then(() => this.#events(session, from, range.to))
      .then((events) => Promise.all(hooks.map((hook) => this.#call(hook, session, events))))
      .then(() => {}, this.#options.reportError);
    this.#chains.set(session, run);
    return run;
  }

  #events(session: Session, from: number, to: number): Promise<readonly SessionEvent[]> {
    // The in-memory tail answers without I/O; older events come from storage.
    if (from >= session.tailStart) return Promise.resolve(session.events(from, to));
    return this.#options.read(session, from, to);
  }

  async #call(
    hook: (
      session: Session,
      events: readonly SessionEvent[],
      host: WebHost,
    ) => void | Promise<void>,
    session: Session,
    events: readonly SessionEvent[],
  ): Promise<void> {
    try {
      await hook(session, events, this.#options.host as WebHost);
    } catch (error) {
      this.#options.reportError(error);
    }
  }
}
