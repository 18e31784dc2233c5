/**
 * chime: a Deno-native chat-agent host whose agents set durable, session-local reminders.
 * This root module re-exports the public API of every workspace member:
 * `@chime/migrations`, `@chime/session`, `@chime/agent`, `@chime/timecontext`,
 * `@chime/schedule`, `@chime/offline`, `@chime/host` and `@chime/ui`.
 *
 * @example Start the web-schedule example in-process
 * ```ts ignore
 * import { loadConfig, startServer } from "@chime/host";
 * const config = await loadConfig("examples/web-schedule/chime.jsonc", { env: {} });
 * await using server = await startServer({ config, port: 0 });
 * console.log(server.url);
 * ```
 *
 * @module
 */
export * from "@chime/migrations";
export * from "@chime/session";
export * from "@chime/agent";
export * from "@chime/timecontext";
export * from "@chime/schedule";
export * from "@chime/offline";
export * from "@chime/host";
/** The browser island (wire types mirror the server ones, so they live in their own namespace). */
export * as ui from "@chime/ui";

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type {
  ApiRoute,
  ApiRouteContext,
  EndingSession,
  LinkKeys,
  RouteAccess,
  SessionCounts,
} from "@chime/contract";
