// OpenTelemetry end to end (docs/operations.md): a real host child with Deno's built-in exporter
// (OTEL_DENO=true, OTLP/HTTP JSON) sending to a real receiver this test starts, a real
// OpenAI-compatible endpoint holding one model call so the agent is busy when a reminder falls
// due, and the spans, attributes, metrics and logs that arrive; no prompt text or token among them.
import assert from "node:assert/strict";
import { FakeOpenAIServer, textEvents, toolCallEvents } from "../../agent/testing/fake_openai.ts";
import { OtlpReceiver, type ReceivedSpan } from "./_otlp.ts";
import { spawnServer } from "./_server.ts";

const TOKEN = "otel-test-token-4f9a8c2e7d1b";
const API_KEY = "sk-otel-test-key-77aa55";
const PROMPT_TEXT = "quokka-secret-9921";
const REMINDER_TEXT = "stretch-zebra-4417";

type Event = { seq: number; type: string; at: string; data: Record<string, unknown> };

async function until<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

Deno.test("a reminder late because the agent was busy arrives as a reminder.delivery span with its cause, beside route-named HTTP spans, turn, model and tool spans, the metrics and the logs", async () => {
  await using receiver = new OtlpReceiver();
  await using model = new FakeOpenAIServer();
  const dataDir = await Deno.makeTempDir();
  await using server = await spawnServer(dataDir, "examples/web-schedule/chime.jsonc", {
    env: {
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_METRIC_EXPORT_INTERVAL: "1000",
      OTEL_SERVICE_NAME: "chime-test",
      CHIME_MODEL_BASE_URL: model.baseURL,
      CHIME_MODEL: "fake-model",
      CHIME_MODEL_API_KEY: API_KEY,
      CHIME_TOKEN: TOKEN,
    },
  });
  const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: auth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = await response.json();
    assert.ok(response.ok, JSON.stringify(json));
    return json as Record<string, unknown>;
  };
  const { header } = await call("/api/sessions", { timeZone: "UTC" });
  const id = (header as { id: string }).id;
  const history =
    async () => ((await call(`/api/sessions/${id}/history?limit=500`)).events as Event[]);

  // Turn 1 creates a reminder due in 2 s; turn 2 holds its model call until the reminder is due.
  const gate = Promise.withResolvers<void>();
  model.reply(
    {
      kind: "stream",
      events: toolCallEvents([{
        id: "call_1",
        name: "schedule_create",
        arguments: JSON.stringify({ prompt: REMINDER_TEXT, after_seconds: 2 }),
      }]),
    },
    { kind: "stream", events: textEvents("Set.") },
    { kind: "gate", until: gate.promise, events: textEvents("A long answer.") },
    { kind: "stream", events: textEvents("Time to move.") },
  );
  await call(`/api/sessions/${id}/messages`, { text: PROMPT_TEXT, clientTimeZone: "UTC" });
  const created = await until(async () => {
    const events = await history();
    const done = events.some((e) => e.type === "turn/end");
    return done ? events.find((e) => e.type === "schedule/change") : undefined;
  }, "reminder created");
  const dueAt = Date.parse((created.data.record as { scheduledAt: string }).scheduledAt);
  await call(`/api/sessions/${id}/messages`, {
    text: `${PROMPT_TEXT} again`,
    clientTimeZone: "UTC",
  });
  await until(() => model.requests.length >= 3 ? true : undefined, "the held model call");
  // The agent is busy in the held call; the reminder falls due meanwhile.
  await until(() => Date.now() > dueAt + 1500 ? true : undefined, "the due instant");
  gate.resolve();
  await until(async () => {
    const events = await history();
    const followup = events.findIndex((e) => e.type === "followup");
    return followup >= 0 && events.slice(followup).some((e) => e.type === "turn/end")
      ? true
      : undefined;
  }, "the reminder turn");
  // With OpenTelemetry on, the banner offers the sign-in form, not the `/?token=` link.
  assert.match(
    server.output(),
    /sign in at http:\/\/127\.0\.0\.1:\d+\/login \(OpenTelemetry is on/,
  );
  assert.ok(!server.output().includes(TOKEN), "the banner prints no token");
  // Metrics are exported every second; wait for the reminder's histogram before stopping.
  await receiver.waitFor(
    () => receiver.metrics().some((m) => m.name === "chime.reminder.lateness"),
    "lateness histogram",
  );
  assert.equal(await server.stop("SIGTERM"), 0, server.output());
  await receiver.waitFor(
    () => receiver.spans().some((s) => s.name === "reminder.delivery"),
    "delivery span",
  );

  const spans = receiver.spans();
  const delivery = spans.find((s) => s.name === "reminder.delivery")!;
  assert.equal(delivery.attributes.cause, "busy");
  assert.equal(delivery.attributes.missed, 0);
  assert.equal(delivery.attributes.coalesced, false);
  assert.equal(delivery.attributes["chime.dispatch.durable"], true);
  assert.equal(delivery.attributes["chime.session.id"], id);
  assert.ok(Number(delivery.attributes.lateness_ms) >= 1500, JSON.stringify(delivery));
  assert.deepEqual(delivery.events.map((e) => e.name), [
    "due",
    "woke",
    "admission",
    "followup",
    "dispatch",
    "durable",
  ]);
  assert.equal(delivery.startMs, dueAt, "the span starts at the due instant");
  const admission = delivery.events.find((e) => e.name === "admission")!;
  // Nanoseconds read back as whole ms: equal within the rounding.
  assert.ok(Math.abs(admission.timeMs - dueAt - Number(delivery.attributes.lateness_ms)) <= 1);

  // HTTP spans are named by route template, never by id; the query is gone.
  const http = spans.filter((s) => s.attributes["http.request.method"] !== undefined);
  const names = new Set(http.map((s) => s.name));
  for (const name of ["POST /api/sessions", "POST /api/sessions/:id/messages"]) {
    assert.ok(names.has(name), [...names].join(", "));
  }
  assert.ok(names.has("GET /api/sessions/:id/history"), [...names].join(", "));
  assert.ok(![...names].some((n) => n.includes(id)), "no session id in a span name");
  const messages = http.find((s) => s.name === "POST /api/sessions/:id/messages")!;
  assert.equal(messages.attributes["http.route"], "/api/sessions/:id/messages");
  assert.equal(messages.attributes["chime.session.id"], id);

  // Turns, model calls and tool calls.
  const turns = spans.filter((s) => s.name === "agent.turn");
  assert.ok(turns.length >= 3, `${turns.length} turns`);
  assert.ok(turns.every((t) => t.attributes["chime.turn.outcome"] === "completed"));
  const reminderTurn = turns.find((t) => t.events.some((e) => e.name === "followup"));
  assert.ok(reminderTurn !== undefined, "the turn that took the follow-up says so");
  const chats = spans.filter((s) => s.attributes["gen_ai.operation.name"] === "chat");
  assert.ok(chats.length >= 4, `${chats.length} model calls`);
  for (const chat of chats) {
    assert.match(String(chat.attributes["gen_ai.request.model"]), /fake-model/);
    assert.ok(Number(chat.attributes["gen_ai.usage.input_tokens"]) > 0);
    assert.ok(Number(chat.attributes["gen_ai.usage.output_tokens"]) > 0);
    assert.equal(chat.attributes["chime.model.outcome"], "ok");
    assert.ok(turns.some((t) => t.spanId === chat.parentSpanId), "a model call is in its turn");
  }
  const tool = spans.find((s: ReceivedSpan) => s.name === "tool schedule_create")!;
  assert.equal(tool.attributes["chime.tool.code"], "ok");
  assert.ok(turns.some((t) => t.spanId === tool.parentSpanId), "a tool call is in its turn");

  // Metrics.
  const metrics = receiver.metrics();
  const named = new Set(metrics.map((m) => m.name));
  for (
    const name of [
      "chime.reminder.lateness",
      "chime.reminders.pending",
      "chime.sessions.live",
      "chime.commit.duration",
      "chime.events.acknowledged",
      "chime.lease.renewals",
      "chime.lease.losses",
      "chime.push.failures",
    ]
  ) assert.ok(named.has(name), `${name} missing from ${[...named].join(", ")}`);
  const lateness = metrics.filter((m) => m.name === "chime.reminder.lateness").at(-1)!;
  assert.equal(lateness.kind, "histogram");
  assert.equal(lateness.unit, "ms");
  const busy = lateness.points.find((p) =>
    (p.attributes as { key: string; value: { stringValue?: string } }[])
      .some((a) => a.key === "cause" && a.value.stringValue === "busy")
  )!;
  assert.ok(Number(busy.count) >= 1);
  const live = metrics.filter((m) => m.name === "chime.sessions.live").at(-1)!;
  assert.equal(
    Number((live.points[0] as { asInt?: string; asDouble?: number }).asDouble ?? 0) +
      Number((live.points[0] as { asInt?: string }).asInt ?? 0),
    1,
  );
  const acked = metrics.filter((m) => m.name === "chime.events.acknowledged").at(-1)!;
  const ackedCount = acked.points.reduce(
    (n, p) => n + Number((p as { asInt?: string }).asInt ?? (p as { asDouble?: number }).asDouble),
    0,
  );
  assert.ok(ackedCount >= 10, `${ackedCount} acknowledged`);

  // Logs: Deno exports the host's console lines, each request's with its session and trace.
  const logs = receiver.logs();
  const line = logs.find((l) =>
    l.body.includes("/api/sessions/:id/messages") ||
    (l.body.includes(`/api/sessions/${id}/messages`) && l.body.includes(`session=${id}`))
  );
  assert.ok(line !== undefined, logs.map((l) => l.body).join(""));
  assert.match(line.body, new RegExp(`session=${id} trace_id=${line.traceId} `));
  assert.ok(http.some((s) => s.traceId === line.traceId), "the line's trace is its request's");

  // Nothing private by default: no prompt or reminder text, no token, no key.
  const everything = receiver.text();
  for (const secret of [PROMPT_TEXT, REMINDER_TEXT, TOKEN, API_KEY]) {
    const at = everything.indexOf(secret);
    assert.ok(at < 0, `${secret} reached the receiver: ${everything.slice(at - 600, at + 100)}`);
  }
});
