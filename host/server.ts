/**
 * {@linkcode startServer}: config → runtime → app → `Deno.serve`, with a clean shutdown.
 * Used by `main.ts`, tests and benches.
 *
 * @module
 */
import { type AppOptions, createApp } from "./app.ts";
import { defaultAssets } from "./assets.ts";
import type { HostConfig } from "./config.ts";
import { HostRuntime, type RuntimeOptions } from "./runtime.ts";

/**
 * Options of {@linkcode startServer}: the runtime's overrides (backend, model, plugins, views,
 * clock, feed limits), the app's (heartbeat, body limit, assets; the embedded UI island by
 * default), plus where to listen.
 */
export interface StartServerOptions
  extends Omit<RuntimeOptions, "config">, Omit<AppOptions, "assets"> {
  /** The loaded configuration (see `loadConfig`). */
  readonly config: HostConfig;
  /** Overrides `config.port`; `0` picks a free port. */
  readonly port?: number;
  /** Overrides `config.hostname`. */
  readonly hostname?: string;
  /** Static files. @default the embedded UI island */
  readonly assets?: AppOptions["assets"];
}

/** A running host. Dispose it (or call `shutdown`) to stop cleanly. */
export interface RunningServer extends AsyncDisposable {
  /** Base URL, e.g. `http://127.0.0.1:8787/`. */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** The bound interface. */
  readonly hostname: string;
  /** The runtime (store, loader, agents, feeds). */
  readonly runtime: HostRuntime;
  /**
   * Stops accepting requests, ends streams, disposes agents (owners first), unloads plugins and
   * flushes and closes the store. Idempotent.
   */
  shutdown(): Promise<void>;
}

/**
 * Starts the host.
 *
 * @param options configuration and overrides
 * @returns the running server
 * @throws {ConfigError} unknown plugin or renderer
 * @throws {SessionError} `schema_rejected` for a foreign database
 *
 * @example Serve on a free loopback port
 * ```ts ignore
 * import { loadConfig } from "./config.ts";
 * import { startServer } from "./server.ts";
 * const config = await loadConfig("examples/web-schedule/chime.jsonc");
 * await using server = await startServer({ config, port: 0 });
 * console.log(server.url);
 * ```
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const runtime = await HostRuntime.open({
    config,
    ...pick(options, [
      "backend",
      "model",
      "plugins",
      "views",
      "clock",
      "feedLimits",
      "reportError",
    ]),
  });
  const appOptions: AppOptions = {
    assets: options.assets ?? defaultAssets(),
    ...pick(options, ["heartbeatMs", "bodyLimitBytes", "reportError"]),
  };
  const app = createApp(runtime, appOptions);
  const hostname = options.hostname ?? config.hostname;
  const listening = Promise.withResolvers<Deno.NetAddr>();
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname,
      port: options.port ?? config.port,
      onListen: (addr) => listening.resolve(addr),
    }, app.fetch);
  } catch (error) {
    await runtime[Symbol.asyncDispose]();
    throw error;
  }
  const addr = await listening.promise;
  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      // Streams first: a graceful shutdown waits for every open response.
      runtime.feeds.closeAll();
      const closed = server.shutdown();
      await runtime[Symbol.asyncDispose]();
      await closed;
    })();
    return stopping;
  };
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  return {
    url: `http://${host}:${addr.port}/`,
    port: addr.port,
    hostname: addr.hostname,
    runtime,
    shutdown,
    [Symbol.asyncDispose]: shutdown,
  };
}

function pick<T extends object, K extends keyof T>(
  source: T,
  keys: readonly K[],
): { [P in K]?: NonNullable<T[P]> } {
  const out: { [P in K]?: NonNullable<T[P]> } = {};
  for (const key of keys) {
    if (source[key] !== undefined) out[key] = source[key] as NonNullable<T[K]>;
  }
  return out;
}
