/**
 * {@linkcode startServer}: config → runtime → app → `Deno.serve`, with a clean shutdown.
 * Used by `main.ts`, tests and benches.
 *
 * @module
 */
import { FrontThread } from "./http/_front_thread.ts";
import { makeSocketDir } from "./http/_socket_dir.ts";
import { type AppOptions, createApp, type HostApp } from "./http/app.ts";
import { defaultAssets } from "./http/assets.ts";
import type { HostConfig } from "./config/config.ts";
import { ConfigError } from "./errors.ts";
import { logLifecycle, logStorageLoss } from "./log.ts";
import { HostRuntime, type RuntimeOptions } from "./sessions/runtime.ts";
import { isLoopbackName } from "./http/security.ts";
import { join } from "node:path";
import { SignIns } from "./auth/sign_ins.ts";

/**
 * The name the printed sign-in URL uses on a loopback or wildcard bind. Chromium, Firefox and
 * curl resolve every `*.localhost` name to loopback themselves (RFC 6761 §6.3), and a cookie set
 * for it is host-only and, with SameSite=Strict, never sent with requests that pages on
 * `127.0.0.1` or `localhost` make (another site; README "Security").
 */
export const SIGN_IN_HOST = "chime.localhost";

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

/**
 * Refuses a non-loopback bind without a token (README "Security").
 *
 * @throws {ConfigError} `config_invalid`, one line naming both ways to set one
 */
function checkExposure(hostname: string, token: string | undefined): void {
  if (token !== undefined || isLoopbackName(hostname)) return;
  throw new ConfigError(
    "config_invalid",
    `Cannot start: binding ${hostname} (not loopback) needs an access token; set CHIME_TOKEN ` +
      `or "token" in chime.jsonc (16+ characters, e.g. \`openssl rand -hex 24\`)`,
  );
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
   * With a token: the sign-in URL (`/?token=…`; it sets the cookie and redirects to
   * `/` without the token), as Jupyter prints it. A bind on `127.0.0.0/8` or a wildcard uses
   * {@linkcode SIGN_IN_HOST} (`http://chime.localhost:PORT/?token=…`); another bind its own
   * address.
   */
  readonly signInUrl?: string;
  /**
   * With a token: the login form on the bound address (`127.0.0.1` for a wildcard bind), for a
   * browser that does not resolve {@linkcode SIGN_IN_HOST}.
   */
  readonly loginUrl?: string;
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
 * @throws {ConfigError} unknown plugin or renderer; `port_in_use` when the address is taken
 * @throws {SessionError} `schema_rejected` for a foreign database
 *
 * @example Serve on a free loopback port
 * ```ts ignore
 * import { loadConfig } from "@chime/host";
 * import { startServer } from "@chime/host";
 * const config = await loadConfig("examples/web-schedule/chime.jsonc");
 * await using server = await startServer({ config, port: 0 });
 * console.log(server.url);
 * ```
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const hostname = options.hostname ?? config.hostname;
  checkExposure(hostname, config.token);
  const runtime = await HostRuntime.open({
    idleReleaseMs: config.idleReleaseMinutes * 60_000,
    config,
    ...pick(options, [
      "backend",
      "model",
      "plugins",
      "views",
      "clock",
      "feedLimits",
      "reportError",
      "telemetry",
    ]),
  });
  const lifecycle = logLifecycle(runtime.store);
  const storageLoss = logStorageLoss(runtime.store.backend);
  const idleMs = config.timeouts.idleSeconds * 1000;
  // The app is built once the public port is known (it names the sign-in cookie).
  const app = Promise.withResolvers<HostApp>();
  const handler = async (request: Request) => (await app.promise).fetch(request);
  let front: FrontThread | undefined;
  let server: Deno.HttpServer<Deno.NetAddr> | Deno.HttpServer<Deno.UnixAddr> | undefined;
  let addr: Deno.NetAddr;
  /** The private folder of the HTTP server's socket behind the front (removed at shutdown). */
  let socketDir: string | undefined;
  try {
    const port = options.port ?? config.port;
    if (idleMs > 0) {
      // With an idle timeout the HTTP server listens on a Unix socket in a private folder,
      // behind the front on its own thread (`http/_front_thread.ts`): a relayed chunk costs
      // the main thread one socket write, with no trip through the TCP stack, and no other
      // process can reach the server around the front.
      const socket = await makeSocketDir();
      socketDir = socket.dir;
      const path = socket.path;
      const listening = Promise.withResolvers<void>();
      server = Deno.serve({ path, onListen: () => listening.resolve() }, handler);
      await listening.promise;
      front = await FrontThread.listen({ hostname, port, idleTimeoutMs: idleMs, upstream: path });
      addr = front.addr;
    } else {
      const listening = Promise.withResolvers<Deno.NetAddr>();
      server = Deno.serve({ hostname, port, onListen: (a) => listening.resolve(a) }, handler);
      addr = await listening.promise;
    }
  } catch (error) {
    await server?.shutdown();
    if (socketDir !== undefined) await Deno.remove(socketDir, { recursive: true }).catch(() => {});
    await runtime[Symbol.asyncDispose]();
    lifecycle[Symbol.dispose]();
    storageLoss[Symbol.dispose]();
    throw listenFailure(error, hostname, options.port ?? config.port);
  }
  const http = server;
  // Sign-ins are kept per port, as their cookie is named (`chime_auth_<port>`).
  const signIns = config.token === undefined ? undefined : await SignIns.open({
    token: config.token,
    ...(config.dataDir === undefined
      ? {}
      : { path: join(config.dataDir, `sign-ins-${addr.port}.json`) }),
    maxAgeMs: config.signIn.maxAgeDays * 86_400_000,
    maxSignIns: config.signIn.maxSignIns,
  });
  app.resolve(createApp(runtime, {
    assets: options.assets ?? defaultAssets(config.renderers),
    boundHostname: hostname,
    allowedHosts: config.allowedHosts,
    bodyTimeoutMs: config.timeouts.bodySeconds * 1000,
    cookieName: `chime_auth_${addr.port}`,
    ...(config.token === undefined ? {} : { token: config.token }),
    ...(signIns === undefined ? {} : { signIns }),
    ...pick(options, ["heartbeatMs", "bodyLimitBytes", "reportError"]),
  }));
  let stopping: Promise<void> | undefined;
  const shutdown = () => {
    stopping ??= (async () => {
      front?.stopListening();
      // Streams first: a graceful shutdown waits for every open response.
      runtime.feeds.closeAll();
      const closed = http.shutdown();
      await runtime[Symbol.asyncDispose]();
      lifecycle[Symbol.dispose]();
      storageLoss[Symbol.dispose]();
      await front?.close();
      await closed;
      if (socketDir !== undefined) {
        await Deno.remove(socketDir, { recursive: true }).catch(() => {});
      }
    })();
    return stopping;
  };
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  const url = `http://${host}:${addr.port}/`;
  // Shared mode: the leases name where this host serves (docs/deploy.md, `advertisedUrl`).
  if (runtime.leases !== undefined && runtime.leases.table.url === "") {
    runtime.leases.table.url = config.advertisedUrl ?? url;
  }
  const wildcard = addr.hostname === "0.0.0.0" || addr.hostname === "::";
  const own = wildcard ? `http://127.0.0.1:${addr.port}/` : url;
  // `*.localhost` resolves to 127.0.0.1 (and ::1): usable when the bind covers 127.0.0.1.
  const named = wildcard || /^127\./.test(addr.hostname);
  const signIn = named ? `http://${SIGN_IN_HOST}:${addr.port}/` : own;
  return {
    url,
    port: addr.port,
    hostname: addr.hostname,
    runtime,
    ...(config.token === undefined ? {} : {
      signInUrl: `${signIn}?token=${encodeURIComponent(config.token)}`,
      loginUrl: `${own}login`,
    }),
    shutdown,
    [Symbol.asyncDispose]: shutdown,
  };
}

/**
 * A bind failure as a startup error naming the address (docs/errors.md#startup-codes): a port
 * another process holds is `port_in_use`; anything else is rethrown as it is.
 */
function listenFailure(error: unknown, hostname: string, port: number): unknown {
  if (!(error instanceof Deno.errors.AddrInUse)) return error;
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return new ConfigError(
    "port_in_use",
    `Cannot start: ${host}:${port} is already in use by another process; stop it, or pick ` +
      'another port with --port, CHIME_PORT or "port" in chime.jsonc',
    { cause: error },
  );
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
