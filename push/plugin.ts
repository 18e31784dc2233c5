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
 * `POST /push/unsubscribe { endpoint }` → `200 { removed }`.
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
import { PushSubscriptions, type SubscriptionKeys } from "./subscriptions.ts";

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

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Decoded length of URL-safe base64 text. */
function bytes(text: string): number {
  const bare = text.replace(/=+$/, "");
  return Math.floor(bare.length * 3 / 4);
}

/** `https:`, or `http:` on a loopback host (a local push service in tests). */
function endpointOk(endpoint: unknown): endpoint is string {
  if (typeof endpoint !== "string" || endpoint.length > 2048) return false;
  try {
    const url = new URL(endpoint);
    if (url.protocol === "https:") return true;
    return url.protocol === "http:" &&
      (url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]");
  } catch {
    return false;
  }
}

function keysOk(keys: unknown): keys is SubscriptionKeys {
  const k = keys as Partial<SubscriptionKeys> | null;
  return typeof k?.p256dh === "string" && B64URL.test(k.p256dh) && bytes(k.p256dh) === 65 &&
    typeof k.auth === "string" && B64URL.test(k.auth) && bytes(k.auth) === 16;
}

async function sessionExists(host: WebHost, id: string): Promise<boolean> {
  return host.store.live(id) !== undefined || await host.store.backend.cursor(id) !== undefined;
}

/**
 * Creates the push plugin.
 *
 * @param options where its files live, the VAPID contact, the request deadline
 * @returns the plugin
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
      if (!endpointOk(subscription.endpoint)) {
        return problem(
          "invalid_request",
          "Cannot subscribe: the endpoint must be an https URL",
          400,
          "endpoint",
        );
      }
      if (!keysOk(subscription.keys)) {
        return problem(
          "invalid_request",
          "Cannot subscribe: keys must hold a 65-byte p256dh and a 16-byte auth (RFC 8291)",
          400,
          "keys",
        );
      }
      if (body.lang !== undefined && body.lang !== "en" && body.lang !== "zh") {
        return problem("invalid_request", "Cannot subscribe: lang must be en or zh", 400, "lang");
      }
      if (!await sessionExists(context.host, context.sessionId)) return notFound(context);
      const { subscriptions } = await load();
      const stored = await subscriptions.add(
        {
          endpoint: subscription.endpoint,
          keys: { p256dh: subscription.keys.p256dh, auth: subscription.keys.auth },
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
      if (typeof endpoint !== "string" || endpoint === "") {
        return problem("invalid_request", "Cannot unsubscribe: give the endpoint", 400, "endpoint");
      }
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
