/**
 * A tiny in-memory stand-in for the host's §6 API, serving the embedded page, for browser
 * tests of the UI alone. A prompt runs a scripted turn that creates a reminder; `dispatch()`
 * sends the raw dispatch, then the same seq again with its commit-aware view.
 *
 * @module
 */
import { uiAsset } from "../assets.ts";
import type { EventView, WireEvent, WireHeader } from "../wire.ts";

interface FakeSession {
  header: WireHeader;
  events: WireEvent[];
  views: Map<number, EventView>;
  streams: Set<ReadableStreamDefaultController<Uint8Array>>;
}

/** A running fake API. */
export interface FakeApi extends AsyncDisposable {
  /** Base URL, e.g. `http://127.0.0.1:1234`. */
  readonly url: string;
  /** Sessions by id. */
  readonly sessions: Map<string, FakeSession>;
  /** Dispatches the first active reminder of a session: raw event, then the view sidecar. */
  dispatch(id: string): void;
  /** Sends only the raw dispatch of the first reminder (its view comes with {@linkcode attachView}). */
  dispatchRaw(id: string): void;
  /** Sends the view sidecar of the last dispatch sent by {@linkcode dispatchRaw}. */
  attachView(id: string): void;
  /** Appends `n` user messages at once (a long session). */
  seed(id: string, n: number): void;
}

const enc = new TextEncoder();
const json = (body: unknown, status = 200) => Response.json(body, { status });

/**
 * Starts the fake API on a free local port.
 *
 * @returns the running server
 */
export function startFakeApi(): FakeApi {
  const sessions = new Map<string, FakeSession>();
  let n = 0;
  const at = () => new Date().toISOString();
  const send = (s: FakeSession, event: WireEvent, view?: EventView) => {
    const data = JSON.stringify(view ? { event, view, for: "event" } : { event });
    const frame = enc.encode(`id: ${event.seq}\nevent: session-event\ndata: ${data}\n\n`);
    for (const c of s.streams) c.enqueue(frame);
  };
  const flushed = (s: FakeSession) => {
    const data = JSON.stringify({ throughSeq: s.events.length });
    const frame = enc.encode(`id: ${s.events.length - 1}\nevent: flushed\ndata: ${data}\n\n`);
    for (const c of s.streams) c.enqueue(frame);
  };
  // Every append is durable at once here: each is followed by a `flushed` notice.
  const append = (s: FakeSession, type: string, data: unknown) => {
    const event = { seq: s.events.length, type, at: at(), data };
    s.events.push(event);
    send(s, event);
    flushed(s);
    return event;
  };
  const active = (s: FakeSession) => {
    const map = new Map<string, { id: string; scheduledAt: string }>();
    for (const e of s.events) {
      if (e.type !== "schedule/change") continue;
      const d = e.data as { op: string; id?: string; record?: { id: string; scheduledAt: string } };
      if (d.op === "create" && d.record) map.set(d.record.id, d.record);
      else if (d.id) map.delete(d.id);
    }
    return [...map.values()].map((r) => ({
      ...r,
      status: Date.parse(r.scheduledAt) <= Date.now() ? "overdue" : "scheduled",
      deliveryMode: "session-local",
    }));
  };
  const viewOf = (s: FakeSession, dispatch: WireEvent): EventView => {
    const id = (dispatch.data as { id: string }).id;
    const create = s.events.find((e) =>
      e.type === "schedule/change" && (e.data as { record?: { id: string } }).record?.id === id
    )!;
    const record = (create.data as { record: { prompt: string; scheduledAt: string } }).record;
    return {
      type: "schedule/change",
      presentation: { scheduleId: id, prompt: record.prompt, occurrenceAt: record.scheduledAt },
    };
  };
  const turn = (s: FakeSession, text: string, tz: string) => {
    const turnId = `t${s.events.length}`;
    append(s, "user-rpc", {
      messageId: `m${s.events.length}`,
      text,
      source: { kind: "web", clientTimeZone: tz },
    });
    append(s, "turn/start", { turnId });
    append(s, "step/start", { turnId, step: 0, messageIds: [] });
    append(s, "time-context/marker", { turnId });
    if (/fail/i.test(text)) {
      append(s, "turn/end", { turnId, outcome: "error", error: "model endpoint returned 503" });
      return;
    }
    const prompt = text.replace(/^remind me (in \d+ \w+ )?to /i, "");
    const args = { prompt, after_seconds: 1200 };
    append(s, "tool/call", { turnId, callId: "c1", name: "schedule_create", args });
    const scheduledAt = new Date(Date.now() + 1_200_000).toISOString();
    const id = `sch_${s.events.length}`;
    append(s, "schedule/change", {
      version: 1,
      op: "create",
      record: { id, kind: "after", prompt, afterSeconds: 1200, scheduledAt },
    });
    append(s, "tool/result", {
      turnId,
      callId: "c1",
      result: { ok: true, id, status: "scheduled", deliveryMode: "session-local" },
    });
    append(s, "assistant/message", {
      turnId,
      text: `Done — I'll remind you to ${prompt} in 20 minutes.`,
    });
    append(s, "turn/end", { turnId, outcome: "completed" });
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const asset = uiAsset(url.pathname);
    if (asset) return new Response(asset.body, { headers: { "content-type": asset.contentType } });
    const parts = url.pathname.split("/").slice(3);
    if (url.pathname === "/api/sessions" && req.method === "POST") {
      const { timeZone } = await req.json();
      const id = `s${++n}`;
      const header: WireHeader = { id, createdAt: at(), origin: "web", lineage: null, timeZone };
      sessions.set(id, { header, events: [], views: new Map(), streams: new Set() });
      return json({ header }, 201);
    }
    if (url.pathname === "/api/sessions") {
      return json({
        sessions: [...sessions.values()].map((s) => ({ header: s.header, live: true })),
      });
    }
    const s = sessions.get(parts[0] ?? "");
    if (!s) return json({ error: { code: "session_not_found", message: "no such session" } }, 404);
    if (parts[1] === "resume") return json({ header: s.header, live: true });
    if (parts[1] === "reminders") {
      return json({ reminders: active(s), deliveryMode: "session-local" });
    }
    if (parts[1] === "messages") {
      const { text, clientTimeZone } = await req.json();
      queueMicrotask(() => turn(s, text, clientTimeZone));
      return json({ messageId: `m${s.events.length}`, seq: s.events.length }, 202);
    }
    if (parts[1] === "history") {
      const before = Number(url.searchParams.get("before") ?? s.events.length);
      const limit = Number(url.searchParams.get("limit") ?? 100);
      const events = s.events.slice(Math.max(0, before - limit), before);
      const views = Object.fromEntries(
        events.filter((e) => s.views.has(e.seq)).map((e) => [e.seq, s.views.get(e.seq)]),
      );
      const first = events[0]?.seq ?? 0;
      return json({
        header: s.header,
        live: true,
        events,
        views,
        nextBefore: first > 0 ? first : null,
      });
    }
    if (parts[1] === "stream") {
      let ctl: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          ctl = c;
          s.streams.add(c);
          c.enqueue(enc.encode(": hello\n\n"));
        },
        cancel() {
          s.streams.delete(ctl);
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    return json({ error: { code: "not_found", message: url.pathname } }, 404);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    sessions,
    dispatch(id) {
      this.dispatchRaw(id);
      this.attachView(id);
    },
    dispatchRaw(id) {
      const s = sessions.get(id)!;
      const record = active(s)[0]!;
      append(s, "schedule/change", { version: 1, op: "dispatch", id: record.id });
    },
    attachView(id) {
      const s = sessions.get(id)!;
      const event = s.events.findLast((e) =>
        e.type === "schedule/change" && (e.data as { op: string }).op === "dispatch"
      )!;
      const view = viewOf(s, event);
      s.views.set(event.seq, view);
      send(s, event, view);
    },
    seed(id, n) {
      const s = sessions.get(id)!;
      for (let i = 0; i < n; i++) {
        append(s, "user-rpc", {
          messageId: `m${s.events.length}`,
          text: `message ${s.events.length}`,
          source: { kind: "web", clientTimeZone: "Europe/Berlin" },
        });
      }
    },
    async [Symbol.asyncDispose]() {
      for (const s of sessions.values()) for (const c of s.streams) c.close();
      await server.shutdown();
    },
  };
}
