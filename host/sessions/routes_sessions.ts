/**
 * Session routes: create, list (titles, paging), get, resume, fork, history and stream
 * (docs/architecture.md#http); plugins add their own session routes (`plugin_routes.ts`).
 *
 * @module
 */
import { Hono } from "hono";
import { SessionError } from "@chime/session";
import { cwdProblem } from "./_cwd.ts";
import { HostError } from "../errors.ts";
import { attachedHistory, detachedHistory } from "./history.ts";
import type { SessionRow } from "./titles.ts";
import { webHost } from "../plugins/plugin_routes.ts";
import type { Plugin, SessionCounts, WebHost } from "@chime/contract";
import { deleteSession, renameBody, renameSession } from "./admin.ts";
import type { HostRuntime } from "./runtime.ts";
import { type StreamOptions, streamSession } from "../feed/sse.ts";
import {
  intValue,
  readJsonObject,
  readOptionalJsonObject,
  sessionIdParam,
  timeZoneField,
} from "../http/_http.ts";

function notFound(id: string): SessionError {
  return new SessionError("session_not_found", `Cannot find session: no session ${id}`);
}

/** The optional `cwd` of a new session, checked by the rule of `_cwd.ts`. */
function cwdField(body: Record<string, unknown>): string | undefined {
  const cwd = body.cwd;
  if (cwd === undefined) return undefined;
  const problem = cwdProblem(cwd);
  if (problem === undefined) return cwd as string;
  throw new HostError(
    "invalid_request",
    `Cannot create session: cwd must be an absolute path (${problem})`,
    { field: "cwd" },
  );
}

/**
 * The rows with what the plugins count there (`PluginWeb.sessionCounts`), summed; a row no
 * plugin counts anything of stays as it was, and a failing count is left out (the list still
 * answers).
 */
function withCounts(
  host: WebHost,
  plugins: readonly Plugin[],
  rows: readonly SessionRow[],
): Promise<SessionRow[]> {
  const counters = plugins.flatMap((p) => {
    const count = p.web?.sessionCounts;
    return count === undefined ? [] : [count.bind(p.web)];
  });
  if (counters.length === 0) return Promise.resolve([...rows]);
  return Promise.all(rows.map(async (row) => {
    const found = await Promise.all(
      counters.map((count) => count(host, row.header.id).catch(() => undefined)),
    );
    const counts = found.filter((c): c is SessionCounts => c !== undefined);
    if (counts.length === 0) return row;
    return {
      ...row,
      counts: {
        pending: counts.reduce((n, c) => n + c.pending, 0),
        late: counts.reduce((n, c) => n + c.late, 0),
      },
    };
  }));
}

/**
 * The `/api/sessions` sub-app.
 *
 * @param runtime the host runtime
 * @param options stream options
 * @returns a Hono app to mount with `app.route("/api/sessions", …)`
 */
export function sessionRoutes(runtime: HostRuntime, options: StreamOptions = {}): Hono {
  const titles = runtime.titles;
  const host = webHost(runtime);
  return new Hono()
    .post("/", async (c) => {
      const body = await readJsonObject(c);
      const timeZone = timeZoneField(body, "timeZone");
      const cwd = cwdField(body);
      const id = body.id;
      if (id !== undefined && typeof id !== "string") {
        throw new HostError("invalid_session_id", "Cannot create session: id must be a string");
      }
      // A deleted session's id stays taken until the purge: it is never made live again.
      if (id !== undefined && await runtime.exists(id) && await runtime.isDeleted(id)) {
        throw new SessionError("session_exists", `Cannot create session: ${id} was deleted`);
      }
      const { session, created } = await runtime.create({
        timeZone,
        ...(cwd === undefined ? {} : { cwd }),
        ...(id === undefined ? {} : { id }),
      });
      await runtime.store.flush(session); // acknowledged only once the header is stored
      return c.json({ header: session.header, live: true }, created ? 201 : 200);
    })
    .get("/", async (c) => {
      // Newest first; `before` is the id of the last row of the previous page. Without
      // `limit` every session is listed (the original answer, now with titles).
      const limit = intValue(c.req.query("limit"), "limit", 1, 500);
      const before = c.req.query("before");
      // A deleted session is left out (its log is kept until `deno task purge`).
      const all = await runtime.store.list();
      // A log whose deletion mark cannot be read (a damaged line of a JSONL log) is listed: it
      // is not known to be deleted, and opening it answers its own storage_corrupt.
      const gone = await Promise.all(all.map((h) =>
        runtime.isDeleted(h.id).catch((error) => {
          if (error instanceof SessionError && error.code === "storage_corrupt") return false;
          throw error;
        })
      ));
      let headers = all.filter((_, i) => !gone[i]);
      if (before !== undefined) {
        const at = headers.findIndex((h) => h.id === before);
        if (at < 0) {
          throw new HostError("invalid_query", `Cannot list sessions: unknown before ${before}`, {
            field: "before",
          });
        }
        headers = headers.slice(at + 1);
      }
      const page = limit === undefined ? headers : headers.slice(0, limit);
      const more = page.length < headers.length;
      const sessions = await withCounts(host, runtime.plugins, await titles.rows(page));
      return c.json({ sessions, nextBefore: more ? page.at(-1)!.id : null });
    })
    .get("/:id", async (c) => {
      const id = sessionIdParam(c);
      const live = runtime.store.live(id);
      const header = live?.header ?? (await runtime.store.backend.cursor(id))?.header;
      if (header === undefined || await runtime.isDeleted(id)) throw notFound(id);
      return c.json({ header, live: live !== undefined });
    })
    .patch("/:id", async (c) => {
      // Rename (README.md "HTTP API"): `{ title }`, `null` back to the first message's title.
      const id = sessionIdParam(c);
      const title = renameBody(await readJsonObject(c));
      if (!(await runtime.exists(id))) throw notFound(id);
      const seq = await renameSession(runtime, id, title);
      titles.renamed(id, title);
      return c.json({ id, title: await titles.title(id), seq });
    })
    .delete("/:id", async (c) => {
      const id = sessionIdParam(c);
      const seq = await deleteSession(runtime, id);
      return c.json({ id, deleted: true, seq });
    })
    .post("/:id/resume", async (c) => {
      const session = await runtime.resume(sessionIdParam(c));
      return c.json({ header: session.header, live: true });
    })
    .post("/:id/fork", async (c) => {
      const id = sessionIdParam(c);
      if (await runtime.isDeleted(id)) throw notFound(id);
      const body = await readOptionalJsonObject(c);
      const throughSeq = body.throughSeq;
      if (throughSeq !== undefined) {
        if (typeof throughSeq !== "number" || !Number.isSafeInteger(throughSeq)) {
          throw new HostError(
            "invalid_arguments",
            "Cannot fork: throughSeq must be an integer seq",
            { field: "throughSeq" },
          );
        }
        // The parent only grows, so a seq below its length now stays valid.
        const length = runtime.store.live(id)?.length ??
          (await runtime.store.backend.cursor(id))?.length;
        if (length === undefined) throw notFound(id);
        if (throughSeq < 0 || throughSeq >= length) {
          throw new HostError(
            "invalid_seq",
            `Cannot fork: throughSeq ${throughSeq} is not a seq of the parent (0..${length - 1})`,
            { field: "throughSeq", length },
          );
        }
      }
      const child = await runtime.fork(id, throughSeq);
      return c.json({ header: child.header, live: true }, 201);
    })
    .get("/:id/history", async (c) => {
      const id = sessionIdParam(c);
      if (await runtime.isDeleted(id)) throw notFound(id);
      const before = intValue(c.req.query("before"), "before", 0, Number.MAX_SAFE_INTEGER);
      const limit = intValue(c.req.query("limit"), "limit", 1, 500);
      const query = {
        ...(before === undefined ? {} : { before }),
        ...(limit === undefined ? {} : { limit }),
      };
      const live = runtime.store.live(id);
      const page = live !== undefined
        ? await attachedHistory(runtime.store, runtime.views, live, query)
        : await detachedHistory(runtime.store, runtime.views, id, query);
      if (page === undefined) throw notFound(id);
      return c.json(page);
    })
    .get("/:id/stream", async (c) => {
      const id = sessionIdParam(c);
      // A read-only observer never activates a session (no overdue delivery, no model turn):
      // the page resumes it first (`POST /resume`).
      const session = runtime.liveSession(id);
      if (session === undefined) {
        if (!(await runtime.exists(id)) || await runtime.isDeleted(id)) throw notFound(id);
        throw new HostError(
          "session_cold",
          `Cannot stream session ${id}: it is cold; POST /api/sessions/${id}/resume first`,
        );
      }
      return streamSession(c, runtime.feeds, session, options);
    });
}
