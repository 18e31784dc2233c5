// Test-only given/when/then helpers shared by the schedule unit tests (no tests here; the
// `_test.ts` suffix keeps it out of the published package and the coverage report).
import {
  Agent,
  type AgentHandle,
  type ModelRequest,
  ScriptedModel,
  type ScriptedReply,
  type ToolContext,
  type ToolDefinition,
} from "@chime/agent";
import { type Session, type SessionEvent, SessionStore } from "@chime/session";
import { FakeClock, flushMicrotasks, MemoryBackend } from "@chime/session/testing";
import { ScheduleFifo } from "./fifo.ts";
import { type ScheduleLogger, ScheduleOwner, type ScheduleOwnerOptions } from "./owner.ts";
import { SCHEDULE_CHANGE, type ScheduleChange } from "./protocol.ts";
import { scheduleTools } from "./tools.ts";

/** 2026-01-15T08:00:00Z. */
export const T0 = Date.UTC(2026, 0, 15, 8, 0, 0);

/** A logger that keeps what it was told. */
export class ListLogger implements ScheduleLogger {
  readonly entries: { level: "warn" | "error"; message: string; details?: unknown }[] = [];
  warn(message: string, details?: unknown): void {
    this.entries.push({ level: "warn", message, details });
  }
  error(message: string, details?: unknown): void {
    this.entries.push({ level: "error", message, details });
  }
  count(level: "warn" | "error"): number {
    return this.entries.filter((e) => e.level === level).length;
  }
}

/** A model reply function the test can park. */
export class Gate {
  #open = Promise.withResolvers<void>();
  readonly frames: string[] = [];
  blocked = false;
  /** Parks every model call until {@linkcode Gate.release}. */
  block(): void {
    this.blocked = true;
    this.#open = Promise.withResolvers<void>();
  }
  release(): void {
    this.blocked = false;
    this.#open.resolve();
  }
  reply = async (request: ModelRequest): Promise<ScriptedReply> => {
    const last = request.messages.at(-1);
    if (last?.role === "user" && last.content.includes("<schedule-reminder>")) {
      this.frames.push(last.content);
    }
    if (this.blocked) await this.#open.promise;
    return { text: "ok" };
  };
}

/** Everything a schedule test needs. */
export interface World extends AsyncDisposable {
  readonly clock: FakeClock;
  readonly backend: MemoryBackend;
  readonly store: SessionStore;
  readonly session: Session;
  readonly agent: Agent;
  readonly gate: Gate;
  readonly logger: ListLogger;
  readonly fifo: ScheduleFifo;
  /** Tools by name, wired to {@linkcode World.owner} when one was made. */
  readonly tools: Record<
    | "schedule_create"
    | "schedule_list"
    | "schedule_delete"
    | "schedule_update"
    | "schedule_snooze"
    | "schedule_pause"
    | "schedule_resume"
    | "schedule_skip",
    ToolDefinition
  >;
  /** Counts `onConfirmed` calls. */
  confirmations: number;
  owner: ScheduleOwner | undefined;
  /** Makes and starts the owner (optionally around a wrapped handle). */
  startOwner(options?: ScheduleOwnerOptions & { handle?: AgentHandle }): Promise<ScheduleOwner>;
  /** Calls a tool as the model would inside `turnId`; results are asserted structurally. */
  // deno-lint-ignore no-explicit-any
  call(name: keyof World["tools"], args: unknown, turnId?: string): Promise<any>;
  /** The schedule/change data in the log. */
  changes(): ScheduleChange[];
  /** Events of a type. */
  events(type: string): SessionEvent[];
}

/** Options of {@linkcode world}. */
export interface WorldOptions {
  readonly timeZone?: string;
  readonly session?: Session;
  readonly store?: SessionStore;
  readonly random?: (n: number) => Uint8Array;
}

let counter = 0;

/** Seeded, deterministic random bytes (a fresh sequence per world). */
export function seededRandom(): (n: number) => Uint8Array {
  let next = 1;
  return (n) => Uint8Array.from({ length: n }, () => (next = (next * 131 + 7) % 256));
}

/** Builds a memory-backed store, a root session, a real agent and the tools. */
export async function world(options: WorldOptions = {}): Promise<World> {
  const clock = new FakeClock(T0);
  const backend = new MemoryBackend();
  const store = options.store ?? new SessionStore({ backend, clock });
  const session = options.session ??
    await store.create({ cwd: "/w", timeZone: options.timeZone ?? "Europe/Berlin" });
  const gate = new Gate();
  let n = 0;
  const agent = new Agent({
    session,
    store,
    model: new ScriptedModel(gate.reply),
    clock,
    generateId: () => `a${++counter}_${++n}`,
  });
  const logger = new ListLogger();
  const fifo = new ScheduleFifo();
  const w: World = {
    clock,
    backend,
    store,
    session,
    agent,
    gate,
    logger,
    fifo,
    confirmations: 0,
    owner: undefined,
    tools: {} as World["tools"],
    startOwner(ownerOptions = {}) {
      const owner = new ScheduleOwner(ownerOptions.handle ?? agent, {
        fifo,
        clock,
        logger,
        ...ownerOptions,
      });
      w.owner = owner;
      owner.start();
      return flushMicrotasks(50).then(() => owner);
    },
    call(name, args, turnId = "t-none") {
      const ctx: ToolContext = {
        agent,
        turnId,
        callId: `c${++n}`,
        signal: new AbortController().signal,
      };
      return w.tools[name].execute(args, ctx);
    },
    changes() {
      return session.events().filter((e) => e.type === SCHEDULE_CHANGE).map((e) =>
        e.data as ScheduleChange
      );
    },
    events(type) {
      return session.events().filter((e) => e.type === type);
    },
    async [Symbol.asyncDispose]() {
      await w.owner?.[Symbol.asyncDispose]();
      await agent[Symbol.asyncDispose]();
      if (options.store === undefined) await store[Symbol.asyncDispose]();
      clock[Symbol.dispose]();
    },
  };
  for (
    const tool of scheduleTools({
      fifo,
      clock,
      random: options.random ?? seededRandom(),
      onConfirmed: () => {
        w.confirmations++;
        w.owner?.recompute();
      },
    })
  ) {
    (w.tools as Record<string, ToolDefinition>)[tool.name] = tool;
  }
  return w;
}

/** A handle that delegates to the world's agent except for `overrides`. */
export function wrap(w: World, overrides: Partial<AgentHandle>): AgentHandle {
  const { agent } = w;
  return {
    get session() {
      return agent.session;
    },
    get store() {
      return agent.store;
    },
    get clock() {
      return agent.clock;
    },
    get phase() {
      return agent.phase;
    },
    append: (type, data) => agent.append(type, data),
    runMaintenance: (task) => agent.runMaintenance(task),
    whenIdle: () => agent.whenIdle(),
    followup: (frame) => agent.followup(frame),
    ...overrides,
  };
}

/** Lets promise chains and zero-delay fake timers settle. */
export async function settle(clock: FakeClock, rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await clock.advance(0);
  await flushMicrotasks(50);
}

/** The ops of every `schedule/change` in the world's session, in order. */
export function ops(w: World): string[] {
  return w.changes().map((c) => c.op);
}

/** The prompts of the delivered follow-up frames, in order. */
export function delivered(w: World): string[] {
  return w.events("followup").map((e) =>
    JSON.parse((e.data as { frame: string }).frame.split("\n")[1]!).prompt
  );
}

/** Creates an `after` reminder through the tool and returns its id. */
export async function create(w: World, prompt: string, afterSeconds: number): Promise<string> {
  const result = await w.call("schedule_create", { prompt, after_seconds: afterSeconds });
  if (result.ok !== true) throw new Error(`create failed: ${JSON.stringify(result)}`);
  return result.id;
}
