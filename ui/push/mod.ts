/**
 * `@chime/ui/push`: the page half of the push plugin (`@chime/push`, docs/push.md): its service
 * worker (`ClientRenderer.assets.worker`) and the per-browser delivery the notification control
 * turns on ({@linkcode pushDelivery}): once notifications are allowed it subscribes this browser
 * with the host's VAPID key and registers every session the browser watches; turning it off
 * unsubscribes (the host forgets the subscription).
 *
 * @example Its name and worker
 * ```ts
 * import { PUSH_CLIENT } from "@chime/ui/push";
 * console.assert(PUSH_CLIENT.name === "@chime/ui/push");
 * console.assert(PUSH_CLIENT.assets?.worker?.includes("showNotification"));
 * ```
 *
 * @module
 */
import { effect, signal } from "@preact/signals";
import type { ClientRenderer, Delivery, DeliveryHost } from "@chime/contract";
import { PUSH_WORKER } from "./_worker.ts";

export { PUSH_WORKER };
export type { ClientRenderer, Delivery, DeliveryHost };

/** The `localStorage` key of this browser's choice (`"off"` once turned off). */
export const PUSH_KEY = "chime.push";

/** A subscription as the host stores it (`PushSubscription.toJSON()`). */
export interface PushSubscriptionWire {
  /** The push service URL. */
  readonly endpoint: string;
  /** `p256dh` and `auth`, URL-safe base64. */
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/** The browser side of {@linkcode pushDelivery}. */
export interface PushEnv {
  /** Whether service workers and the Push API exist. */
  readonly supported: boolean;
  /** The current subscription, or `null`. */
  current(): Promise<PushSubscriptionWire | null>;
  /** Subscribes with the host's VAPID public key (URL-safe base64). */
  subscribe(publicKey: string): Promise<PushSubscriptionWire>;
  /** Unsubscribes; resolves `null` when there was none, else the old endpoint. */
  unsubscribe(): Promise<string | null>;
  /** Where the choice lives. */
  readonly storage?: Pick<Storage, "getItem" | "setItem"> | undefined;
}

function keyBytes(base64url: string): Uint8Array {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function wire(s: PushSubscription): PushSubscriptionWire {
  const json = s.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
}

/** The real {@linkcode PushEnv} of a browser tab. */
export function browserPush(): PushEnv {
  const workers = globalThis.navigator?.serviceWorker;
  const supported = workers !== undefined && "PushManager" in globalThis;
  let storage: Storage | undefined;
  try {
    storage = globalThis.localStorage ?? undefined;
  } catch {
    storage = undefined;
  }
  const manager = async () => (await workers!.ready).pushManager;
  return {
    supported,
    storage,
    async current() {
      const s = await (await manager()).getSubscription();
      return s === null ? null : wire(s);
    },
    async subscribe(publicKey) {
      const s = await (await manager()).subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey) as BufferSource,
      });
      return wire(s);
    },
    async unsubscribe() {
      const s = await (await manager()).getSubscription();
      if (s === null) return null;
      await s.unsubscribe();
      return s.endpoint;
    },
  };
}

/**
 * This browser's push delivery: on (subscribed, each watched session registered with the host)
 * once notifications are granted unless the person turned it off here; `set(false)`
 * unsubscribes and tells the host.
 *
 * @param host watched sessions, permission, language and requests
 * @param env the browser's push parts @default the real ones
 * @returns the delivery
 */
export function pushDelivery(host: DeliveryHost, env: PushEnv = browserPush()): Delivery {
  const on = signal(false);
  const registered = new Set<string>();
  let subscription: PushSubscriptionWire | null = null;
  let busy: Promise<void> = Promise.resolve();
  const wanted = () => {
    try {
      return env.storage?.getItem(PUSH_KEY) !== "off";
    } catch {
      return true;
    }
  };
  const remember = (value: "on" | "off") => {
    try {
      env.storage?.setItem(PUSH_KEY, value);
    } catch {
      // Privacy mode: the choice lasts for this page.
    }
  };
  const register = async (ids: readonly string[]) => {
    if (subscription === null) return;
    for (const id of ids) {
      if (registered.has(id)) continue;
      registered.add(id);
      try {
        await host.request(id, "/push/subscribe", {
          method: "POST",
          body: { subscription, lang: host.lang.peek() },
        });
      } catch {
        registered.delete(id); // retried when the watched list changes
      }
    }
  };
  const start = async () => {
    const ids = host.watched.peek();
    subscription = await env.current();
    if (subscription === null) {
      const first = ids[0];
      if (first === undefined) return;
      const { publicKey } = await host.request<{ publicKey: string }>(first, "/push");
      subscription = await env.subscribe(publicKey);
    }
    on.value = true;
    await register(ids);
  };
  const queue = (run: () => Promise<void>) => {
    busy = busy.then(run).catch(() => {});
    return busy;
  };
  const stop = effect(() => {
    const ids = host.watched.value;
    const granted = host.permission.value === "granted";
    if (!env.supported || !granted || !wanted()) return;
    void queue(() => on.peek() ? register(ids) : start());
  });
  return {
    on,
    supported: env.supported,
    set(value) {
      return queue(async () => {
        if (value) {
          remember("on");
          await start();
          return;
        }
        remember("off");
        const endpoint = await env.unsubscribe();
        const id = host.watched.peek()[0];
        if (endpoint !== null && id !== undefined) {
          await host.request(id, "/push/unsubscribe", { method: "POST", body: { endpoint } })
            .catch(() => {});
        }
        subscription = null;
        registered.clear();
        on.value = false;
      });
    },
    [Symbol.dispose]() {
      stop();
    },
  };
}

/** The push module as the page enables it. */
export const PUSH_CLIENT: ClientRenderer = {
  name: "@chime/ui/push",
  register: () => () => {},
  assets: { worker: PUSH_WORKER },
  delivery: (host) => pushDelivery(host),
};

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type {
  ApiRequest,
  ClientAssets,
  EventRenderer,
  EventRenderers,
  EventView,
  FollowupLabeler,
  Lang,
  OpenTarget,
  PageHints,
  PageViewDefinition,
  PageViewHost,
  PageViewModel,
  PageViewProps,
  PageWindow,
  PanelDefinition,
  PanelHost,
  PanelModel,
  PanelRequest,
  PanelViewProps,
  PresentedEventNode,
  Readable,
  RenderContext,
  Rendered,
  ToolSummarizer,
  ToolSummary,
  ViewAlert,
  WireEvent,
} from "@chime/contract";
