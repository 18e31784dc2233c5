// Private helpers of the restart lanes: spawn `lane_child.ts`, read its JSON lines, SIGKILL it.
import { fileURLToPath as fromFileUrl } from "node:url";
import type { LaneConfig } from "./lane_child.ts";

const CHILD = fromFileUrl(new URL("./lane_child.ts", import.meta.url));
const ROOT = fromFileUrl(new URL("../../", import.meta.url));

/** One JSON line the child printed. */
export type Line = Record<string, unknown> & { readonly t: number };

/** A running lane process. */
export class LaneProcess implements AsyncDisposable {
  readonly lines: Line[] = [];
  readonly #child: Deno.ChildProcess;
  readonly #reader: Promise<void>;
  readonly #stderr: Promise<string>;
  #waiters: (() => void)[] = [];
  #exited = false;

  constructor(config: LaneConfig) {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CHILD, JSON.stringify(config)],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#reader = this.#read();
    this.#stderr = new Response(this.#child.stderr).text();
  }

  async #read(): Promise<void> {
    let buffer = "";
    for await (const chunk of this.#child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const text = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (text.startsWith("{")) this.lines.push(JSON.parse(text));
        for (const wake of this.#waiters.splice(0)) wake();
      }
    }
    this.#exited = true;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Waits until `predicate` holds for the lines so far. */
  async waitFor(predicate: (lines: Line[]) => boolean, what: string, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.lines)) {
      if (this.#exited) throw new Error(`lane exited before ${what}: ${await this.#stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`timed out waiting for ${what}: ${JSON.stringify(this.lines)}`);
      }
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#waiters.push(resolve);
      const timer = setTimeout(resolve, Math.min(left, 250));
      await promise;
      clearTimeout(timer);
    }
  }

  /** Kills the process with SIGKILL and waits for it. */
  async kill(): Promise<void> {
    if (!this.#exited) {
      try {
        this.#child.kill("SIGKILL");
      } catch { /* already gone */ }
    }
    await this.#child.status;
    await this.#reader;
    await this.#stderr;
  }

  /** Same as {@linkcode LaneProcess.kill}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.kill();
  }
}

/** The schedule/change ops the child printed for `session`. */
export function changes(lines: Line[], session: string): { op: string; at: string }[] {
  return events(lines, session, "schedule/change").map((e) => ({
    op: (e.data as { op: string }).op,
    at: e.at,
  }));
}

/** Printed events of one type for `session`. */
export function events(
  lines: Line[],
  session: string,
  type: string,
): { seq: number; at: string; data: unknown }[] {
  return lines.flatMap((line) => {
    const event = line.event as
      | { type: string; seq: number; at: string; data: unknown }
      | undefined;
    return line.session === session && event?.type === type ? [event] : [];
  });
}

/** The reminder frames (parsed JSON line) the child recorded as `followup` events. */
export function frames(lines: Line[], session: string): Record<string, unknown>[] {
  return events(lines, session, "followup").map((e) =>
    JSON.parse((e.data as { frame: string }).frame.split("\n")[1]!)
  );
}

/** Promise-based sleep for the real-time lanes. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
