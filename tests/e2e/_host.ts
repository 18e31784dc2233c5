/**
 * The real host as a child process: `deno run -A host/main.ts --config
 * examples/web-schedule/chime.jsonc --port N --data-dir DIR`, with the parent environment minus model keys (no model
 * key ⇒ the keyless offline model unless `env` names an endpoint or `config` says otherwise).
 * Ready once `/healthz` answers.
 *
 * @module
 */
import { childEnv } from "../_env.ts";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT: string = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Options of {@linkcode startHost}. */
export interface HostOptions {
  /** Data directory (the libSQL file lives in it). */
  readonly dataDir: string;
  /** TCP port; reuse it across restarts so an open page reconnects by itself. */
  readonly port: number;
  /** Extra environment (e.g. `CHIME_MODEL_BASE_URL`, `CHIME_MODEL_API_KEY`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Config file (absolute or relative to the repository root). @default the web-schedule example */
  readonly config?: string;
}

/**
 * Writes an overlay of the web-schedule example with `model: { kind: "none" }` (a deliberately
 * missing model adapter) into `dir`.
 *
 * @param dir a directory the test owns
 * @returns the overlay's path
 */
export async function writeNoModelConfig(dir: string): Promise<string> {
  const path = join(dir, "no-model.jsonc");
  const base = join(ROOT, "examples", "web-schedule", "chime.jsonc");
  await Deno.writeTextFile(
    path,
    JSON.stringify({ extends: base, model: { kind: "none" } }, null, 2),
  );
  return path;
}

/** A running host process. */
export interface HostProcess extends AsyncDisposable {
  /** Base URL without a trailing slash. */
  readonly url: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Sends a signal (default `SIGKILL`) and waits until the process is gone. */
  kill(signal?: Deno.Signal): Promise<void>;
}

/** A free loopback TCP port. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Starts the host and waits until `GET /healthz` answers `{ ok: true }`.
 *
 * @param options data directory, port, extra env
 * @returns the process handle
 * @throws {Error} when the process exits or is not healthy within 60 s
 */
export async function startHost(options: HostOptions): Promise<HostProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "host/main.ts",
      "--config",
      options.config ?? "examples/web-schedule/chime.jsonc",
      "--port",
      String(options.port),
      "--data-dir",
      options.dataDir,
    ],
    cwd: ROOT,
    clearEnv: true,
    env: childEnv(options.env),
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([pump(child.stdout), pump(child.stderr)]);
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const url = `http://127.0.0.1:${options.port}`;
  let gone: Promise<void> | undefined;
  const kill = (signal: Deno.Signal = "SIGKILL") => {
    gone ??= (async () => {
      if (!exited) {
        try {
          child.kill(signal);
        } catch { /* exited meanwhile */ }
      }
      await status;
      await drained;
    })();
    return gone;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      const { code } = await status;
      await drained;
      throw new Error(`host exited (${code}) before it was healthy; output:\n${text}`);
    }
    const ok = await fetch(`${url}/healthz`).then(
      async (r) => r.ok && (await r.json() as { ok?: unknown }).ok === true,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`host not healthy within 60 s:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    output: () => text,
    kill,
    [Symbol.asyncDispose]: () => kill(),
  };
}
