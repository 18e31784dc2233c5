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
import {
  type ApiRoute,
  enabledPanels,
  type RouteContext,
  type SessionRoute,
  type WebHost,
} from "@chime/contract";
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
    title: (id) => runtime.titles.title(id, runtime.store.live(id)?.header.seedLength ?? 0),
    sessionTitle: (header) => runtime.titles.title(header.id, header.seedLength ?? 0),
    links: runtime.links,
    sharedStorage: runtime.leases !== undefined,
    deleted: (id) => runtime.isDeleted(id),
  };
}

/** Answer of `GET /api/client-config`. */
export interface ClientConfig {
  /** The client renderer modules the configuration enables. */
  readonly renderers: readonly string[];
  /** The page panels of loaded plugins whose renderer module is enabled. */
  readonly panels: readonly string[];
  /** The host serves the page alert stream (`GET /api/alerts`). */
  readonly alerts: true;
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
    alerts: true,
  };
}

function routeContext(c: Context, host: WebHost): RouteContext {
  return {
    host,
    sessionId: sessionIdParam(c),
    url: c.req.url,
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

/** Paths a plugin route may not take below `/api` (the host's own). */
const HOST_API = /^\/(sessions|client-config)(\/|$)/;

/**
 * The plugins' routes across sessions as one sub-app, mounted at `/api` after the host's own
 * routes. A path below `/sessions` or `/client-config` is refused at mount time.
 *
 * @param runtime the host runtime (its plugins are loaded)
 * @returns a Hono app
 * @throws {TypeError} for a path that lacks `/` or takes a host path
 */
export function pluginApiRoutes(runtime: HostRuntime): Hono {
  const app = new Hono();
  const host = webHost(runtime);
  for (const plugin of runtime.plugins) {
    for (const route of plugin.web?.apiRoutes ?? []) {
      if (!route.path.startsWith("/") || HOST_API.test(route.path)) {
        throw new TypeError(`Cannot mount ${plugin.name}: api route path "${route.path}"`);
      }
      app.on(
        route.method,
        route.path,
        (c) => route.handle(c.req.raw, { host, url: c.req.url, json: () => readJsonObject(c) }),
      );
    }
    // Host start: the plugin warms what its routes read, in the background.
    plugin.web?.warm?.(host);
  }
  return app;
}

/** A route pattern (`/:id/reminders.ics`) as an anchored expression of its concrete paths. */
function pattern(path: string): RegExp {
  const escaped = path.split("/").map((part) =>
    part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  );
  return new RegExp(`^${escaped.join("/")}$`);
}

/**
 * The `GET` paths the token guard lets through to a plugin route with `access: "link"` (the
 * route itself checks the link key, `WebHost.links`).
 *
 * @param runtime the host runtime (its plugins are loaded)
 * @returns a predicate on a request's method and path
 */
export function linkPaths(runtime: HostRuntime): (method: string, path: string) => boolean {
  const link = (route: SessionRoute | ApiRoute) =>
    route.access === "link" && route.method === "GET";
  const patterns = runtime.plugins.flatMap(({ web }) => [
    ...(web?.routes ?? []).filter(link).map((r) => pattern(`/api/sessions/:id${r.path}`)),
    ...(web?.apiRoutes ?? []).filter(link).map((r) => pattern(`/api${r.path}`)),
  ]);
  return (method, path) =>
    (method === "GET" || method === "HEAD") && patterns.some((p) => p.test(path));
}
