/**
 * A tiny in-memory stand-in for the host's API (docs/architecture.md#http), serving the embedded
 * page, for browser tests of the UI alone. A prompt runs a scripted turn (`fake_turns.ts`) that
 * creates a one-shot or recurring reminder; `dispatch()` sends the raw dispatch, then the same seq
 * again with its commit-aware view. It speaks the recurring contract of docs/recurring.md (v2
 * records, the snooze and stop routes, `repeat` in the reminders list) and the session list with
 * titles, `forkOf` and paging.
 *
 * @module
 */
import { uiAsset } from "../assets.ts";
import type { EventView, WireEvent, WireHeader } from "../wire.ts";
import { activeRecords, dispatchView, type FakeRecord, RULE_TEXT, runTurn } from "./fake_turns.ts";

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
  /** `METHOD path body` of every snooze and stop request, in order. */
  readonly requests: string[];
  /** Dispatches an active reminder (the first, or `scheduleId`): raw event, then the view. */
  dispatch(id: string, scheduleId?: string): void;
  /** Sends only the raw dispatch (its view comes with {@linkcode attachView}). */
  dispatchRaw(id: string, scheduleId?: string): void;
  /** Sends the view sidecar of the last dispatch. */
  attachView(id: string): void;
  /** Appends `n` user messages at once (a long session). */
  seed(id: string, n: number): void;
}

const enc = new TextEncoder();
const json = (body: unknown, status = 200) => Response.json(body, { status });
const error = (code: string, status: number) => json({ error: { code, message: code } }, status);

/**
 * Starts the fake API on a free local port.
 *
 * @returns the running server
 */
export function startFakeApi(): FakeApi {
  const sessions = new Map<string, FakeSession>();
  const requests: string[] = [];
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
  const target = (s: FakeSession) => ({
    events: s.events,
    append: (type: string, data: unknown) => append(s, type, data),
  });
  const listed = (r: FakeRecord) => ({
    ...r,
    status: Date.parse(r.scheduledAt) <= Date.now() ? "overdue" : "scheduled",
    deliveryMode: "session-local",
    ...(r.kind === "recurring"
      ? {
        repeat: {
          rrule: r.rrule,
          timeZone: r.timeZone,
          dtstart: r.dtstart,
          text: RULE_TEXT[r.rrule!] ?? { en: r.rrule, zh: r.rrule },
        },
      }
      : {}),
  });
  const everCreated = (s: FakeSession, id: string) =>
    s.events.findLast((e) =>
      e.type === "schedule/change" && (e.data as { record?: FakeRecord }).record?.id === id
    )?.data as { record: FakeRecord } | undefined;
  const userMessage = (s: FakeSession, text: string, tz: string, edits?: string) => {
    const messageId = `m${s.events.length}`;
    append(s, "user-rpc", {
      messageId,
      text,
      ...(edits ? { edits } : {}),
      source: { kind: "web", clientTimeZone: tz },
    });
    return messageId;
  };
  const titleOf = (s: FakeSession | undefined) => {
    const e = s?.events.find((e) => e.type === "user-rpc");
    return (e?.data as { text?: string } | undefined)?.text ?? null;
  };
  const listSessions = (url: URL) => {
    const all = [...sessions.values()].reverse();
    const before = url.searchParams.get("before");
    const limit = Number(url.searchParams.get("limit") ?? all.length);
    const start = before ? all.findIndex((s) => s.header.id === before) + 1 : 0;
    const page = all.slice(start, start + limit);
    const parentOf = (s: FakeSession) => s.header.lineage?.parentId;
    return json({
      sessions: page.map((s) => ({
        header: s.header,
        live: true,
        title: titleOf(s),
        ...(parentOf(s)
          ? { forkOf: { id: parentOf(s), title: titleOf(sessions.get(parentOf(s)!)) } }
          : {}),
      })),
      nextBefore: start + limit < all.length ? page.at(-1)!.header.id : null,
    });
  };
  const reminderRoute = async (s: FakeSession, req: Request, scheduleId: string, op: string) => {
    const body = await req.text();
    requests.push(`${req.method} ${op} ${scheduleId} ${body}`);
    const created = everCreated(s, scheduleId);
    if (!created) return error("schedule_not_found", 404);
    const active = activeRecords(s.events).get(scheduleId);
    if (op === "stop") {
      if (active?.kind !== "recurring") return error("schedule_not_active", 409);
      append(s, "schedule/change", { version: 2, op: "stop", id: scheduleId });
      return json({});
    }
    const seconds = (JSON.parse(body || "{}") as { seconds?: unknown }).seconds;
    if (typeof seconds !== "number" || seconds < 60 || seconds > 604_800) {
      return error("invalid_arguments", 400);
    }
    const scheduledAt = new Date(Date.now() + seconds * 1000).toISOString();
    const delivered = s.events.findLast((e) =>
      e.type === "schedule/change" && (e.data as { op: string; id?: string }).op === "dispatch" &&
      (e.data as { id?: string }).id === scheduleId
    )?.data as { occurrenceAt?: string } | undefined;
    if (!delivered) {
      if (!active || active.kind === "recurring") return error("schedule_not_active", 409);
      // Not fired yet: never earlier than its target (docs/recurring.md "Tools").
      const from = Math.max(Date.parse(active.scheduledAt), Date.now());
      const moved = new Date(from + seconds * 1000).toISOString();
      const record = { ...active, kind: "at" as const, scheduledAt: moved };
      append(s, "schedule/change", { version: 2, op: "update", id: scheduleId, record });
      return json({ reminder: listed(record) });
    }
    const record: FakeRecord = {
      id: `sch_${s.events.length}`,
      kind: "at",
      prompt: created.record.prompt,
      scheduledAt,
      snoozeOf: {
        id: scheduleId,
        occurrenceAt: delivered.occurrenceAt ?? created.record.scheduledAt,
      },
    };
    append(s, "schedule/change", { version: 2, op: "create", record });
    return json({ reminder: listed(record) });
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const asset = uiAsset(url.pathname);
    if (asset) return new Response(asset.body, { headers: { "content-type": asset.contentType } });
    if (url.pathname === "/api/auth") return json({ via: "none", signIns: 0 });
    if (url.pathname === "/api/client-config") {
      // What the web-schedule example enables (the fake speaks its reminder routes).
      return json({ renderers: ["@chime/ui/schedule"], panels: ["reminders"] });
    }
    const parts = url.pathname.split("/").slice(3).map(decodeURIComponent);
    if (url.pathname === "/api/sessions" && req.method === "POST") {
      const { timeZone } = await req.json();
      const id = `s${++n}`;
      const header: WireHeader = { id, createdAt: at(), origin: "web", lineage: null, timeZone };
      sessions.set(id, { header, events: [], views: new Map(), streams: new Set() });
      return json({ header }, 201);
    }
    if (url.pathname === "/api/sessions") return listSessions(url);
    const s = sessions.get(parts[0] ?? "");
    if (!s) return error("session_not_found", 404);
    const tz = s.header.timeZone ?? "UTC";
    if (parts[1] === "resume") return json({ header: s.header, live: true });
    // A notification was seen (README "The page"): the real host tells the other pages.
    if (parts[1] === "acknowledge" && req.method === "POST") return json({});
    if (parts[1] === "fork" && req.method === "POST") {
      const id = `s${++n}`;
      const events = s.events.map((e) => ({ ...e }));
      const seedLength = events.length + 1;
      const header: WireHeader = {
        id,
        createdAt: at(),
        origin: "fork",
        lineage: { parentId: s.header.id, forkedThroughSeq: events.length - 1 },
        timeZone: tz,
        seedLength,
      };
      const child: FakeSession = { header, events, views: new Map(s.views), streams: new Set() };
      child.events.push({ seq: events.length, type: "session/end-seed", at: at(), data: {} });
      sessions.set(id, child);
      return json({ header, live: true }, 201);
    }
    if (parts[1] === "reminders" && parts[2] && req.method === "POST") {
      return await reminderRoute(s, req, parts[2], parts[3] ?? "");
    }
    if (parts[1] === "reminders") {
      const reminders = [...activeRecords(s.events).values()].map(listed)
        .sort((a, b) => a.scheduledAt.localeCompare(b.scheduledAt));
      return json({ reminders, deliveryMode: "session-local" });
    }
    if (parts[1] === "turns") return error("no_running_turn", 409);
    if (parts[1] === "messages" && parts[2] && parts[3] === "retry") {
      const m = s.events.find((e) => (e.data as { messageId?: string }).messageId === parts[2]);
      if (!m) return error("message_not_found", 404);
      queueMicrotask(() => runTurn(target(s), (m.data as { text: string }).text, Date.now(), tz));
      return json({}, 202);
    }
    if (parts[1] === "messages" && parts[2] && parts[3] === "edit") {
      const { text } = await req.json();
      const seq = s.events.length;
      queueMicrotask(() => {
        userMessage(s, text, tz, parts[2]);
        runTurn(target(s), text, Date.now(), tz);
      });
      return json({ messageId: `m${seq}`, seq }, 202);
    }
    if (parts[1] === "messages") {
      const { text, clientTimeZone } = await req.json();
      const seq = s.events.length;
      queueMicrotask(() => {
        userMessage(s, text, clientTimeZone);
        runTurn(target(s), text, Date.now(), clientTimeZone);
      });
      return json({ messageId: `m${seq}`, seq }, 202);
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
    return error("not_found", 404);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    sessions,
    requests,
    dispatch(id, scheduleId) {
      this.dispatchRaw(id, scheduleId);
      this.attachView(id);
    },
    dispatchRaw(id, scheduleId) {
      const s = sessions.get(id)!;
      const active = [...activeRecords(s.events).values()];
      const record = active.find((r) => r.id === scheduleId) ?? active[0]!;
      if (record.kind !== "recurring") {
        append(s, "schedule/change", { version: 1, op: "dispatch", id: record.id });
        return;
      }
      const step = record.rrule === "FREQ=MINUTELY" ? 60_000 : 86_400_000;
      const nextAt = new Date(Date.parse(record.scheduledAt) + step).toISOString();
      append(s, "schedule/change", {
        version: 2,
        op: "dispatch",
        id: record.id,
        occurrenceAt: record.scheduledAt,
        missed: 0,
        nextAt,
      });
    },
    attachView(id) {
      const s = sessions.get(id)!;
      const event = s.events.findLast((e) =>
        e.type === "schedule/change" && (e.data as { op: string }).op === "dispatch"
      )!;
      const d = event.data as { id: string; occurrenceAt?: string; nextAt?: string | null };
      const view = dispatchView(everCreated(s, d.id)!.record, d);
      s.views.set(event.seq, view);
      send(s, event, view);
    },
    seed(id, count) {
      const s = sessions.get(id)!;
      for (let i = 0; i < count; i++) userMessage(s, `message ${s.events.length}`, "Europe/Berlin");
    },
    async [Symbol.asyncDispose]() {
      for (const s of sessions.values()) for (const c of s.streams) c.close();
      await server.shutdown();
    },
  };
}
