/**
 * Fuzz property of every route's body and parameter validation (README "HTTP API"), through
 * `app.request()` against a real in-memory libSQL store: no request is answered with a 5xx,
 * every refusal is a coded JSON error, and nothing invalid is ever accepted.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ScriptedModel } from "@chime/agent";
import { createApp, type HostApp, HostRuntime } from "@chime/host";

/** A runtime on a real in-memory libSQL store with one chatty session and one fork parent. */
export interface RouteTarget extends AsyncDisposable {
  /** The app under test. */
  readonly app: HostApp;
  /** The runtime. */
  readonly runtime: HostRuntime;
  /** A live session with the message `messageId`. */
  readonly sessionId: string;
  /** The id of a message of `sessionId`. */
  readonly messageId: string;
  /** A small live session that only forks read. */
  readonly parentId: string;
}

/** Opens the target of {@linkcode routeProperty}. */
export async function openRouteTarget(): Promise<RouteTarget> {
  const runtime = await HostRuntime.open({
    config: {
      storage: { kind: "libsql", url: ":memory:" },
      model: { kind: "offline", reason: "fuzz" },
      plugins: [],
      renderers: [],
      cwd: "/",
    },
    model: new ScriptedModel(() => ({ text: "ok" })),
    reportError: (error) => {
      throw error;
    },
  });
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "UTC" });
  const sent = (await runtime.agentFor(session)).submit({
    text: "hello",
    source: { kind: "web", clientTimeZone: "UTC" },
  });
  const parent = (await runtime.create({ timeZone: "Asia/Tokyo" })).session;
  parent.append("note", {});
  parent.append("note", {});
  return {
    app,
    runtime,
    sessionId: session.id,
    messageId: sent.data.messageId,
    parentId: parent.id,
    [Symbol.asyncDispose]: () => runtime[Symbol.asyncDispose](),
  };
}

const ROUTES = [
  "create",
  "message",
  "edit",
  "retry",
  "fork",
  "resume",
  "cancel",
  "get",
  "history",
  "stream",
] as const;

const field = (...valid: unknown[]) =>
  fc.oneof(fc.constantFrom(...valid), fc.jsonValue({ maxDepth: 1 }), fc.string());

const jsonBody = fc.record(
  {
    timeZone: field("UTC", "america/new_york", "Asia/Calcutta", "+05:30", "Mars/Olympus", ""),
    clientTimeZone: field("UTC", "Europe/Berlin", "EST5EDT", "-00:00"),
    text: field("hi", "  ", "", "x".repeat(32 * 1024 + 1), "\u0000"),
    cwd: field("/home", "", "x".repeat(1025)),
    id: field("my-session", "../etc", "", "a".repeat(300)),
    throughSeq: field(0, 1, 2, -1, 1.5, 9e15, "1"),
  },
  { requiredKeys: [] },
);

const requestShape = fc.record({
  route: fc.constantFrom(...ROUTES),
  target: fc.oneof(fc.constant<"own">("own"), fc.string({ maxLength: 40 })),
  message: fc.oneof(fc.constant<"own">("own"), fc.string({ maxLength: 140 })),
  contentType: fc.constantFrom<string | undefined>(
    "application/json",
    "application/json; charset=utf-8",
    undefined,
    "text/plain",
    "application/x-www-form-urlencoded",
  ),
  body: fc.oneof(
    jsonBody.map((b) => JSON.stringify(b)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string(),
    fc.constant(undefined),
  ),
  query: fc.record({
    before: fc.oneof(fc.constantFrom("", "0", "1", "-1", "9007199254740993", "1e3"), fc.string()),
    limit: fc.oneof(fc.constantFrom("1", "500", "501", "0"), fc.string()),
    after: fc.oneof(fc.constantFrom("-1", "0", "-2", "x"), fc.string()),
  }, { requiredKeys: [] }),
});

type RequestShape = typeof requestShape extends fc.Arbitrary<infer T> ? T : never;

function isZone(value: unknown): boolean {
  if (typeof value !== "string" || /^[+-]/.test(value)) return false;
  try {
    Temporal.Now.zonedDateTimeISO(value);
    return true;
  } catch {
    return false;
  }
}

function parsed(body: string | undefined): Record<string, unknown> {
  const value = body === undefined || body.trim() === "" ? {} : JSON.parse(body);
  assert.ok(typeof value === "object" && value !== null && !Array.isArray(value));
  return value;
}

function isText(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "" && value.length <= 32 * 1024;
}

/** Checks that an accepted request was valid, route by route. */
function checkAccepted(t: RouteTarget, r: RequestShape, id: string, status: number): void {
  const jsonType = r.contentType?.startsWith("application/json") ?? false;
  const bodyOk = r.body === undefined || r.body === "" || jsonType;
  switch (r.route) {
    case "create": {
      assert.ok(bodyOk && jsonType, "create needs a JSON body");
      const b = parsed(r.body);
      assert.ok(isZone(b.timeZone), `zone ${String(b.timeZone)}`);
      assert.ok(b.cwd === undefined || (typeof b.cwd === "string" && b.cwd.length <= 1024));
      assert.ok([200, 201].includes(status));
      return;
    }
    case "message": {
      const b = parsed(r.body);
      assert.ok(bodyOk && isText(b.text) && isZone(b.clientTimeZone), r.body);
      return;
    }
    case "edit":
      assert.ok(bodyOk && isText(parsed(r.body).text), r.body);
      assert.equal(id, t.sessionId);
      assert.equal(r.message, "own");
      return;
    case "retry":
      assert.equal(id, t.sessionId);
      assert.equal(r.message, "own");
      return;
    case "fork": {
      assert.ok(bodyOk);
      const through = parsed(r.body).throughSeq;
      const length = t.runtime.store.live(id)?.length ?? Infinity;
      assert.ok(
        through === undefined ||
          (Number.isSafeInteger(through) && (through as number) >= 0 &&
            (through as number) < length),
        `throughSeq ${String(through)}`,
      );
      return;
    }
    case "history": {
      const { before, limit } = r.query;
      assert.ok(before === undefined || before === "" || /^\d+$/.test(before), `before ${before}`);
      assert.ok(limit === undefined || (/^\d+$/.test(limit) && +limit >= 1 && +limit <= 500));
      return;
    }
    case "stream":
      assert.ok(
        r.query.after === undefined || r.query.after === "" || /^(-1|\d+)$/.test(r.query.after),
      );
      return;
    case "resume":
    case "cancel":
      assert.ok(bodyOk, `${r.route} accepted a body of type ${r.contentType}`);
      return;
    case "get":
      return;
  }
}

/**
 * Every route, random ids, bodies, types and queries: never a 5xx, refusals are coded JSON,
 * acceptances are valid.
 *
 * @param target the runtime and app (shared by all runs)
 * @returns the property
 */
export function routeProperty(target: RouteTarget): fc.IAsyncPropertyWithHooks<[RequestShape]> {
  return fc.asyncProperty(requestShape, async (r) => {
    const id = r.target === "own"
      ? (r.route === "fork" ? target.parentId : target.sessionId)
      : r.target;
    const base = `/api/sessions/${encodeURIComponent(id)}`;
    const message = encodeURIComponent(r.message === "own" ? target.messageId : r.message);
    const query = new URLSearchParams(
      Object.entries(r.query).filter((e): e is [string, string] => e[1] !== undefined),
    );
    const [method, path]: [string, string] = ({
      create: ["POST", "/api/sessions"],
      message: ["POST", `${base}/messages`],
      edit: ["POST", `${base}/messages/${message}/edit`],
      retry: ["POST", `${base}/messages/${message}/retry`],
      fork: ["POST", `${base}/fork`],
      resume: ["POST", `${base}/resume`],
      cancel: ["POST", `${base}/turns/current/cancel`],
      get: ["GET", base],
      history: ["GET", `${base}/history?${query}`],
      stream: ["GET", `${base}/stream?${query}`],
    } as const satisfies Record<string, [string, string]>)[r.route];
    const post = method === "POST";
    const response = await target.app.request(path, {
      method,
      headers: r.contentType === undefined || !post ? {} : { "content-type": r.contentType },
      ...(post && r.body !== undefined ? { body: r.body } : {}),
    });
    assert.ok(response.status < 500, `${method} ${path} → ${response.status}`);
    if (r.route === "stream" && response.ok) {
      await response.body?.cancel();
    } else if (response.ok) {
      await response.body?.cancel();
      checkAccepted(target, r, id, response.status);
    } else {
      const error = (await response.json()).error;
      assert.ok(typeof error?.code === "string" && typeof error.message === "string");
    }
  });
}
