/**
 * A `deno run -A` child process that prints JSON lines on stdout: the lines are parsed and
 * collected as they arrive, {@linkcode JsonLineChild.waitFor} waits for a condition on them with
 * a deadline, and disposal kills the process (SIGKILL) and drains its pipes so `--trace-leaks`
 * stays clean. Shared by the restart lanes, the session restart test and the owner benchmark.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** Options of {@linkcode JsonLineChild}. */
export interface JsonLineChildOptions {
  /** Working directory of the child. @default the parent's */
  readonly cwd?: string;
  /** Extra environment variables (added to the inherited environment). */
  readonly env?: Readonly<Record<string, string>>;
  /** Extra `deno run` flags placed before the script, e.g. `["--config", path]`. */
  readonly flags?: readonly string[];
}

/** How many characters of stderr an error message quotes. */
const STDERR_TAIL = 2_000;
/** How many of the last parsed lines a timeout message quotes. */
const LINES_TAIL = 5;

/**
 * A running `deno run -A <script> ...args` child whose stdout is read as JSON lines.
 *
 * Every complete stdout line that parses as JSON is appended to {@linkcode JsonLineChild.lines};
 * other lines, and an unterminated last line, are ignored. Stderr is collected as text.
 *
 * @typeParam T the shape of one parsed line (not validated)
 * @example Wait for a child's first "ready" line (illustrative: `child.ts` is yours)
 * ```ts ignore
 * await using child = new JsonLineChild<{ ready?: boolean }>("child.ts", ["--fast"]);
 * await child.waitFor((lines) => lines.some((l) => l.ready), "ready", 10_000);
 * ```
 */
export class JsonLineChild<T = unknown> implements AsyncDisposable {
  /** The parsed stdout lines so far, in order. */
  readonly lines: T[] = [];
  /** Wall-clock time (`Date.now()`) taken just before the spawn. */
  readonly spawnedAt: number = Date.now();
  /** The child's exit status; resolves once it has exited. */
  readonly exited: Promise<Deno.CommandStatus>;
  readonly #script: string;
  readonly #child: Deno.ChildProcess;
  readonly #stdout: Promise<void>;
  readonly #stderrDone: Promise<void>;
  #stderr = "";
  #stdoutEnded = false;
  #hasExited = false;
  #waiters: (() => void)[] = [];

  /**
   * Spawns the child with stdin closed and stdout/stderr piped.
   *
   * @param script the module to run: a path, or a URL (`file:` URLs become paths)
   * @param args the script's arguments
   * @param options working directory, extra environment and extra `deno run` flags
   */
  constructor(
    script: string | URL,
    args: readonly string[] = [],
    options: JsonLineChildOptions = {},
  ) {
    this.#script = script instanceof URL && script.protocol === "file:"
      ? fileURLToPath(script)
      : String(script);
    this.#child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", ...(options.flags ?? []), this.#script, ...args],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.exited = this.#child.status.then((status) => {
      this.#hasExited = true;
      return status;
    });
    this.#stdout = this.#readStdout();
    this.#stderrDone = this.#readStderr();
  }

  /** Everything the child printed on stderr so far. */
  get stderr(): string {
    return this.#stderr;
  }

  async #readStdout(): Promise<void> {
    let buffer = "";
    for await (const chunk of this.#child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const text = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (text === "") continue;
        try {
          this.lines.push(JSON.parse(text) as T);
        } catch {
          continue; // not a JSON line
        }
        this.#wake();
      }
    }
    this.#stdoutEnded = true;
    this.#wake();
  }

  async #readStderr(): Promise<void> {
    for await (const chunk of this.#child.stderr.pipeThrough(new TextDecoderStream())) {
      this.#stderr += chunk;
    }
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /**
   * Waits until `predicate` holds for the lines so far. It is checked now and after each new
   * line (no polling).
   *
   * @param predicate the condition on all lines so far
   * @param what what is awaited, for the error message
   * @param timeoutMs the deadline from now
   * @throws {Error} when the child's stdout ends (it exited) first, or on the deadline; the
   *   message names `what` and quotes the tail of the child's stderr
   */
  async waitFor(
    predicate: (lines: T[]) => boolean,
    what: string,
    timeoutMs = 30_000,
  ): Promise<void> {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.#wake();
    }, timeoutMs);
    try {
      while (!predicate(this.lines)) {
        if (this.#stdoutEnded) {
          const { code, signal } = await this.exited;
          await this.#stderrDone;
          throw this.#error(`exited (${signal ?? `code ${code}`}) before ${what}`);
        }
        if (timedOut) throw this.#error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        const { promise, resolve } = Promise.withResolvers<void>();
        this.#waiters.push(resolve);
        await promise;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  #error(message: string): Error {
    const last = this.lines.slice(-LINES_TAIL).map((line) => JSON.stringify(line));
    const stderr = this.#stderr.length > STDERR_TAIL
      ? `…${this.#stderr.slice(-STDERR_TAIL)}`
      : this.#stderr;
    return new Error(
      `${this.#script} ${message}\n` +
        `${this.lines.length} lines, last ${last.length}:\n${last.join("\n")}\n` +
        `stderr tail:\n${stderr || "(empty)"}`,
    );
  }

  /**
   * Sends `signal` unless the child has already exited, then waits for the exit and for both
   * pipes to be read to the end.
   *
   * @param signal the signal to send
   * @returns the exit status
   */
  async kill(signal: Deno.Signal = "SIGKILL"): Promise<Deno.CommandStatus> {
    if (!this.#hasExited) {
      try {
        this.#child.kill(signal);
      } catch { /* exited meanwhile */ }
    }
    const status = await this.exited;
    await this.#stdout;
    await this.#stderrDone;
    return status;
  }

  /** Kills the child with SIGKILL if it is still running and drains its pipes. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.kill("SIGKILL");
  }
}
