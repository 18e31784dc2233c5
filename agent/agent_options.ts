/**
 * The option and input shapes of `Agent`.
 *
 * @module
 */
import type { Clock, MessageSource, Session, SessionEvent, SessionStore } from "@chime/session";
import type { ModelAdapter } from "./types.ts";

/**
 * Reads the events `[from, to)` of the agent's live session, oldest first, whether they are in
 * memory or only in storage (docs/long-sessions.md `store.read(session, from, to)`).
 */
export type ReadEvents = (from: number, to: number) => Promise<readonly SessionEvent[]>;

/** Where the agent reports what is worth a log line but fails nothing. */
export interface AgentLogger {
  /** A request kept over its budget, and similar notices. */
  warn(message: string, details?: unknown): void;
}

/** Options of `Agent`. */
export interface AgentOptions {
  /** The live root session. */
  readonly session: Session;
  /** The store that owns `session` (tools use it for `flush`). */
  readonly store: SessionStore;
  /** The model; `undefined` makes every turn end `outcome: 'error'` with `model_missing`. */
  readonly model: ModelAdapter | undefined;
  /** Wall clock and timers. @default the store's clock */
  readonly clock?: Clock;
  /** A system message put first in every model call. @default none */
  readonly systemPrompt?: string;
  /** Model calls per turn. @default 8 */
  readonly maxSteps?: number;
  /**
   * The budget of each model request, in estimated tokens (`ceil(utf8Bytes / 3)` per text plus
   * a small per-message overhead, `context_budget.ts`): older turns are left out of the
   * request, oldest first, to fit it (docs/long-sessions.md "Model context within a budget").
   * At least 1,000. @default the model's `contextTokens`, else 32,000
   */
  readonly contextTokens?: number;
  /**
   * Reads events older than the session's memory tail. @default the store's `read(session,
   * from, to)` when it has one, else `session.events(from, to)` (a session holding its whole
   * log)
   */
  readonly readEvents?: ReadEvents;
  /** Where notices go (a request kept over its budget). @default console */
  readonly logger?: AgentLogger;
  /** Id generator for messages and turns. @default crypto.randomUUID */
  readonly generateId?: () => string;
  /** Where failures with no caller go. @default globalThis.reportError */
  readonly reportError?: (error: unknown) => void;
}

/** What `Agent.submit` takes: one web prompt and its bound provenance. */
export interface SubmitInput {
  /** The prompt text. */
  readonly text: string;
  /** Immutable provenance (the host validated `clientTimeZone`). */
  readonly source: MessageSource;
  /** The message id this one edits. */
  readonly edits?: string;
  /** The request's idempotency key, stored with the message (`UserRpcData.idempotencyKey`). */
  readonly idempotencyKey?: string;
}
