/**
 * Mounts what the loaded plugins contribute to the web (docs/architecture.md "Plugins"): each
 * plugin's session routes below `/api/sessions/:id`, behind the same guards as the host's own
 * routes, and the client configuration the page reads (`GET /api/client-config`). One loop over
 * `Plugin.web`; the host knows no plugin by name.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { enabledPanels, type RouteContext, type WebHost } from "@chime/contract";
import { HostError } from "../errors.ts";
import { readJsonObject, sessionIdParam } from "../http/_http.ts";
import type { HostRuntime } from "../sessions/runtime.ts";

/**
 * What the host lends plugin routes: its store, the watermark as the durable bound of a live
 * session, resume and the agent of a live session.
 *
 * @param runtime the host runtime
 * @returns the {@linkcode WebHost} of `@chime/agent`
 */
export function webHost(runtime: HostRuntime): WebHost {
  return {
    store: runtime.store,
    durableLength: (session) => Math.min(runtime.watermark.get(session), session.length),
    resume: (id) => runtime.resume(id),
    agentFor: (session) => runtime.agentFor(session),
  };
}

/** Answer of `GET /api/client-config`. */
export interface ClientConfig {
  /** The client renderer modules the configuration enables. */
  readonly renderers: readonly string[];
  /** The page panels of loaded plugins whose renderer module is enabled. */
  readonly panels: readonly string[];
}

/**
 * The client configuration: the enabled renderers, and the panels of loaded plugins whose
 * renderer is among them (a panel needs both its plugin's routes and its renderer's code).
 *
 * @param runtime the host runtime
 * @returns `{ renderers, panels }`
 */
export function clientConfig(runtime: HostRuntime): ClientConfig {
  return {
    renderers: runtime.renderers,
    panels: enabledPanels(runtime.plugins, runtime.renderers),
  };
}

function routeContext(c: Context, host: WebHost): RouteContext {
  return {
    host,
    sessionId: sessionIdParam(c),
    param: (name) => c.req.param(name) ?? "",
    json: () => readJsonObject(c),
  };
}

/**
 * The plugins' session routes as one sub-app, mounted at `/api/sessions` after the host's own
 * routes (which therefore win a clash). A malformed `:id` answers `400 invalid_session_id`
 * before the plugin runs.
 *
 * @param runtime the host runtime (its plugins are loaded)
 * @returns a Hono app
 * @throws {TypeError} for a route path that does not start with `/`
 */
export function pluginRoutes(runtime: HostRuntime): Hono {
  const app = new Hono();
  const host = webHost(runtime);
  for (const plugin of runtime.plugins) {
    for (const route of plugin.web?.routes ?? []) {
      if (!route.path.startsWith("/")) {
        throw new TypeError(`Cannot mount ${plugin.name}: route path "${route.path}" lacks "/"`);
      }
      app.on(
        route.method,
        `/:id${route.path}`,
        async (c) => {
          const context = routeContext(c, host);
          // A deleted session is gone for its plugins' routes too (README.md "The page").
          if (await runtime.isDeleted(context.sessionId)) {
            throw new HostError(
              "session_not_found",
              `Cannot route: session ${context.sessionId} was deleted`,
            );
          }
          return route.handle(c.req.raw, context);
        },
      );
    }
  }
  return app;
}
