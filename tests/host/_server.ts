/**
 * Starts the real host as a child process on a random port: from source (`deno run -A
 * host/main.ts`, like `deno task dev`) or from a built module (`deno task build`).
 *
 * @module
 */
import { childEnv } from "../_env.ts";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SseMessage } from "./_helpers.ts";

/** The repository root. */
export const ROOT: string = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A running server process. */
export interface ServerProcess extends AsyncDisposable {
  /** Base URL without the trailing slash. */
  readonly url: string;
  /** The server's process id. */
  readonly pid: number;
  /** Everything printed so far. */
  output(): string;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: Deno.Signal): Promise<number>;
}

/** Options of {@linkcode spawnServer}. */
export interface SpawnOptions {
  /** The module `deno run` starts. @default "host/main.ts" (the source form) */
  readonly entry?: string;
  /** Working directory of the process. @default the repository root */
  readonly cwd?: string;
  /** `deno run` flags before the module (e.g. `--cached-only`). @default none */
  readonly flags?: readonly string[];
  /** Extra command-line arguments (e.g. `--host 0.0.0.0`). @default none */
  readonly args?: readonly string[];
  /** Extra environment variables (e.g. `CHIME_TOKEN`). @default none */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Spawns the host with the given config and data directory, without any model keys.
 *
 * @param dataDir the `--data-dir`
 * @param config the `--config` path (relative to `options.cwd`)
 * @param options the entry module and working directory
 * @returns the running process, once it printed its listen line
 */
export async function spawnServer(
  dataDir: string,
  config = "examples/web-schedule/chime.jsonc",
  options: SpawnOptions = {},
): Promise<ServerProcess> {
  const entry = options.entry ?? "host/main.ts";
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...(options.flags ?? []),
      entry,
      "--config",
      config,
      "--port",
      "0",
      "--data-dir",
      dataDir,
      ...(options.args ?? []),
    ],
    cwd: options.cwd ?? ROOT,
    clearEnv: true,
    env: childEnv(options.env),
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const listening = Promise.withResolvers<string>();
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      text += decoder.decode(chunk, { stream: true });
      const match = text.match(/listening on (http:\/\/\S+?)\/?\n/);
      if (match) listening.resolve(match[1]!);
    }
  };
  const drained = Promise.all([pump(child.stdout), pump(child.stderr)]);
  const status = child.status;
  // An early exit is reported with everything the child printed (its pipes drained first),
  // never masked by a failed kill of a process that is already gone.
  const exited = status.then(async (s) => {
    await drained;
    return s;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), 60_000);
  });
  const first = await Promise.race([listening.promise, exited, timeout]);
  clearTimeout(timer);
  if (typeof first !== "string" || first === "timeout") {
    try {
      child.kill("SIGKILL");
    } catch { /* it exited on its own */ }
    const { code } = await exited;
    throw new Error(
      first === "timeout"
        ? `no listen line within 60 s; output:\n${text}`
        : `server exited (${code}) before listening; output:\n${text}`,
    );
  }
  const url = first;
  let stopped: Promise<number> | undefined;
  const stop = (signal: Deno.Signal = "SIGTERM") => {
    stopped ??= (async () => {
      try {
        child.kill(signal);
      } catch { /* already exited */ }
      const { code } = await status;
      await drained;
      return code;
    })();
    return stopped;
  };
  return {
    url,
    pid: child.pid,
    output: () => text,
    stop,
    [Symbol.asyncDispose]: async () => void await stop("SIGKILL"),
  };
}

/** An event envelope as it arrives over SSE or history. */
export interface WireEvent {
  /** Position in the log. */
  readonly seq: number;
  /** Event type. */
  readonly type: string;
  /** Event data. */
  readonly data: Record<string, unknown>;
}

/** Whether an SSE message is a raw `session-event` (no view). */
export const raw = (m: SseMessage): boolean =>
  m.event === "session-event" && m.data.view === undefined;

/** The event envelope of a `session-event` message. */
export const eventOf = (m: SseMessage): WireEvent => m.data.event as WireEvent;

/** `POST`s JSON and asserts a 2xx answer. */
export async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  assert.ok(response.ok, JSON.stringify(json));
  return json;
}
