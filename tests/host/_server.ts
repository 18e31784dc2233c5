/**
 * Starts the real host as a child process (`deno run host/main.ts`) on a random port.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

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

/** Spawns `host/main.ts` with the given config and data directory, without any model keys. */
export async function spawnServer(
  dataDir: string,
  config = "examples/web-schedule/chime.jsonc",
): Promise<ServerProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "host/main.ts", "--config", config, "--port", "0", "--data-dir", dataDir],
    cwd: ROOT,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/root",
      NO_COLOR: "1",
      ...(Deno.env.get("DENO_DIR") === undefined ? {} : { DENO_DIR: Deno.env.get("DENO_DIR")! }),
    },
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
  const status = child.status.then((s) => {
    listening.reject(new Error(`server exited (${s.code}) before listening:\n${text}`));
    return s;
  });
  const timer = setTimeout(() => listening.reject(new Error(`no listen line:\n${text}`)), 60_000);
  let url: string;
  try {
    url = await listening.promise;
  } catch (error) {
    child.kill("SIGKILL");
    await status;
    await drained;
    throw error;
  } finally {
    clearTimeout(timer);
  }
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
