/**
 * Shared helpers of the host tests: schedule events, an SSE reader and a hermetic runtime.
 *
 * @module
 */
import type { ModelAdapter, Plugin } from "@chime/agent";
import { ScriptedModel } from "@chime/agent";
import { type FeedLimits, HostRuntime, type ModelSettings } from "@chime/host";
import { scheduleViews, scheduleWeb } from "@chime/schedule";
import type { Clock, Session } from "@chime/session";
import { flushMicrotasks, MemoryBackend } from "@chime/session/testing";

/** A valid schedule id for tests. */
export const SCHEDULE_ID = "sch_AbCdEfGh1234";

/** The `schedule/change` create record used by the tests. */
export const RECORD = {
  id: SCHEDULE_ID,
  kind: "after",
  prompt: "stretch",
  afterSeconds: 10,
  scheduledAt: "2030-01-01T00:00:10.000Z",
} as const;

/** A recurring record's id for tests. */
export const SERIES_ID = "sch_Series123456";

/** A daily 09:00 Shanghai series from 2029-12-30 (its first target, UTC). */
export const SERIES = {
  id: SERIES_ID,
  kind: "recurring",
  prompt: "vitamins",
  rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
  dtstart: "2029-12-30T09:00:00",
  timeZone: "Asia/Shanghai",
  scheduledAt: "2029-12-30T01:00:00.000Z",
} as const;

/** Appends a create and its dispatch; returns the dispatch seq. */
export function appendReminder(session: Session, id: string = SCHEDULE_ID): number {
  session.append("schedule/change", { version: 1, op: "create", record: { ...RECORD, id } });
  return session.append("schedule/change", { version: 1, op: "dispatch", id }).seq;
}

/** The view the host attaches to the dispatch of {@linkcode appendReminder}. */
export function reminderView(id: string = SCHEDULE_ID): unknown {
  return {
    type: "schedule/change",
    presentation: { scheduleId: id, prompt: RECORD.prompt, occurrenceAt: RECORD.scheduledAt },
  };
}

/** One parsed SSE message. */
export interface SseMessage {
  /** `id:` field, if any. */
  readonly id?: string;
  /** `event:` field. @default "message" */
  readonly event: string;
  /** Parsed JSON `data:`. */
  readonly data: Record<string, unknown>;
}

/** Parses SSE text blocks into messages (comments and `retry:` are skipped). */
export function parseSse(text: string): SseMessage[] {
  const out: SseMessage[] = [];
  for (const block of text.split("\n\n")) {
    let id: string | undefined;
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("id: ")) id = line.slice(4);
      else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length > 0) {
      out.push({ ...(id === undefined ? {} : { id }), event, data: JSON.parse(data.join("\n")) });
    }
  }
  return out;
}

/** Reads SSE messages from a response body until `done(messages)` or the timeout. */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  done: (messages: readonly SseMessage[]) => boolean,
  timeoutMs = 10_000,
): Promise<SseMessage[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const messages: SseMessage[] = [];
  const deadline = Date.now() + timeoutMs;
  try {
    while (!done(messages)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`SSE timeout; got ${JSON.stringify(messages).slice(0, 2000)}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("SSE read timeout")), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      const end = buffer.lastIndexOf("\n\n");
      if (end >= 0) {
        messages.push(...parseSse(buffer.slice(0, end + 2)));
        buffer = buffer.slice(end + 2);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return messages;
}

/** Options of {@linkcode testRuntime}. */
export interface TestRuntimeOptions {
  /** The backend. @default a new MemoryBackend */
  readonly backend?: MemoryBackend;
  /** The model. @default a ScriptedModel answering "ok" */
  readonly model?: ModelAdapter;
  /** Build the model from these settings instead (`model` must be unset). */
  readonly modelSettings?: ModelSettings;
  /** Plugins. @default none */
  readonly plugins?: readonly Plugin[];
  /** Stream client queue bounds. */
  readonly feedLimits?: FeedLimits;
  /** Wall clock and timers. @default the system clock */
  readonly clock?: Clock;
  /** Idle release time, ms. @default 0 (never) */
  readonly idleReleaseMs?: number;
  /** Where failures with no caller go. @default globalThis.reportError */
  readonly reportError?: (error: unknown) => void;
}

/** A hermetic runtime: memory backend, scripted model, schedule views, no plugins. */
export async function testRuntime(options: TestRuntimeOptions = {}): Promise<HostRuntime> {
  return await HostRuntime.open({
    config: {
      storage: { kind: "libsql", url: ":memory:" },
      model: options.modelSettings ?? { kind: "offline", reason: "test" },
      plugins: [],
      renderers: [],
      cwd: "/",
    },
    backend: options.backend ?? new MemoryBackend(),
    ...(options.modelSettings !== undefined
      ? {}
      : { model: options.model ?? new ScriptedModel(() => ({ text: "ok" })) }),
    plugins: options.plugins ?? [],
    views: [scheduleViews],
    ...(options.feedLimits === undefined ? {} : { feedLimits: options.feedLimits }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.idleReleaseMs === undefined ? {} : { idleReleaseMs: options.idleReleaseMs }),
    ...(options.reportError === undefined ? {} : { reportError: options.reportError }),
  });
}

/**
 * The schedule plugin's web part alone (routes, views, renderer and panel names; no agent
 * setup, so no live state): `GET /reminders` then folds the log below the watermark.
 */
export function scheduleWebOnly(): Plugin {
  return { name: "@chime/schedule (web only)", setup() {}, web: scheduleWeb() };
}

/** `POST` JSON through `app.request`. */
export function postJson(body: unknown): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

/**
 * Flushes microtasks (50 rounds of {@linkcode flushMicrotasks} at most) until `check` holds.
 *
 * @returns whether it holds
 */
export async function settle(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 50 && !check(); i++) await flushMicrotasks();
  return check();
}
