/**
 * The page's state as a model (CONTRIBUTING.md#code): every signal and action
 * of the chat page in one `createModel` of `@preact/signals`, with the network, the stream, the
 * router and the browser alerts injected, so `deno test` drives it without a DOM. Components only
 * render it (`useModel` in `app.tsx`).
 *
 * @module
 */
import { computed, createModel, effect, signal } from "@preact/signals";
import { type Delivery, notificationTag } from "@chime/contract";
import type {
  ClientConfigWire,
  ClientRenderer,
  OpenTarget,
  PageHints,
  PageViewHost,
  PanelHost,
} from "../client_renderer.ts";
import type { EventView } from "../wire.ts";
import { readWatched, WATCHED_MAX, writeWatched } from "./watched.ts";
import { lang } from "../i18n.ts";
import type { RenderContext } from "../registry.ts";
import { SessionWindow } from "../window.ts";
import type { SessionSummary, WireHeader } from "../wire.ts";
import { type Alerts, createAlerts } from "./alerts.ts";
import { alertOf, enable, hintOf, type ShownPanel, type ShownView } from "./enable.ts";
import { ApiError } from "./api.ts";
import { errorText } from "./error_text.ts";
import { turnOpen } from "./lifecycle.ts";
import { connection } from "./stream.ts";
import type { PageDeps } from "./page_deps.ts";
import { text } from "./strings.ts";

export type { PageApi, PageDeps } from "./page_deps.ts";
export type { ShownPanel, ShownView };

/** Sessions per list page. */
export const SESSIONS_PAGE = 30;

/** The page model: `new PageModel(deps)`; dispose it with `[Symbol.dispose]()`. */
export const PageModel = createModel((deps: PageDeps) => {
  const { api } = deps;
  const sessions = signal<readonly SessionSummary[]>([]);
  const sessionsNext = signal<string | null>(null);
  const current = signal<string | null>(null);
  const header = signal<WireHeader | null>(null);
  const win = signal<SessionWindow | null>(null);
  /** The failure the banner shows (its sentence follows the UI language). */
  const failure = signal<{ readonly err: unknown } | null>(null);
  /** The routed session the host does not have (`session_not_found` is final: no retries). */
  const missing = signal<string | null>(null);
  /** The open session's stream lost the host (its own line says reminders wait for it). */
  const hostDown = computed(() =>
    win.value !== null && missing.value === null && connection.value === "reconnecting"
  );
  const isNetwork = (err: unknown) => err instanceof ApiError && err.code === "network";
  const banner = computed(() => {
    const shown = failure.value;
    if (shown === null || (hostDown.value && isNetwork(shown.err))) return null;
    return errorText(shown.err, lang.value);
  });
  // The host answers again: a "Cannot reach the server" of a request made while it was away is
  // stale now (README.md#the-page).
  effect(() => {
    if (connection.value === "live" && isNetwork(failure.peek()?.err)) failure.value = null;
  });
  /** The link to the host that owns the open session, when it is another (docs/deploy.md). */
  const owner = signal<string | null>(null);
  const ownerLink = (url: string, id: string) =>
    url === "" ? "" : `${url}#/s/${encodeURIComponent(id)}`;
  const busy = signal(false);
  const sending = signal(false);
  const drawer = signal(false);
  /** The panel open as a sheet (phones), by name. */
  const sheet = signal<string | null>(null);
  const follow = signal(0);
  const announcement = signal("");
  /** The renderer modules the client configuration enabled. */
  const enabled = signal<readonly ClientRenderer[]>([]);
  const panels = signal<readonly ShownPanel[]>([]);
  const views = signal<readonly ShownView[]>([]);
  /** The page view shown in place of a session, by name (`#/v/<name>`). */
  const view = signal<string | null>(null);
  /** What a page view asked the opened session's panel to highlight. */
  const focus = signal<OpenTarget | null>(null);
  const alerts: Alerts = createAlerts(deps.alerts);
  const ctx = computed<RenderContext>(() => ({
    lang: lang.value,
    timeZone: deps.timeZone,
    services: Object.assign({}, ...panels.value.map((p) => p.model.services.value)),
  }));
  const running = computed(() => turnOpen(win.value?.events.value ?? []));
  const hint = (key: keyof PageHints): string =>
    hintOf(enabled.value, key, lang.value) ?? text(key);
  let stream: Disposable | undefined;
  let off = (): void => {};
  /** Sessions this browser watches for alerts: open now or opened before, newest first. */
  const watched = signal<readonly string[]>(readWatched(deps.alerts.storage));
  /** Whether the host serves the page alert stream (`GET /api/alerts`). */
  const alertStream = signal(false);
  /** Ways to reach this browser with its tabs closed (`ClientRenderer.delivery`). */
  const deliveries = signal<readonly Delivery[]>([]);
  /** A card to reveal once its session opened (a notification of another session clicked). */
  let reveal: { readonly id: string; readonly seq: number } | undefined;

  const fail = (err: unknown): void => {
    // A malformed id (`invalid_session_id`) names no session either: the same final state.
    const missingCode = err instanceof ApiError &&
      (err.code === "session_not_found" || err.code === "invalid_session_id");
    if (missingCode && current.peek() !== null) {
      gone(current.peek()!);
      return;
    }
    if (err instanceof ApiError && err.code === "session_owned_elsewhere") {
      owner.value = ownerLink(err.url ?? "", current.peek() ?? "");
      return;
    }
    failure.value = { err };
  };
  /**
   * A session was deleted (here, on another page or device): it leaves the watched sessions
   * (so the alert stream no longer names it) and its marks go; the open one shows the final
   * not-found state.
   */
  function forget(id: string): void {
    const list = watched.peek().filter((w) => w !== id);
    if (list.length !== watched.peek().length) {
      watched.value = list;
      writeWatched(deps.alerts.storage, list);
    }
    alerts.seen(id);
    gone(id);
  }
  /** The open session is not on the host (unknown, or deleted): one final state, no stream. */
  function gone(id: string): void {
    if (current.peek() !== id) return;
    stream?.[Symbol.dispose]();
    stream = undefined;
    win.peek()?.[Symbol.dispose]();
    win.value = null;
    header.value = null;
    failure.value = null;
    missing.value = id;
  }
  const panelHost: PanelHost = {
    current,
    win,
    seedLength: computed(() => header.value?.seedLength ?? 0),
    request: (id, path, init) => api.request(id, path, init),
    fail,
  };
  const viewHost: PageViewHost | undefined = api.requestApi && {
    api: (path, init) => api.requestApi!(path, init),
    request: (id, path, init) => api.request(id, path, init),
    open: (target) => {
      focus.value = target;
      // On a phone the panel is a sheet: open it at the item.
      if (target.panel !== undefined) sheet.value = target.panel;
      if (current.peek() === target.sessionId && view.peek() === null) return;
      deps.navigate(target.sessionId);
    },
    fail: (err) => {
      failure.value = { err };
    },
  };
  const opened = (id: string): void => {
    for (const p of panels.peek()) p.model.opened(id);
  };

  const refreshSessions = async (): Promise<void> => {
    try {
      const page = await api.listSessions({
        limit: Math.max(SESSIONS_PAGE, sessions.peek().length),
      });
      sessions.value = page.sessions;
      sessionsNext.value = page.nextBefore;
    } catch (err) {
      fail(err);
    }
  };

  /** The last send that failed, with its idempotency key (a retry of it reuses the key). */
  let unsent: { readonly id: string; readonly text: string; readonly key: string } | undefined;

  const act = async (run: (id: string) => Promise<unknown>): Promise<boolean> => {
    const id = current.peek();
    if (!id) return false;
    try {
      await run(id);
      failure.value = null;
      return true;
    } catch (err) {
      fail(err);
      return false;
    }
  };

  /** Creates a session (new or fork), refreshes the list and routes to it. */
  const goTo = async (make: () => Promise<WireHeader>): Promise<void> => {
    busy.value = true;
    try {
      const h = await make();
      failure.value = null;
      await refreshSessions();
      deps.navigate(h.id);
    } catch (err) {
      fail(err);
    } finally {
      busy.value = false;
    }
  };

  const acknowledge = (id: string, tags: readonly string[]): void => {
    for (const tag of tags) void deps.api.acknowledge?.(id, tag).catch(() => {});
  };
  /** Marks a session seen (it is open and the person is at the page): acknowledges its cards. */
  const seeCurrent = (): void => {
    const id = current.peek();
    if (id !== null && !alerts.away()) acknowledge(id, alerts.seen(id));
  };
  // One alert per card, whichever way it arrived (the open window or the page alert stream).
  const reported = new Set<string>();
  const report = (id: string, seq: number, view: EventView, title: string | null): void => {
    const key = `${id}#${seq}`;
    if (reported.has(key)) return;
    reported.add(key);
    const said = alertOf(enabled.peek(), view, lang.peek());
    if (!said) return;
    const tag = notificationTag(id, said.key ?? String(seq));
    const open = id === current.peek();
    if (open) announcement.value = `${said.title}: ${said.body}`;
    // The person is looking at that session's card: nothing to alert, and it is acknowledged.
    if (open && !alerts.away()) return acknowledge(id, [tag]);
    const named = title ?? sessions.peek().find((s) => s.header.id === id)?.title ?? null;
    alerts.card({
      sessionId: id,
      seq,
      tag,
      title: open || !named ? said.title : `${said.title} — ${named}`,
      prompt: said.body,
      open: () => {
        if (id === current.peek()) {
          deps.alerts.reveal(seq);
          acknowledge(id, alerts.seen(id));
        } else {
          reveal = { id, seq };
          deps.navigate(id);
        }
      },
    });
  };

  // New durable cards and assistant messages after a window's first load: announce them (one
  // polite live region, not the whole chat) and alert while the person is away.
  let tracked: SessionWindow | null = null;
  let cardsSeen = new Set<number>();
  let lastSeq = -1;
  let untitledAsked = false;
  const titleOfCurrent = () =>
    sessions.peek().find((s) => s.header.id === current.peek())?.title ?? null;
  effect(() => {
    const w = win.value;
    if (!w || w.status.value !== "ready") return;
    const events = w.events.value;
    const views = w.views.value;
    const tail = events.at(-1)?.seq ?? -1;
    if (w !== tracked) {
      tracked = w;
      untitledAsked = false;
      cardsSeen = new Set(views.keys());
      lastSeq = tail;
      return;
    }
    const first = events[0]?.seq ?? 0;
    for (const [seq, view] of views) {
      if (cardsSeen.has(seq)) continue;
      cardsSeen.add(seq);
      const id = current.peek();
      if (id !== null) report(id, seq, view, null);
    }
    for (let i = Math.max(lastSeq + 1, first) - first; i < events.length; i++) {
      const e = events[i]!;
      // Deleted from another tab or device: the same final state as an unknown session.
      const shown = current.peek();
      if (e.type === "session/deleted" && shown !== null) queueMicrotask(() => gone(shown));
      const said = (e.data as { text?: unknown }).text;
      if (e.type === "assistant/message" && typeof said === "string" && said) {
        announcement.value = said.length > 300 ? `${said.slice(0, 299)}…` : said;
      }
      // The first message names the session: fetch the list's new title.
      if (e.type === "user-rpc" && !untitledAsked && !titleOfCurrent()) {
        untitledAsked = true;
        void refreshSessions();
      }
    }
    lastSeq = Math.max(lastSeq, tail);
  });

  // The page alert stream: every watched session's new durable cards (README "The page").
  effect(() => {
    const ids = watched.value;
    // Only when an enabled module raises alerts (the plain chat host has nothing to alert).
    const raises = enabled.value.some((r) => r.alertOf !== undefined);
    if (!alertStream.value || !raises || deps.watchAlerts === undefined || ids.length === 0) return;
    const feed = deps.watchAlerts(ids, {
      alert: (m) => {
        // A card of the open session is reported by its window (it knows the first load).
        if (m.sessionId === current.peek() && win.peek()?.status.peek() !== "ready") return;
        report(m.sessionId, m.event.seq, m.view, m.title);
        if (m.sessionId !== current.peek()) void refreshSessions(); // the row's counts
      },
      acknowledged: (m) => alerts.acknowledged(m.sessionId, m.tag),
      deleted: (m) => {
        forget(m.sessionId);
        void refreshSessions();
      },
    });
    return () => feed[Symbol.dispose]();
  });

  /** Opens a session (or none): a fresh window, resumed, tail loaded, then the stream. */
  const openSession = async (id: string | null): Promise<void> => {
    view.value = null;
    if (focus.peek()?.sessionId !== id) focus.value = null;
    stream?.[Symbol.dispose]();
    stream = undefined;
    win.peek()?.[Symbol.dispose]();
    win.value = null;
    header.value = null;
    for (const p of panels.peek()) p.model.reset();
    owner.value = null;
    missing.value = null;
    // Opening a session closes the phone drawer and any sheet; routing to no session (the
    // boot call when the URL names none) leaves a drawer the person already opened alone.
    if (id !== null) {
      drawer.value = false;
      sheet.value = focus.peek()?.panel ?? null;
    }
    current.value = id;
    if (!id) return;
    seeCurrent();
    const list = [id, ...watched.peek().filter((w) => w !== id)].slice(0, WATCHED_MAX);
    if (list.join() !== watched.peek().join()) {
      watched.value = list;
      writeWatched(deps.alerts.storage, list);
    }
    const w = new SessionWindow({
      loadHistory: async (q) => {
        const page = await api.loadHistory(id, q);
        if (current.peek() === id) header.value = page.header;
        return page;
      },
      loadAfter: (seq) => api.loadAfter(id, seq),
      pageSize: deps.pageSize ?? 200,
    });
    win.value = w;
    follow.value = follow.peek() + 1; // every session opens at its latest message
    try {
      await api.resumeSession(id);
    } catch (err) {
      fail(err);
    }
    if (current.peek() !== id || missing.peek() === id) return;
    opened(id);
    // Tail first: the stream then opens with ?after=<tail> instead of replaying the log.
    await w.start();
    // A notification of this session was clicked from another one: show its card.
    if (reveal?.id === id && current.peek() === id) {
      deps.alerts.reveal(reveal.seq);
      reveal = undefined;
    }
    // Owned by another host: history stays readable here, the banner links to the owner.
    if (current.peek() !== id || win.peek() !== w || owner.peek() !== null) return;
    // docs/flows.md#open: the page resumes a session when it opens or reconnects to it.
    stream = deps.connect(id, w, async () => {
      try {
        await api.resumeSession(id);
      } catch (err) {
        fail(err);
      }
      opened(id);
      // A reconnect may follow a host restart: every other session is cold now, and the
      // list's live dots must say so.
      void refreshSessions();
    }, (url) => {
      if (current.peek() === id) owner.value = ownerLink(url, id);
    }, () => {
      forget(id);
      void refreshSessions();
    });
    void refreshSessions();
  };

  /** Shows a page view in place of the session (an unknown name: the empty page). */
  const openView = async (name: string): Promise<void> => {
    await openSession(null);
    const shown = views.peek().find((v) => v.definition.name === name);
    drawer.value = false;
    sheet.value = null;
    view.value = shown ? name : null;
    shown?.model.shown();
  };

  return {
    sessions,
    sessionsNext,
    watched,
    /** The first way to reach this browser with its tabs closed, if a module brings one. */
    delivery: computed(() => deliveries.value[0] ?? null),
    /**
     * The page is visible or focused again: the permission is read again and the open session's
     * cards count as seen (and are acknowledged on every device).
     */
    back(): void {
      alerts.visible();
      seeCurrent();
    },
    /**
     * Opens a session at one card (a push notification was clicked while the page is open).
     *
     * @param id the session
     * @param seq the card's seq, `-1` for the latest message
     */
    revealCard(id: string, seq: number): void {
      if (id === current.peek()) {
        if (seq >= 0) deps.alerts.reveal(seq);
        acknowledge(id, alerts.seen(id));
        return;
      }
      if (seq >= 0) reveal = { id, seq };
      deps.navigate(id);
    },
    current,
    header,
    win,
    banner,
    missing,
    hostDown,
    owner,
    busy,
    sending,
    drawer,
    sheet,
    follow,
    announcement,
    enabled,
    panels,
    views,
    view,
    focus,
    alerts,
    ctx,
    running,
    refreshSessions,
    /** Whether an enabled renderer module raises alerts (the notification settings show). */
    hasAlerts: computed(() => enabled.value.some((r) => r.alertOf !== undefined)),
    /** The composer's placeholder: an enabled module's hint, else the page's own. */
    placeholder: computed(() => hint("placeholder")),
    /** The empty conversation's line: an enabled module's hint, else the page's own. */
    hello: computed(() => hint("hello")),
    /** The host-down line: an enabled module's hint (what waits), else the page's own. */
    hostDownText: computed(() => hint("hostDown")),
    /** What a delete ends, for its confirmation: an enabled module's hint, else the page's own. */
    deleteBodyText: computed(() => hint("deleteBody")),

    /**
     * Reads the client configuration once and enables what it lists: each named renderer module
     * the page bundles registers its event renderers, and each panel of theirs that the answer
     * names gets its model. Call it before opening a session. A failure enables nothing.
     */
    async configure(): Promise<void> {
      let config: ClientConfigWire;
      try {
        config = await api.clientConfig();
      } catch (err) {
        fail(err);
        return;
      }
      off();
      const on = enable(config, deps.renderers, deps.registry, panelHost, viewHost);
      deps.installAssets?.(on.modules);
      const reach = on.modules.flatMap((m) =>
        m.delivery === undefined ? [] : [m.delivery({
          watched,
          permission: alerts.permission,
          lang: computed(() => lang.value),
          request: (id, path, init) => api.request(id, path, init),
        })]
      );
      off = () => {
        on.off();
        for (const d of reach) d[Symbol.dispose]();
      };
      enabled.value = on.modules;
      panels.value = on.panels;
      views.value = on.views;
      deliveries.value = reach;
      alertStream.value = config.alerts === true;
    },

    /** Loads the next page of the session list. */
    async moreSessions(): Promise<void> {
      const before = sessionsNext.peek();
      if (before === null) return;
      try {
        const page = await api.listSessions({ limit: SESSIONS_PAGE, before });
        const known = new Set(sessions.peek().map((s) => s.header.id));
        sessions.value = [
          ...sessions.peek(),
          ...page.sessions.filter((s) => !known.has(s.header.id)),
        ];
        sessionsNext.value = page.nextBefore;
      } catch (err) {
        fail(err);
      }
    },

    openSession,

    openView,

    /** Routes to a page view (the router then calls `openView`). */
    goToView(name: string): void {
      if (deps.navigateView) deps.navigateView(name);
      else void openView(name);
    },

    /** The panel item to highlight in the open session, once. */
    focusOf(panel: string): string | null {
      const f = focus.value;
      return f !== null && f.panel === panel && f.sessionId === current.value
        ? f.item ?? null
        : null;
    },

    /** Creates a session in the browser's zone and routes to it. */
    newSession(): Promise<void> {
      return goTo(() => api.createSession());
    },

    /** Forks the open session at its end and routes to the child. */
    fork(): Promise<void> {
      const id = current.peek();
      return id ? goTo(() => api.forkSession(id)) : Promise.resolve();
    },

    /**
     * Sends a prompt; the transcript follows the new turn. Sending the same text again to the
     * same session after a failed send reuses that send's idempotency key, so the host stores
     * it once whatever became of the first attempt.
     */
    async send(prompt: string): Promise<boolean> {
      sending.value = true;
      follow.value = follow.peek() + 1;
      const id = current.peek();
      const key = unsent !== undefined && unsent.id === id && unsent.text === prompt
        ? unsent.key
        : crypto.randomUUID();
      try {
        const sent = await act((id) => api.sendMessage(id, prompt, key));
        unsent = sent || id === null ? undefined : { id, text: prompt, key };
        return sent;
      } finally {
        sending.value = false;
      }
    },

    /** Runs a new turn for a message; the transcript follows it. */
    retry(messageId: string): Promise<boolean> {
      follow.value = follow.peek() + 1;
      return act((id) => api.retryMessage(id, messageId));
    },

    /** Appends an edit of a message; the transcript follows it. */
    edit(messageId: string, prompt: string): Promise<boolean> {
      follow.value = follow.peek() + 1;
      return act((id) => api.editMessage(id, messageId, prompt));
    },

    /** Stops the running turn (one that ended meanwhile is not an error). */
    async stop(): Promise<void> {
      await act(async (id) => {
        try {
          await api.cancelTurn(id);
        } catch (err) {
          if (!(err instanceof ApiError && err.code === "no_running_turn")) throw err;
        }
      });
    },

    /**
     * Renames the open session (`null`: back to its first message's title); the list follows.
     *
     * @returns whether the host accepted it (a refusal shows in the banner)
     */
    async rename(title: string | null): Promise<boolean> {
      const ok = await act((id) => api.renameSession(id, title));
      if (ok) await refreshSessions();
      return ok;
    },

    /**
     * Deletes the open session: its reminders end, it leaves the list, the page shows none.
     *
     * @returns whether the host accepted it
     */
    async remove(): Promise<boolean> {
      const id = current.peek();
      const ok = await act((sid) => api.deleteSession(sid));
      if (!ok || id === null) return false;
      forget(id);
      await refreshSessions();
      if (current.peek() === id) deps.navigate(null);
      return true;
    },

    /** Clears the error banner. */
    dismissBanner(): void {
      failure.value = null;
    },

    /** Opens or closes the session drawer (phone). */
    setDrawer(open: boolean): void {
      drawer.value = open;
      if (open) sheet.value = null;
    },

    /** Opens a panel as a sheet by name, or closes it with `null` (phone). */
    setSheet(name: string | null): void {
      sheet.value = name;
      if (name !== null) drawer.value = false;
    },

    /** Closes the stream, the window and the panels; unregisters the renderers. */
    close(): void {
      stream?.[Symbol.dispose]();
      stream = undefined;
      win.peek()?.[Symbol.dispose]();
      off();
      off = () => {};
      panels.value = [];
      views.value = [];
      deliveries.value = [];
      alertStream.value = false;
    },
  };
});

/** An instance of {@linkcode PageModel}. */
export type Page = InstanceType<typeof PageModel>;
