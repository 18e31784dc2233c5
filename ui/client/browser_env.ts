/**
 * The browser side of the page model: the Notification API, visibility, the WebAudio chime
 * (a generated tone, no asset) and revealing a card when its notification is clicked.
 *
 * @module
 */
import type { AlertPermission, AlertsEnv } from "./alerts.ts";
import { nodeTop } from "./scroll.ts";

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

let audio: AudioContext | undefined;

/** Plays a short two-tone chime with WebAudio (quiet, about 0.6 s). */
export function playChime(): void {
  const Ctor = globalThis.AudioContext;
  if (!Ctor) return;
  try {
    audio ??= new Ctor();
    void audio.resume();
    const now = audio.currentTime;
    for (const [i, freq] of [880, 660].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      const start = now + i * 0.18;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.4);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.42);
    }
  } catch {
    // Audio unavailable (no device, blocked): the notification and title still tell.
  }
}

function permission(): AlertPermission {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/**
 * Focuses the tab and brings a transcript node into view, focused for keyboard users. Only the
 * transcript's own scroller moves (the node centred where it can be): `scrollIntoView` would also
 * scroll the page's `overflow: hidden` columns and leave a blank band under the composer.
 *
 * @param seq the node's seq
 */
export function revealNode(seq: number): void {
  globalThis.focus();
  const node = document.querySelector<HTMLElement>(`.node[data-seq="${seq}"]`);
  if (!node) return;
  node.tabIndex = -1;
  const box = node.closest<HTMLElement>("[data-testid=transcript]");
  if (box) {
    const centred = box.scrollTop + nodeTop(box, node) - (box.clientHeight - node.offsetHeight) / 2;
    box.scrollTop = Math.max(0, Math.min(centred, box.scrollHeight - box.clientHeight));
  }
  node.focus({ preventScroll: true });
}

/** The page's open notifications by tag (to close them when acknowledged elsewhere). */
const shown = new Map<string, Notification>();

/** Closes the page's and the service worker's notifications of a tag. */
function closeTag(tag: string): void {
  shown.get(tag)?.close();
  shown.delete(tag);
  const workers = globalThis.navigator?.serviceWorker;
  if (workers?.controller === null || workers === undefined) return;
  void workers.ready
    .then((r) => r.getNotifications({ tag }))
    .then((list) => list.forEach((n) => n.close()))
    .catch(() => {});
}

/** The real {@linkcode AlertsEnv} of a browser tab. */
export function browserAlerts(): AlertsEnv {
  return {
    // Unfocused counts as away: a tab behind another window or on a second screen.
    away: () => document.visibilityState === "hidden" || !document.hasFocus(),
    close: closeTag,
    permission,
    requestPermission: async () =>
      typeof Notification === "undefined" ? "unsupported" : await Notification.requestPermission(),
    notify(title, body, tag, onClick) {
      if (typeof Notification === "undefined") return;
      let n: Notification;
      try {
        n = new Notification(title, { body, tag, lang: document.documentElement.lang });
      } catch {
        return; // a browser that shows notifications only from a service worker
      }
      shown.set(tag, n);
      n.onclose = () => shown.get(tag) === n && shown.delete(tag);
      n.onclick = () => {
        onClick();
        n.close();
      };
    },
    chime: playChime,
    reveal: revealNode,
    storage: storage(),
  };
}
