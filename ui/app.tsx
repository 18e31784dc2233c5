/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The chat page (browser entry point bundled into `dist/app.js`): session list, transcript over
 * SSE through the session window, composer, active reminders, connection and error states.
 *
 * @module
 */
import { computed, signal } from "@preact/signals";
import { render } from "preact";
import { useEffect, useMemo } from "preact/hooks";
import { registerConversationViews } from "./conversation.ts";
import { lang } from "./i18n.ts";
import { eventViews, type RenderContext } from "./registry.ts";
import { registerScheduleView } from "./schedule.ts";
import { TranscriptAdapter } from "./transcript.ts";
import { SessionWindow } from "./window.ts";
import type { ActiveReminderWire, SessionSummary, WireHeader } from "./wire.ts";
import * as api from "./client/api.ts";
import {
  Composer,
  ConnectionBadge,
  LangToggle,
  RemindersPanel,
  SessionList,
  t,
  Transcript,
} from "./client/components.tsx";
import { messageStates, turnOpen } from "./client/lifecycle.ts";
import { durableScheduleMark } from "./client/reminders.ts";
import { connection, connectStream } from "./client/stream.ts";

registerConversationViews(eventViews);
registerScheduleView(eventViews);

const sessions = signal<SessionSummary[]>([]);
const current = signal<string | null>(null);
const header = signal<WireHeader | null>(null);
const win = signal<SessionWindow | null>(null);
const banner = signal<string | null>(null);
const busy = signal(false);
const sending = signal(false);
const reminders = signal<readonly ActiveReminderWire[]>([]);
const zone = api.browserTimeZone();
const ctx = computed<RenderContext>(() => ({ lang: lang.value, timeZone: zone }));

function fail(err: unknown): void {
  banner.value = err instanceof api.ApiError && err.code === "network"
    ? (lang.value === "zh" ? "无法连接服务器" : "Cannot reach the server")
    : err instanceof Error
    ? err.message
    : String(err);
}

async function refreshSessions(): Promise<void> {
  try {
    sessions.value = await api.listSessions();
  } catch (err) {
    fail(err);
  }
}

function routeId(): string | null {
  const m = /^#\/s\/(.+)$/.exec(location.hash);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

let stream: Disposable | undefined;
let remindersAsked = 0;

/** Refreshes the reminders panel from the host's durable fold; the latest request wins. */
async function refreshReminders(id: string): Promise<void> {
  const asked = ++remindersAsked;
  try {
    const page = await api.loadReminders(id);
    if (asked === remindersAsked && current.peek() === id) reminders.value = page.reminders;
  } catch (err) {
    if (asked === remindersAsked && current.peek() === id) fail(err);
  }
}

async function openSession(id: string | null): Promise<void> {
  stream?.[Symbol.dispose]();
  win.peek()?.[Symbol.dispose]();
  win.value = null;
  header.value = null;
  reminders.value = [];
  current.value = id;
  if (!id) return;
  const w = new SessionWindow({
    loadHistory: async (q) => {
      const page = await api.loadHistory(id, q);
      if (current.peek() === id) header.value = page.header;
      return page;
    },
    loadAfter: (seq) => api.loadAfter(id, seq),
    pageSize: 200,
  });
  win.value = w;
  try {
    await api.resumeSession(id);
  } catch (err) {
    fail(err);
  }
  if (current.peek() !== id) return;
  void refreshReminders(id);
  // Tail first: the stream then opens with ?after=<tail> instead of replaying the whole log;
  // anything appended in between is in the host's backfill after that cursor.
  await w.start();
  if (current.peek() !== id || win.peek() !== w) return;
  stream = connectStream(id, w, {
    // ARCHITECTURE.md §6: the page resumes a session when it opens or reconnects to it.
    onReopen: async () => {
      try {
        await api.resumeSession(id);
      } catch (err) {
        fail(err);
      }
      void refreshReminders(id);
    },
  });
  void refreshSessions();
}

async function newSession(): Promise<void> {
  busy.value = true;
  try {
    const h = await api.createSession();
    await refreshSessions();
    location.hash = `#/s/${encodeURIComponent(h.id)}`;
  } catch (err) {
    fail(err);
  } finally {
    busy.value = false;
  }
}

async function send(text: string): Promise<boolean> {
  const id = current.peek();
  if (!id) return false;
  sending.value = true;
  try {
    await api.sendMessage(id, text);
    banner.value = null;
    return true;
  } catch (err) {
    fail(err);
    return false;
  } finally {
    sending.value = false;
  }
}

async function act(run: (id: string) => Promise<unknown>): Promise<boolean> {
  const id = current.peek();
  if (!id) return false;
  try {
    await run(id);
    banner.value = null;
    return true;
  } catch (err) {
    fail(err);
    return false;
  }
}

const actions = {
  retry: (messageId: string) => act((id) => api.retryMessage(id, messageId)),
  edit: (messageId: string, text: string) => act((id) => api.editMessage(id, messageId, text)),
};

async function fork(): Promise<void> {
  const id = current.peek();
  if (!id) return;
  busy.value = true;
  try {
    const child = await api.forkSession(id);
    banner.value = null;
    await refreshSessions();
    location.hash = `#/s/${encodeURIComponent(child.id)}`;
  } catch (err) {
    fail(err);
  } finally {
    busy.value = false;
  }
}

function stop(): void {
  void act(async (id) => {
    try {
      await api.cancelTurn(id);
    } catch (err) {
      // The turn may have ended on its own between the click and the request.
      if (!(err instanceof api.ApiError && err.code === "no_running_turn")) throw err;
    }
  });
}

function SessionView(props: { w: SessionWindow }) {
  const { w } = props;
  const adapter = useMemo(() => new TranscriptAdapter(), [w]);
  const events = w.events.value;
  const nodes = adapter.present(events, w.views.value);
  const open = turnOpen(events);
  const states = useMemo(() => messageStates(events), [events]);
  const h = header.value;
  // A create, delete or dispatch became durable: the host's fold changed.
  const mark = durableScheduleMark(events, w.durableBefore.value);
  useEffect(() => {
    const id = current.peek();
    if (mark >= 0 && id) void refreshReminders(id);
  }, [w, mark]);
  return (
    <div class="session">
      <div class="col">
        {w.status.value === "loading" && events.length === 0 && <div class="loading" />}
        {w.error.value && <div class="banner warn" role="status">{w.error.value}</div>}
        <Transcript
          nodes={nodes}
          registry={eventViews}
          ctx={ctx.value}
          thinking={open}
          canLoadOlder={w.nextBefore.value !== null}
          onOlder={() => void w.loadOlder()}
          loadingOlder={w.loadingOlder.value}
          states={states}
          actions={actions}
          seedLength={h?.seedLength}
        />
        <Composer disabled={sending.value} onSend={send} running={open} onStop={stop} />
      </div>
      <RemindersPanel reminders={reminders.value} ctx={ctx.value} />
    </div>
  );
}

function App() {
  useEffect(() => {
    const onHash = () => void openSession(routeId());
    addEventListener("hashchange", onHash);
    void refreshSessions();
    onHash();
    return () => removeEventListener("hashchange", onHash);
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang.value === "zh" ? "zh-CN" : "en";
  }, [lang.value]);
  const w = win.value;
  const h = header.value;
  return (
    <div class="app">
      <SessionList
        sessions={sessions.value}
        current={current.value}
        onNew={() => void newSession()}
        busy={busy.value}
      />
      <main>
        <header class="topbar">
          <div class="title">
            <strong>{current.value ?? "chime"}</strong>
            {h?.lineage && (
              <span class="muted small" data-testid="header-fork-of">
                {t("forkOf")} {h.lineage.parentId.slice(0, 8)}
              </span>
            )}
            {h?.timeZone && <span class="muted small">{t("zone")}: {h.timeZone}</span>}
          </div>
          <div class="tools">
            {w && (
              <button
                type="button"
                class="ghost"
                data-testid="fork-session"
                title={t("forkTitle")}
                disabled={busy.value}
                onClick={() => void fork()}
              >
                ⋔ {t("fork")}
              </button>
            )}
            {w && <ConnectionBadge state={connection.value} />}
            <LangToggle />
          </div>
        </header>
        {banner.value && (
          <div class="banner error" role="alert" data-testid="error-banner">
            {banner.value}
            <button type="button" class="ghost" onClick={() => (banner.value = null)}>×</button>
          </div>
        )}
        {w ? <SessionView w={w} /> : <p class="empty-state">{t("pick")}</p>}
      </main>
    </div>
  );
}

const root = document.getElementById("app");
if (root) render(<App />, root);
