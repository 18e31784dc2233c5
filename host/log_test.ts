import assert from "node:assert/strict";
import { configure, type LogLevel, type LogRecord, reset } from "@logtape/logtape";
import { Hono } from "hono";
import { SessionStore } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { ConfigError } from "./errors.ts";
import {
  type ChimeLogLevel,
  configureLogging,
  logLifecycle,
  logUnexpected,
  parseLogLevel,
  pluginLogger,
  requestLog,
} from "./log.ts";

/** Captures every `chime` record while `body` runs. */
async function captured(body: () => Promise<void>): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  await configure({
    reset: true,
    sinks: { test: (record) => void records.push(record) },
    loggers: [
      { category: "chime", sinks: ["test"], lowestLevel: "debug" },
      { category: ["logtape", "meta"], sinks: [], lowestLevel: "warning" },
    ],
  });
  try {
    await body();
  } finally {
    await reset();
  }
  return records;
}

const line = (r: LogRecord) => r.message.map(String).join("");

Deno.test("requestLog() logs method, path without query, status and ms; a 5xx with its code", async () => {
  const app = new Hono();
  app.use("*", requestLog());
  app.get("/ok", (c) => c.text("ok"));
  app.get("/boom", () => {
    throw Object.assign(new Error("Cannot save: disk"), { code: "storage_failed" });
  });
  app.onError((_e, c) => c.json({}, 500));
  const records = await captured(async () => {
    await app.request("/ok?token=hunter2");
    await app.request("/boom");
  });
  assert.deepEqual(records.map((r) => [r.category.join("."), r.level]), [
    ["chime.http", "info"],
    ["chime.http", "error"],
  ]);
  assert.match(line(records[0]!), /^GET \/ok 200 \d+ms$/);
  assert.deepEqual(Object.keys(records[0]!.properties), ["method", "path", "status", "ms"]);
  assert.equal(records[1]!.properties.error, "storage_failed");
  assert.ok(records.every((r) => !JSON.stringify(r.properties).includes("hunter2")));
});

Deno.test("logLifecycle() tells created, forked and resumed sessions apart", async () => {
  await using store = new SessionStore({ backend: new MemoryBackend() });
  const records = await captured(async () => {
    using _watch = logLifecycle(store);
    const session = await store.create({ cwd: "/", timeZone: "UTC" });
    const child = await store.fork(session.id);
    await store.close(child);
    await store.resume(child.id);
  });
  assert.deepEqual(records.map((r) => r.rawMessage), [
    "session {id} created (live)",
    "session {id} forked from {parentId} through seq {throughSeq}",
    "session {id} resumed (live, {durable} events read back)",
  ]);
});

Deno.test("owner faults and failures with no caller are logged at their level", async () => {
  const records = await captured(() => {
    const schedule = pluginLogger("schedule");
    schedule.warn("retrying", { id: "sch_1" });
    schedule.error("owner faulted");
    logUnexpected()(new ConfigError("config_invalid", "Cannot x: y"));
    logUnexpected()("plain");
    return Promise.resolve();
  });
  assert.deepEqual(records.map((r) => [r.category.join("."), r.level]), [
    ["chime.schedule", "warning"],
    ["chime.schedule", "error"],
    ["chime.host", "error"],
    ["chime.host", "error"],
  ]);
  assert.equal(records[2]!.properties.code, "config_invalid");
});

Deno.test("parseLogLevel() reads levels and refuses others; configureLogging() writes text", async () => {
  assert.equal(parseLogLevel(undefined), "info");
  assert.equal(parseLogLevel(" Debug "), "debug");
  assert.equal(parseLogLevel("warn"), "warning");
  assert.throws(() => parseLogLevel("loud"), (e) => e instanceof ConfigError);
  const lines: string[] = [];
  const sink = { info: (text: string) => lines.push(text) } as never;
  {
    await using _logging = await configureLogging({ level: "info", console: sink });
    const app = new Hono().use("*", requestLog()).get("/", (c) => c.text(""));
    await app.request("/");
  }
  assert.match(lines.join(""), /\[INF\] chime·http: GET \/ 200 \d+ms/);
});

// The level union is logtape's, spelled out so the public API names no npm type.
const _levels: [Equal<ChimeLogLevel, LogLevel>] = [true];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;

Deno.test("formatLogLine() adds the session a record is about, from any of its property forms", async () => {
  const { formatLogLine } = await import("./log.ts");
  const base = {
    category: ["chime", "http"],
    level: "info" as const,
    message: ["GET / 200"],
    rawMessage: "GET / 200",
    timestamp: 0,
  };
  const forms: [Record<string, unknown>, string[], string | undefined][] = [
    [{ sessionId: "s1" }, ["chime", "http"], "s1"],
    [{ session: "s2" }, ["chime", "schedule"], "s2"],
    [{ details: { session: "s3" } }, ["chime", "push"], "s3"],
    [{ id: "s4" }, ["chime", "session"], "s4"],
    [{ id: "not-a-session" }, ["chime", "http"], undefined],
  ];
  for (const [properties, category, expected] of forms) {
    const text = formatLogLine({ ...base, category, properties });
    assert.ok(text.endsWith("\n") && !text.endsWith("\n\n"), JSON.stringify(text));
    if (expected === undefined) assert.ok(!text.includes("session="), text);
    else assert.match(text, new RegExp(` session=${expected}\\n$`));
  }
});

Deno.test("configureLogging() gives a request's lines below /api/sessions/:id its session id", async () => {
  const { traceRequests } = await import("./telemetry.ts");
  const lines: string[] = [];
  const sink = {
    debug: () => {},
    info: (l: string) => lines.push(l),
    warn: () => {},
    error: () => {},
  };
  await using _logging = await configureLogging({ console: sink });
  const app = new Hono().use("*", traceRequests()).use("*", requestLog());
  app.get("/api/sessions/:id/history", (c) => c.json({}));
  app.get("/healthz", (c) => c.json({ ok: true }));
  assert.equal((await app.request("/api/sessions/ses_Abc123/history")).status, 200);
  assert.equal((await app.request("/healthz")).status, 200);
  const history = lines.find((l) => l.includes("/history"));
  assert.match(String(history), / session=ses_Abc123/);
  const health = lines.find((l) => l.includes("/healthz"));
  assert.ok(health !== undefined && !health.includes("session="), String(health));
});
