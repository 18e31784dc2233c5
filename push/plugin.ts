/**
 * `@chime/push`: Web Push while a session is live (docs/push.md). A plugin on the after-commit
 * hook (`PluginWeb.onDurable`): each reminder card that just became durable in a live session is
 * pushed to the browsers subscribed to that session; an acknowledgement on one device
 * (`PluginWeb.onAcknowledged`) sends a close message to the others. Nothing is pushed for a cold
 * session (it dispatches nothing), nothing before `session/flushed` covers the dispatch (the
 * hook's contract), nothing twice for one occurrence in one process.
 *
 * Routes (below `/api/sessions/:id`): `GET /push` → `{ publicKey }`; `POST /push/subscribe
 * { subscription: { endpoint, keys: { p256dh, auth } }, lang? }` → `200 { sessions }`;
 * `POST /push/unsubscribe { endpoint }` → `200 { removed }`. What subscribe accepts is in
 * `./_checks.ts` (https only, no private address, real P-256 keys); a deleted session leaves every
 * subscription (`PluginWeb.onDeleted`), one left with no session is removed.
 *
 * @module
 */
import type { Plugin, PluginWeb, RouteContext, SessionRoute, WebHost } from "@chime/contract";
import type { Session, SessionEvent } from "@chime/session";
import { durableChanges, tryDecodeScheduleChange } from "@chime/schedule";
import { scheduleReminderPresentations } from "@chime/schedule/presentation";
import { loadVapidKeys, type VapidKeys } from "./keys.ts";
import { type CloseMessage, reminderMessage } from "./payload.ts";
import { type PushLogger, PushQueue } from "./sender.ts";
import { PushSubscriptions } from "./subscriptions.ts";
import { ENDPOINT_MAX, endpointRefusal, keysRefusal, type Refusal } from "./_checks.ts";

/** The client renderer module whose service worker shows the pushes. */
export const PUSH_RENDERER = "@chime/ui/push";

/** Occurrences remembered as pushed (per process), the oldest forgotten first. */
const SENT_MEMORY = 10_000;

/** Options of {@linkcode pushPlugin}. */
export interface PushPluginOptions {
  /** Where keys and subscriptions live (`<dataDir>/push`); memory only without it. */
  readonly dir?: string;
  /** The VAPID contact (RFC 8292 §2.1). @default "mailto:chime@localhost" */
  readonly subject?: string;
  /** One push request's deadline, ms. @default 10000 */
  readonly timeoutMs?: number;
  /** Failures of the push service. @default none */
  readonly logger?: PushLogger;
  /** The HTTP client of the push requests (tests). @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /**
   * Push service origins accepted as they are, e.g. `["http://127.0.0.1:8099"]`: a local push
   * service (tests, a self-hosted one on a private network). Any other endpoint must be
   * `https:` and name no `localhost` host and no private, loopback or link-local IP literal
   * (docs/push.md "What is accepted"). Each entry is an exact origin (`URL.origin`).
   * @default none
   */
  readonly allowedOrigins?: readonly string[];
}

/** The push plugin: a {@linkcode Plugin} that can be disposed (its in-flight requests). */
export interface PushPlugin extends Plugin, AsyncDisposable {
  /** The web part. */
  readonly web: PluginWeb;
  /** Settles once every queued push was answered (or timed out). */
  idle(): Promise<void>;
  /** The stored subscriptions (tests, docs/push.md). */
  subscriptions(): Promise<PushSubscriptions>;
}

interface State {
  readonly keys: VapidKeys;
  readonly subscriptions: PushSubscriptions;
  readonly queue: PushQueue;
}

function problem(code: string, message: string, status: number, field?: string): Response {
  return Response.json({ error: { code, message, ...(field ? { field } : {}) } }, { status });
}

function refusal(r: Refusal): Response {
  return problem(r.code, `Cannot subscribe: ${r.reason}`, 400, r.field);
}

/** Stored or live, and not deleted. */
async function sessionExists(host: WebHost, id: string): Promise<boolean> {
  const stored = host.store.live(id) !== undefined ||
    await host.store.backend.cursor(id) !== undefined;
  return stored && await host.deleted?.(id) !== true;
}

/**
 * Checks `allowedOrigins`: each an exact `http:` or `https:` origin.
 *
 * @throws {TypeError} for an entry that is not one
 */
function allowedOrigins(list: readonly string[] | undefined): ReadonlySet<string> {
  for (const entry of list ?? []) {
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== entry || !/^https?:/.test(entry)) {
      throw new TypeError(`Cannot set up push: allowedOrigins entry ${entry} is not an origin`);
    }
  }
  return new Set(list ?? []);
}

/**
 * Creates the push plugin.
 *
 * @param options where its files live, the VAPID contact, the request deadline, the push
 *   origins accepted besides public `https:` ones
 * @returns the plugin
 * @throws {TypeError} for an `allowedOrigins` entry that is not an `http:` or `https:` origin
 *
 * @example Its routes
 * ```ts
 * import { pushPlugin } from "@chime/push";
 * await using push = pushPlugin();
 * console.assert(push.web.routes?.some((r) => r.path === "/push/subscribe"));
 * ```
 */
export function pushPlugin(options: PushPluginOptions = {}): PushPlugin {
  let state: Promise<State> | undefined;
  const sent = new Set<string>();
  const allowed = allowedOrigins(options.allowedOrigins);
  const load = (): Promise<State> => {
    state ??= (async () => {
      const [keys, subscriptions] = await Promise.all([
        loadVapidKeys(options.dir),
        PushSubscriptions.open(options.dir),
      ]);
      const queue = new PushQueue({
        keys,
        subject: options.subject ?? "mailto:chime@localhost",
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        onGone: (endpoint) => void subscriptions.remove(endpoint),
      });
      return { keys, subscriptions, queue };
    })();
    return state;
  };
  const remember = (tag: string): boolean => {
    if (sent.has(tag)) return false;
    sent.add(tag);
    if (sent.size > SENT_MEMORY) sent.delete(sent.values().next().value!);
    return true;
  };

  /** Pushes the reminder cards among `events` that just became durable. */
  const onDurable = async (
    session: Session,
    events: readonly SessionEvent[],
    host: WebHost,
  ): Promise<void> => {
    const seqs = events.filter((e) => tryDecodeScheduleChange(e.data)?.op === "dispatch")
      .map((e) => e.seq);
    if (seqs.length === 0) return;
    const { subscriptions, queue } = await load();
    const targets = subscriptions.of(session.id);
    if (targets.length === 0) return;
    const changes = await durableChanges(host, session.id);
    if (changes === undefined) return;
    const cards = scheduleReminderPresentations(changes.header, changes.events, {
      through: Math.max(...seqs),
      seqs: new Set(seqs),
    });
    const title = await host.title(session.id);
    for (const seq of seqs) {
      const card = cards.get(seq);
      if (card === undefined) continue;
      const first = reminderMessage(session.id, title, seq, card, "en");
      if (!remember(first.tag)) continue;
      for (const target of targets) {
        queue.send(
          target,
          target.lang === "en" ? first : reminderMessage(session.id, title, seq, card, target.lang),
        );
      }
    }
  };

  const publicKey: SessionRoute = {
    method: "GET",
    path: "/push",
    async handle(_request, context) {
      if (!await sessionExists(context.host, context.sessionId)) return notFound(context);
      return Response.json({ publicKey: (await load()).keys.publicKey });
    },
  };

  const subscribe: SessionRoute = {
    method: "POST",
    path: "/push/subscribe",
    async handle(_request, context) {
      const body = await context.json();
      const subscription = body.subscription as { endpoint?: unknown; keys?: unknown } | null;
      if (typeof subscription !== "object" || subscription === null) {
        return problem(
          "invalid_request",
          "Cannot subscribe: give a subscription",
          400,
          "subscription",
        );
      }
      const endpoint = endpointRefusal(subscription.endpoint, allowed);
      if (endpoint !== undefined) return refusal(endpoint);
      const keys = await keysRefusal(subscription.keys);
      if (keys !== undefined) return refusal(keys);
      const checked = subscription as {
        endpoint: string;
        keys: { p256dh: string; auth: string };
      };
      if (body.lang !== undefined && body.lang !== "en" && body.lang !== "zh") {
        return problem("invalid_request", "Cannot subscribe: lang must be en or zh", 400, "lang");
      }
      if (!await sessionExists(context.host, context.sessionId)) return notFound(context);
      const { subscriptions } = await load();
      const stored = await subscriptions.add(
        {
          endpoint: checked.endpoint,
          keys: { p256dh: checked.keys.p256dh, auth: checked.keys.auth },
          lang: (body.lang as "en" | "zh" | undefined) ?? "en",
        },
        context.sessionId,
        new Date(context.host.store.clock.now()).toISOString(),
      );
      return Response.json({ sessions: stored.sessions.length });
    },
  };

  const unsubscribe: SessionRoute = {
    method: "POST",
    path: "/push/unsubscribe",
    async handle(_request, context) {
      const { endpoint } = await context.json();
      if (typeof endpoint !== "string" || endpoint === "" || endpoint.length > ENDPOINT_MAX) {
        return problem("invalid_request", "Cannot unsubscribe: give the endpoint", 400, "endpoint");
      }
      if (!await sessionExists(context.host, context.sessionId)) return notFound(context);
      const { subscriptions } = await load();
      return Response.json({ removed: await subscriptions.remove(endpoint) });
    },
  };

  const web: PluginWeb = {
    routes: [publicKey, subscribe, unsubscribe],
    renderer: PUSH_RENDERER,
    onDurable,
    async onAcknowledged(sessionId, tag) {
      const { subscriptions, queue } = await load();
      const close: CloseMessage = { type: "close", tag };
      for (const target of subscriptions.of(sessionId)) queue.send(target, close, "normal");
    },
    async onDeleted(sessionId) {
      await (await load()).subscriptions.forgetSession(sessionId);
    },
  };

  return {
    name: "@chime/push",
    setup() {},
    web,
    async idle() {
      if (state !== undefined) await (await state).queue.idle();
    },
    async subscriptions() {
      return (await load()).subscriptions;
    },
    async [Symbol.asyncDispose]() {
      if (state === undefined) return;
      const { queue, subscriptions } = await state;
      await queue[Symbol.asyncDispose]();
      await subscriptions.flushed();
    },
  };
}

function notFound(context: RouteContext): Response {
  return problem(
    "session_not_found",
    `Cannot find session: no session ${context.sessionId}`,
    404,
  );
}
