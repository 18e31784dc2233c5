/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The chat page (browser entry point bundled into `dist/app.js`): wires the page model
 * (`client/model.ts`) to the browser (router, stream, notifications, title) and renders it.
 * No inline scripts or handlers in the HTML: the host's Content-Security-Policy allows
 * `script-src 'self'` only.
 *
 * @module
 */
import { useModel } from "@preact/signals";
import { render, type VNode } from "preact";
import { useEffect } from "preact/hooks";
import { registerConversationViews } from "./conversation.ts";
import { lang } from "./i18n.ts";
import { eventViews } from "./registry.ts";
import { CLIENT_RENDERERS } from "./renderers.ts";
import * as api from "./client/api.ts";
import { browserAlerts } from "./client/browser_env.ts";
import { COMPOSER_ID } from "./client/composer.tsx";
import { PageModel } from "./client/model.ts";
import { MissingSession } from "./client/missing_session.tsx";
import { DeleteConfirm } from "./client/session_admin.tsx";
import { SessionList } from "./client/session_list.tsx";
import { SessionView } from "./client/session_view.tsx";
import { connectStream } from "./client/stream.ts";
import { watchAlerts } from "./client/alert_stream.ts";
import { text } from "./client/strings.ts";
import { Topbar } from "./client/topbar.tsx";
import { installAssets } from "./client/assets.ts";
import { icon } from "./icons.ts";

registerConversationViews(eventViews);

function routeId(): string | null {
  const m = /^#\/s\/(.+)$/.exec(location.hash);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

/** A page view's name when the route is `#/v/<name>`. */
function routeView(): string | null {
  const m = /^#\/v\/(.+)$/.exec(location.hash);
  return m?.[1] ? decodeURIComponent(m[1]) : null;
}

function newPage() {
  return new PageModel({
    api,
    connect: (id, win, onReopen, onLost, onDeleted) =>
      connectStream(id, win, {
        onReopen,
        ...(onLost === undefined ? {} : { onLost }),
        ...(onDeleted === undefined ? {} : { onDeleted }),
      }),
    navigate: (id) => {
      location.hash = id === null ? "#/" : `#/s/${encodeURIComponent(id)}`;
    },
    watchAlerts: (ids, handlers) => watchAlerts(ids, handlers),
    navigateView: (name) => {
      location.hash = `#/v/${encodeURIComponent(name)}`;
    },
    alerts: browserAlerts(),
    timeZone: api.browserTimeZone(),
    renderers: CLIENT_RENDERERS,
    registry: eventViews,
    installAssets,
  });
}

function App(): VNode {
  const model = useModel(newPage);
  useEffect(() => {
    const onHash = () => {
      const view = routeView();
      void (view === null ? model.openSession(routeId()) : model.openView(view));
    };
    // Visible and focused again: the open session's cards count as seen.
    const onVisible = () => document.visibilityState === "visible" && model.back();
    // The push worker asks to show a card (a notification clicked while the page is open).
    const onWorker = (e: MessageEvent) => {
      const m = e.data as { type?: unknown; sessionId?: unknown; seq?: unknown } | null;
      if (m?.type === "chime-reveal" && typeof m.sessionId === "string") {
        model.revealCard(m.sessionId, typeof m.seq === "number" ? m.seq : -1);
      }
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && (model.drawer.peek() || model.sheet.peek() !== null)) {
        model.setDrawer(false);
        model.setSheet(null);
      }
    };
    addEventListener("hashchange", onHash);
    document.addEventListener("visibilitychange", onVisible);
    addEventListener("focus", onVisible);
    navigator.serviceWorker?.addEventListener("message", onWorker);
    addEventListener("keydown", onKey);
    void model.refreshSessions();
    // The renderers and panels first, so the first page already shows what they render.
    void model.configure().then(onHash);
    return () => {
      removeEventListener("hashchange", onHash);
      document.removeEventListener("visibilitychange", onVisible);
      removeEventListener("focus", onVisible);
      navigator.serviceWorker?.removeEventListener("message", onWorker);
      removeEventListener("keydown", onKey);
      model.close();
    };
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang.value === "zh" ? "zh-CN" : "en";
  }, [lang.value]);
  const title = model.alerts.title.value;
  useEffect(() => {
    document.title = title;
  }, [title]);
  const w = model.win.value;
  const overlay = model.drawer.value || model.sheet.value !== null;
  const shownView = model.views.value.find((v) => v.definition.name === model.view.value);
  return (
    <div class="app">
      <a
        class="skip-link"
        href={`#${COMPOSER_ID}`}
        data-testid="skip-link"
        onClick={(e) => {
          // The hash is the router's: focus the composer instead of navigating.
          e.preventDefault();
          const target = document.getElementById(COMPOSER_ID) ??
            document.querySelector<HTMLElement>("[data-testid=new-session]");
          target?.focus();
        }}
      >
        {text("skip")}
      </a>
      <SessionList model={model} />
      {overlay && (
        <div
          class="backdrop"
          data-testid="backdrop"
          onClick={() => {
            model.setDrawer(false);
            model.setSheet(null);
          }}
        />
      )}
      <main>
        <Topbar model={model} />
        {w && (
          <DeleteConfirm
            model={model}
            title={model.sessions.value.find((s) => s.header.id === model.current.value)?.title ||
              text("untitled")}
          />
        )}
        {model.owner.value !== null && (
          <div class="banner warn" role="alert" data-testid="owner-banner">
            {text("ownedElsewhere")}{" "}
            {model.owner.value !== "" && <a href={model.owner.value}>{text("openOwner")}</a>}
          </div>
        )}
        {model.hostDown.value && (
          <div class="banner warn" role="status" data-testid="host-down">
            {model.hostDownText.value}
          </div>
        )}
        {model.banner.value && (
          <div class="banner error" role="alert" data-testid="error-banner">
            {model.banner.value}
            <button
              type="button"
              class="ghost icon-only"
              aria-label={text("dismiss")}
              onClick={() => model.dismissBanner()}
            >
              {icon("close")}
            </button>
          </div>
        )}
        {w
          ? <SessionView key={model.current.value ?? ""} model={model} w={w} />
          : model.missing.value !== null
          ? <MissingSession model={model} />
          : shownView
          ? <shownView.definition.view model={shownView.model} ctx={model.ctx.value} />
          : <p class="empty-state">{text("pick")}</p>}
      </main>
      <div class="sr-only" aria-live="polite" data-testid="announcer">
        {model.announcement.value}
      </div>
    </div>
  );
}

const root = document.getElementById("app");
if (root) render(<App />, root);
