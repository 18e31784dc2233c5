/**
 * The option and input shapes of `Agent`.
 *
 * @module
 */
import type { Clock, MessageSource, Session, SessionStore } from "@chime/session";
import type { ModelAdapter } from "./types.ts";

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
}
