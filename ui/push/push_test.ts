// pushDelivery (docs/push.md "How to turn it off"): subscribes once notifications are granted,
// registers every watched session with the host, and unsubscribes when turned off.
import { deepEqual, equal } from "node:assert/strict";
import { signal } from "@preact/signals";
import type { DeliveryHost, Lang, PanelRequest } from "@chime/contract";
import { PUSH_KEY, pushDelivery, type PushEnv, type PushSubscriptionWire } from "./mod.ts";

const SUB: PushSubscriptionWire = {
  endpoint: "https://push.example/abc",
  keys: { p256dh: "p", auth: "a" },
};

function fakes() {
  const calls: string[] = [];
  const store = new Map<string, string>();
  let current: PushSubscriptionWire | null = null;
  const env: PushEnv = {
    supported: true,
    current: () => Promise.resolve(current),
    subscribe: (key) => (calls.push(`subscribe ${key}`), Promise.resolve(current = SUB)),
    unsubscribe: () => {
      const was = current?.endpoint ?? null;
      current = null;
      calls.push("unsubscribe");
      return Promise.resolve(was);
    },
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
  };
  const watched = signal<readonly string[]>(["a"]);
  const permission = signal("default");
  const lang = signal<Lang>("zh");
  const host: DeliveryHost = {
    watched,
    permission,
    lang,
    request<T>(id: string, path: string, init?: PanelRequest): Promise<T> {
      calls.push(`${init?.method ?? "GET"} ${id}${path} ${JSON.stringify(init?.body ?? null)}`);
      return Promise.resolve((path === "/push" ? { publicKey: "KEY" } : {}) as T);
    },
  };
  return { env, host, calls, store, watched, permission };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

Deno.test("push delivery subscribes once granted, registers each watched session, and turns off", async () => {
  const f = fakes();
  using delivery = pushDelivery(f.host, f.env);
  await settle();
  deepEqual(f.calls, [], "nothing before notifications are allowed");
  f.permission.value = "granted";
  await settle();
  equal(delivery.on.value, true);
  const body = JSON.stringify({ subscription: SUB, lang: "zh" });
  deepEqual(f.calls, ["GET a/push null", "subscribe KEY", `POST a/push/subscribe ${body}`]);
  f.watched.value = ["b", "a"];
  await settle();
  deepEqual(f.calls.slice(3), [`POST b/push/subscribe ${body}`], "only the new session");
  await delivery.set(false);
  equal(delivery.on.value, false);
  equal(f.store.get(PUSH_KEY), "off");
  deepEqual(f.calls.slice(4), [
    "unsubscribe",
    `POST b/push/unsubscribe ${JSON.stringify({ endpoint: SUB.endpoint })}`,
  ]);
  f.watched.value = ["c", "b", "a"];
  await settle();
  equal(f.calls.length, 6, "turned off here: no new subscription");
});
