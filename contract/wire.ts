/**
 * The generic wire shapes of the host's HTTP and SSE answers (docs/architecture.md#contracts,
 * README "HTTP API"): event envelopes, headers, stream messages, history and session pages,
 * errors and the client configuration. The host types its answers with them and the page reads
 * them, so both sides name one shape; they are structural subsets of `@chime/session`'s types
 * (`contract/wire_test.ts` checks they stay assignable). Types only: no npm import.
 *
 * @module
 */
import type { EventView } from "./web.ts";

export type { EventView };

/**
 * A durable event envelope `{ seq, type, at, data }` as sent over HTTP and SSE; structurally
 * `SessionEvent` of `@chime/session` (checked in `wire_test.ts`).
 */
export interface WireEvent {
  /** 0-based, dense position in the session log. */
  readonly seq: number;
  /** The durable event type. */
  readonly type: string;
  /** Append instant, UTC RFC 3339 with milliseconds. */
  readonly at: string;
  /** Type-specific JSON data. */
  readonly data: unknown;
}

/** The session header fields the page reads; structurally a subset of `SessionHeader`. */
export interface WireHeader {
  /** Session id. */
  readonly id: string;
  /** Creation instant, UTC RFC 3339. */
  readonly createdAt: string;
  /** Who created it, e.g. `web` or `fork`. */
  readonly origin: string;
  /** Fork parentage, or `null`. */
  readonly lineage: { readonly parentId: string; readonly forkedThroughSeq: number } | null;
  /** The immutable session default zone, when known. */
  readonly timeZone?: string;
  /** Length of the inherited prefix of a fork. */
  readonly seedLength?: number;
}

/** The JSON `data` of one SSE `session-event` message. */
export interface StreamMessage {
  /** The durable event. */
  readonly event: WireEvent;
  /** A commit-aware view, present on the late re-send of a covered dispatch. */
  readonly view?: EventView;
  /** `"event"` when the message is a sidecar for an already sent `seq`. */
  readonly for?: "event";
}

/**
 * The JSON `data` of one SSE `flushed` message: the host's commit watermark after a
 * `session/flushed(session, throughSeq)` observation (docs/flows.md#receipt).
 */
export interface FlushedMessage {
  /**
   * The durable checkpoint's **exclusive** bound: every event with `seq < throughSeq` is
   * durable; `throughSeq` itself is not covered (it is the log length at the flush).
   */
  readonly throughSeq: number;
}

/** One page of `GET /api/sessions/:id/history`. */
export interface HistoryPage {
  /** The session header. */
  readonly header: WireHeader;
  /** Whether the session is live. */
  readonly live: boolean;
  /** Dense, ascending events of this page. */
  readonly events: readonly WireEvent[];
  /** Views by seq (JSON object keys are decimal seq strings). */
  readonly views: Readonly<Record<string, EventView>>;
  /** The `before` value of the next older page, or `null` at the start of the log. */
  readonly nextBefore: number | null;
}

/** One row of `GET /api/sessions`. */
export interface SessionSummary {
  /** The session header. */
  readonly header: WireHeader;
  /** Whether the session is live in the host. */
  readonly live: boolean;
  /** The first user message, shortened; `null` before any (absent from older hosts). */
  readonly title?: string | null;
  /** For a fork: the parent's id and title. */
  readonly forkOf?: { readonly id: string; readonly title: string | null };
  /**
   * What the loaded plugins count there (`PluginWeb.sessionCounts`), summed; absent when no
   * plugin counts anything (e.g. pending and late reminders).
   */
  readonly counts?: { readonly pending: number; readonly late: number };
}

/**
 * The JSON `data` of one `event: alert` message of `GET /api/alerts` (README "HTTP API"): a
 * view that just became durable in one of the watched sessions, with the session's title.
 */
export interface AlertMessage {
  /** The session it belongs to. */
  readonly sessionId: string;
  /** The session's title, `null` before its first user message. */
  readonly title: string | null;
  /** The durable event. */
  readonly event: WireEvent;
  /** Its commit-aware view. */
  readonly view: EventView;
}

/** The JSON `data` of one `event: acknowledged` message of `GET /api/alerts`. */
export interface AcknowledgedMessage {
  /** The session. */
  readonly sessionId: string;
  /** The notification tag acknowledged on some device. */
  readonly tag: string;
}

/**
 * The JSON `data` of one `event: deleted` message of `GET /api/alerts`: a watched session was
 * deleted; the stream sends nothing more of it (and ends once it watches no session), and the
 * page drops it from the sessions it watches.
 */
export interface DeletedMessage {
  /** The deleted session. */
  readonly sessionId: string;
  /** Always `session_not_found`: what every route of the session answers from now on. */
  readonly code: "session_not_found";
}

/** The answer of `GET /api/sessions?limit&before`. */
export interface SessionsPage {
  /** Sessions, newest first. */
  readonly sessions: readonly SessionSummary[];
  /** The `before` cursor of the next page, or `null` when this page is the last. */
  readonly nextBefore: string | null;
}

/** The error body every failing route returns. */
export interface WireError {
  /** The error. */
  readonly error: {
    /** A closed, machine-readable code such as `invalid_time_zone`. */
    readonly code: string;
    /** A human-readable message. */
    readonly message: string;
    /** `session_owned_elsewhere`: the base URL of the host that owns the session. */
    readonly url?: string;
    /** `payload_too_large`: the limit (characters of a named `field`, else body bytes). */
    readonly limit?: number;
    /** The request field the error is about, e.g. `text`. */
    readonly field?: string;
    /** `too_many_attempts`: seconds before another try. */
    readonly retryAfterSeconds?: number;
  };
}

/** Answer of `GET /api/client-config`. */
export interface ClientConfigWire {
  /** Enabled renderer modules. */
  readonly renderers: readonly string[];
  /** Panels whose plugin is loaded and whose renderer is enabled. */
  readonly panels?: readonly string[];
  /** `true` when the host serves `GET /api/alerts` (older hosts and fakes: absent). */
  readonly alerts?: boolean;
}
