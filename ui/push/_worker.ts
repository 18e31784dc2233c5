/**
 * The push module's service worker (served by the host at `/renderers/chime-ui-push.sw.js`,
 * scope `/`; docs/push.md "The service worker"), as text: a classic script. It shows what a push
 * says (`{ type: 'show', tag, title, body, actions, url, ack }`), closes the notifications of a
 * tag on `{ type: 'close', tag }`, and on a click performs the action: a button posts to its
 * same-origin route (the card's own snooze or stop) and the click itself opens the page at the
 * card; either way the tag is then acknowledged, which closes it on the person's other devices.
 * Nothing is shown while a focused tab already shows that session.
 *
 * @module
 */

/** The worker script. */
export const PUSH_WORKER = `"use strict";
async function looking(sessionId) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return windows.some((w) => w.focused && w.visibilityState === "visible" &&
    new URL(w.url).hash === "#/s/" + encodeURIComponent(sessionId));
}
async function closeTag(tag) {
  for (const n of await self.registration.getNotifications({ tag })) n.close();
}
async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body === undefined ? {} : body),
  });
  return response.ok;
}
async function show(m) {
  if (await looking(m.sessionId)) return;
  const max = self.Notification && self.Notification.maxActions || 2;
  await self.registration.showNotification(m.title, {
    body: m.body,
    tag: m.tag,
    lang: m.lang === "zh" ? "zh-CN" : "en",
    renotify: false,
    data: m,
    actions: m.actions.slice(0, max).map((a) => ({ action: a.action, title: a.title })),
  });
}
async function openAt(m) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    await open.focus();
    open.postMessage({ type: "chime-reveal", sessionId: m.sessionId, seq: m.seq });
    return;
  }
  // A new tab opens the session at its latest message: the card that was just delivered.
  await self.clients.openWindow(new URL(m.url, self.location.origin).href);
}
async function act(notification, action) {
  const m = notification.data;
  notification.close();
  if (!m || m.type !== "show") return;
  const chosen = m.actions.find((a) => a.action === action);
  if (chosen && chosen.url) {
    if (!(await post(chosen.url, chosen.body))) return;
  } else {
    await openAt(m);
  }
  await post(m.ack, { tag: m.tag });
}
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("push", (event) => {
  let m;
  try {
    m = event.data ? event.data.json() : undefined;
  } catch {
    m = undefined;
  }
  if (!m) return;
  if (m.type === "close") event.waitUntil(closeTag(m.tag));
  else if (m.type === "show") event.waitUntil(show(m));
});
self.addEventListener("notificationclick", (event) => {
  event.waitUntil(act(event.notification, event.action));
});
`;
