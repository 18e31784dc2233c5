/**
 * The chime server: `deno task dev` runs
 * `deno run -A host/main.ts --config examples/web-schedule/chime.jsonc`.
 *
 * Flags: `--config PATH` (default: `config/default.jsonc` beside the sources, or built-in
 * defaults with data next to a compiled binary or a built module), `--port N`, `--host NAME` (binds loopback
 * unless told otherwise; a non-loopback name needs `CHIME_TOKEN`, and the sign-in URL is
 * printed), `--data-dir DIR`, `--check-storage` (scan the configured store with the storage
 * doctor, print its damage and exit: 0 clean, 1 damage found, 2 cannot scan), `--log-level LEVEL`
 * (`trace`, `debug`, `info`, `warning`, `error`, `fatal`; default `CHIME_LOG_LEVEL`, else `info`):
 * one text line per request, session lifecycle, owner faults and storage errors go to the
 * console through `@logtape/logtape` (host/log.ts). SIGINT and SIGTERM
 * shut down cleanly: streams end,
 * agents and their owners are disposed, the store is flushed and closed.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { formatReport, type StorageReport } from "@chime/session";
import { type HostConfig, loadConfig } from "./config/config.ts";
import { ConfigError } from "./errors.ts";
import { pluginLogChecks, storageDriver } from "./registry.ts";
import { configureLogging, logUnexpected, parseLogLevel } from "./log.ts";
import { startServer } from "./server.ts";
import { telemetryOptions } from "./telemetry.ts";

const BUILT_IN_DEFAULT = `{
  "hostname": "127.0.0.1",
  "port": 8787,
  "dataDir": "data",
  "storage": { "kind": "libsql", "url": "file:chime.db" },
  "model": { "kind": "offline" },
  "plugins": [],
  "renderers": []
}`;

/** The configured store's report, scanned by its driver (`--check-storage`). */
async function checkConfigured(config: HostConfig): Promise<StorageReport> {
  const driver = storageDriver(config.storage.kind);
  if (driver.check === undefined) {
    throw new ConfigError(
      "config_invalid",
      `Cannot check storage: storage.kind "${driver.kind}" has no storage check`,
    );
  }
  const logChecks = pluginLogChecks(config.plugins, config.pluginOptions ?? {});
  return await driver.check(config.storage, { logChecks });
}

async function resolveConfig(
  values: { config?: string; "data-dir"?: string },
): Promise<HostConfig> {
  const env = Deno.env.toObject();
  const dataDir = values["data-dir"];
  const common = { env, ...(dataDir === undefined ? {} : { dataDir }) };
  if (values.config !== undefined) return await loadConfig(values.config, common);
  const here = import.meta.url.startsWith("file:") ? dirname(fileURLToPath(import.meta.url)) : "";
  const source = join(here, "..", "config", "default.jsonc");
  const exists = await Deno.stat(source).then((s) => s.isFile, () => false);
  if (exists) return await loadConfig(source, common);
  // No sources beside us: built-in defaults with data beside the compiled executable, or beside
  // the built module (`deno task build`) when run by `deno run`; never the cwd.
  const beside = Deno.build.standalone ? dirname(Deno.execPath()) : here;
  const virtual = join(beside, "chime.jsonc");
  return await loadConfig(virtual, {
    ...common,
    readTextFile: (path) =>
      path === virtual ? Promise.resolve(BUILT_IN_DEFAULT) : Deno.readTextFile(path),
  });
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new ConfigError("config_invalid", `Cannot start: --port ${value} is not 0..65535`);
  }
  return port;
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      config: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      "data-dir": { type: "string" },
      "check-storage": { type: "boolean" },
      "log-level": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      "usage: chime [--config PATH] [--port N] [--host NAME] [--data-dir DIR] [--check-storage]" +
        " [--log-level LEVEL]",
    );
    return 0;
  }
  const level = parseLogLevel(values["log-level"] ?? Deno.env.get("CHIME_LOG_LEVEL"));
  await using _logging = await configureLogging({ level });
  const config = await resolveConfig(values);
  if (values["check-storage"]) {
    // Scan the configured store and exit: 0 clean, 1 damage found, 2 cannot scan (a running
    // host, no store yet). Nothing is changed.
    const report = await checkConfigured(config).catch((error) => {
      console.error(`chime: ${describe(error)}`);
      return undefined;
    });
    if (report === undefined) return 2;
    for (const line of formatReport(report)) console.log(line);
    return report.damage.length === 0 ? 0 : 1;
  }
  const port = parsePort(values.port);
  // Listening for the signals from before the server starts until its shutdown is over: a
  // repeat (`deno task` forwards Ctrl-C beside the terminal's own) or a signal during startup
  // must not kill the process mid-shutdown (the front's socket folder would be left).
  const stopped = Promise.withResolvers<string>();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  const handlers = signals.map((signal) => {
    const handler = () => stopped.resolve(signal);
    Deno.addSignalListener(signal, handler);
    return () => Deno.removeSignalListener(signal, handler);
  });
  try {
    return await serveUntilStopped(config, port, values.host, stopped.promise);
  } finally {
    for (const remove of handlers) remove();
  }
}

/**
 * Starts the server, prints the banner, and shuts down once `stopped` names a signal.
 *
 * @returns the exit code (0)
 */
async function serveUntilStopped(
  config: HostConfig,
  port: number | undefined,
  host: string | undefined,
  stopped: Promise<string>,
): Promise<number> {
  const server = await startServer({
    config,
    // Failures with no caller (a throwing listener, a failed agent teardown, a storage error in a
    // background flush) are logged: Deno's default `reportError` would end the process, and one
    // bad plugin must not stop the host.
    reportError: logUnexpected(),
    // OpenTelemetry goes out through Deno's exporter under OTEL_DENO (docs/operations.md).
    telemetry: telemetryOptions(Deno.env.toObject()),
    ...(port === undefined ? {} : { port }),
    ...(host === undefined ? {} : { hostname: host }),
  });
  const model = config.model.kind === "offline" || config.model.kind === "none"
    ? `${config.model.kind} (${config.model.reason})`
    : `${config.model.model} at ${config.model.baseURL} (${config.model.reason})`;
  const storage = storageDriver(config.storage.kind).describe(config.storage);
  // One write, so a reader that waits for the listen line sees the whole banner with it.
  const banner = [`chime listening on ${server.url}`];
  if (server.signInUrl !== undefined && otelOn(Deno.env.get("OTEL_DENO"))) {
    // Deno's request span records the full URL, query included, and the app cannot take it
    // back: with OpenTelemetry on, the `/?token=` link is not offered (docs/operations.md).
    banner.push(
      `  access token required; sign in at ${server.loginUrl} (OpenTelemetry is on: the ` +
        "sign-in link is not printed, its token would reach the request's span)",
    );
  } else if (server.signInUrl !== undefined) {
    banner.push(`  access token required; open (sets a cookie): ${server.signInUrl}`);
    const login = server.loginUrl;
    if (login !== undefined && new URL(login).host !== new URL(server.signInUrl).host) {
      banner.push(`  if that name does not open in your browser, sign in at ${login}`);
    }
  }
  banner.push(
    `  storage: ${storage}`,
    `  model: ${model}`,
    `  plugins: ${config.plugins.join(", ") || "(none)"}`,
  );
  // Straight to stdout, not through `console`: under OTEL_DENO Deno exports console output as
  // logs, and the sign-in URL carries the token (docs/operations.md "What is never sent").
  writeAll(Deno.stdout, new TextEncoder().encode(`${banner.join("\n")}\n`));
  const signal = await stopped;
  console.log(`chime: ${signal}, shutting down`);
  await server.shutdown();
  console.log("chime: stopped");
  return 0;
}

/** Deno's own reading of `OTEL_DENO`: `true` or `1` turns its exporter on. */
function otelOn(value: string | undefined): boolean {
  return value === "true" || value === "1";
}

/** Writes every byte (one call may write part of them). */
function writeAll(out: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += out.writeSync(bytes.subarray(done));
}

/**
 * One line for a startup failure: `code: message` for coded errors (config, schema, storage),
 * the message for argument errors, the stack only for an unexpected bug.
 */
function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error) {
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) return error.message;
    if (typeof code === "string") return `${code}: ${error.message}`;
    return error.stack ?? String(error);
  }
  return String(error);
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    console.error(`chime: ${describe(error)}`);
    Deno.exit(1);
  }
}
