/**
 * {@linkcode startServer}: config → runtime → app → `Deno.serve`, with a clean shutdown.
 * Used by `main.ts`, tests and benches.
 *
 * @module
 */
import type { ModelAdapter, Plugin } from "@chime/agent";
import type { Clock, PersistenceBackend } from "@chime/session";
import { type AppOptions, createApp, type StaticAsset } from "./app.ts";
import { defaultAssets } from "./assets.ts";
import type { HostConfig } from "./config.ts";
import type { FeedLimits } from "./feed.ts";
import { HostRuntime } from "./runtime.ts";
import type { ViewSource } from "./views.ts";

/** Options of {@linkcode startServer}. */
export interface StartServerOptions {
  /** The loaded configuration (see `loadConfig`). */
  readonly config: HostConfig;
  /** Overrides `config.port`; `0` picks a free port. */
  readonly port?: number;
  /** Overrides `config.hostname`. */
  readonly hostname?: string;
  /** A backend instead of `config.storage`. */
  readonly backend?: PersistenceBackend;
  /** A model instead of `config.model`. */
  readonly model?: ModelAdapter;
  /** Plugins instead of the registry's. */
  readonly plugins?: readonly Plugin[];
  /** View sources instead of the registry's. */
  readonly views?: readonly ViewSource[];
  /** Wall clock and timers. @default systemClock */
  readonly clock?: Clock;
  /** Stream client queue bounds. */
  readonly feedLimits?: FeedLimits;
  /** Heartbeat interval, ms. @default 15000 */
  readonly heartbeatMs?: number;
  /** Largest request body, bytes. @default 65536 */
  readonly bodyLimitBytes?: number;
  /** Static files. @default the embedded UI island */
  readonly assets?: Readonly<Record<string, StaticAsset>>;
  /** Where unexpected errors go. @default globalThis.reportError */
  readonly reportError?: (error: unknown) => void;
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
