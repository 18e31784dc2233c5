/**
 * Test harness for agent tests: a memory-backed store, a root session, an agent, helpers to
 * read the log. Not published.
 *
 * @module
 */
import { type Session, type SessionEvent, SessionStore } from "@chime/session";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { Agent, type AgentOptions } from "../agent.ts";
import type { ModelAdapter } from "../types.ts";

/** Everything a test needs; dispose it with `await using`. */
export interface Harness extends AsyncDisposable {
  readonly store: SessionStore;
  readonly backend: MemoryBackend;
  readonly session: Session;
  readonly agent: Agent;
  readonly clock: FakeClock;
}

/** Options of {@linkcode harness}. */
export interface HarnessOptions extends Partial<Omit<AgentOptions, "session" | "store">> {
  /** The session zone. @default "Europe/Berlin" */
  readonly timeZone?: string;
  /** Session delegation depth. @default 0 */
  readonly delegationDepth?: number;
}

/** Builds a store, a root session and an agent around `model`. */
export async function harness(
  model: ModelAdapter | undefined,
  options: HarnessOptions = {},
): Promise<Harness> {
  const clock = new FakeClock(Date.UTC(2026, 0, 15, 8, 0, 0));
  const backend = new MemoryBackend();
  const store = new SessionStore({ backend, clock });
  const session = await store.create({
    cwd: "/work",
    timeZone: options.timeZone ?? "Europe/Berlin",
    delegationDepth: options.delegationDepth ?? 0,
  });
  let n = 0;
  const agent = new Agent({
    session,
    store,
    model,
    generateId: () => `id${++n}`,
    ...options,
  });
  return {
    store,
    backend,
    session,
    agent,
    clock,
    async [Symbol.asyncDispose]() {
      await agent[Symbol.asyncDispose]();
      await store[Symbol.asyncDispose]();
      clock[Symbol.dispose]();
    },
  };
}

/** `type` of every event from `from`. */
export function types(session: Session, from = 0): string[] {
  return session.events(from).map((e) => e.type);
}

/** Events of one type. */
export function ofType<D = Record<string, unknown>>(
  session: Session,
  type: string,
): SessionEvent<string, D>[] {
  return session.events().filter((e) => e.type === type) as SessionEvent<string, D>[];
}

/** A promise with its resolvers, for gating scripted models and tools. */
export function gate<T = void>(): PromiseWithResolvers<T> {
  return Promise.withResolvers<T>();
}

/** Lets queued reactions run. */
export async function settle(rounds = 50): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

/** Web source with a zone. */
export function web(clientTimeZone?: string): { kind: "web"; clientTimeZone?: string } {
  return clientTimeZone === undefined ? { kind: "web" } : { kind: "web", clientTimeZone };
}
