/**
 * What the page model needs from its surroundings (`./model.ts`): the host API and the browser
 * parts, injected so `deno test` drives the model without a DOM or a network.
 *
 * @module
 */
import type {
  ApiRequest,
  ClientConfigWire,
  ClientRenderer,
  PanelRequest,
} from "../client_renderer.ts";
import type { EventViewRegistry } from "../registry.ts";
import type { SessionWindow } from "../window.ts";
import type { EventSnapshot, HistoryQuery } from "../window_types.ts";
import type { HistoryPage, SessionsPage, WireHeader } from "../wire.ts";
import type { AcknowledgedMessage, AlertMessage, DeletedMessage } from "@chime/contract";
import type { AlertsEnv } from "./alerts.ts";

/** The host API the model calls (`./api.ts` implements it over `fetch`). */
export interface PageApi {
  /** `GET /api/sessions?limit&before`. */
  listSessions(query: { limit: number; before?: string | null }): Promise<SessionsPage>;
  /** `POST /api/sessions` with the browser's zone. */
  createSession(): Promise<WireHeader>;
  /** `PATCH /api/sessions/:id` `{ title }`. */
  renameSession(id: string, title: string | null): Promise<void>;
  /** `DELETE /api/sessions/:id`. */
  deleteSession(id: string): Promise<void>;
  /** `POST /api/sessions/:id/resume`. */
  resumeSession(id: string): Promise<void>;
  /** `POST /api/sessions/:id/fork`. */
  forkSession(id: string): Promise<WireHeader>;
  /** `GET /api/client-config`: the renderer modules and panels to enable. */
  clientConfig(): Promise<ClientConfigWire>;
  /** A page view's call below `/api` (JSON in, JSON out). @default none: no page views */
  requestApi?<T>(path: string, init?: ApiRequest): Promise<T>;
  /** A panel's call below `/api/sessions/:id` (JSON in, JSON out). */
  request<T>(id: string, path: string, init?: PanelRequest): Promise<T>;
  /** `POST /api/sessions/:id/messages`. */
  sendMessage(id: string, text: string, key?: string): Promise<unknown>;
  /** `GET /api/sessions/:id/history`. */
  loadHistory(id: string, query: HistoryQuery): Promise<HistoryPage>;
  /** Every event after a seq. */
  loadAfter(id: string, after: number): Promise<EventSnapshot>;
  /** `POST /api/sessions/:id/turns/current/cancel`. */
  cancelTurn(id: string): Promise<void>;
  /** `POST …/messages/:messageId/retry`. */
  retryMessage(id: string, messageId: string): Promise<void>;
  /** `POST …/messages/:messageId/edit`. */
  editMessage(id: string, messageId: string, text: string): Promise<unknown>;
  /** `POST /api/sessions/:id/acknowledge { tag }` (docs/push.md). @default none */
  acknowledge?(id: string, tag: string): Promise<void>;
}

/** What the page alert stream delivers. */
export interface AlertHandlers {
  /** A view that just became durable in a watched session. */
  alert(message: AlertMessage): void;
  /** A notification acknowledged on some device. */
  acknowledged(message: AcknowledgedMessage): void;
  /** A watched session was deleted: it leaves the watched sessions. @default ignored */
  deleted?(message: DeletedMessage): void;
}

/** What the model needs from its surroundings. */
export interface PageDeps {
  /** The host API. */
  readonly api: PageApi;
  /**
   * Subscribes a window to its session stream; `onReopen` runs before each reconnect, `onLost`
   * when another host took the session (README.md "Running several hosts"), `onDeleted` when
   * the session was deleted (README.md "The page"; the stream does not reconnect).
   */
  connect(
    id: string,
    win: SessionWindow,
    onReopen: () => Promise<void>,
    onLost?: (url: string) => void,
    onDeleted?: () => void,
  ): Disposable;
  /**
   * Opens the page alert stream (`GET /api/alerts?sessions=…`) for the watched sessions.
   * @default none (no alerts from sessions not open)
   */
  readonly watchAlerts?: (ids: readonly string[], handlers: AlertHandlers) => Disposable;
  /**
   * Routes to a session (`location.hash = #/s/<id>`; the router then calls `openSession`), or
   * to none with `null` (after the open session was deleted).
   */
  navigate(id: string | null): void;
  /**
   * Routes to a page view (`location.hash = #/v/<name>`; the router then calls `openView`).
   * @default none: no page views
   */
  navigateView?(name: string): void;
  /** Browser alerts (notifications, title count, chime). */
  readonly alerts: AlertsEnv;
  /** The viewer's IANA zone. */
  readonly timeZone: string;
  /** Events per history page. @default 200 */
  readonly pageSize?: number;
  /** The renderer modules bundled in the page, by name (`../renderers.ts`). */
  readonly renderers: Readonly<Record<string, ClientRenderer>>;
  /** Where enabled modules register their event renderers (the page's `eventViews`). */
  readonly registry: EventViewRegistry;
  /**
   * Brings in the enabled modules' own assets (`ClientRenderer.assets`, contract/page.ts): links
   * each style sheet and registers each service worker at its `clientAssetPaths` (the browser:
   * `installAssets` of `./assets.ts`). @default none (tests, static rendering)
   */
  readonly installAssets?: (modules: readonly ClientRenderer[]) => void;
}
