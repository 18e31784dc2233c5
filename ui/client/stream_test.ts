import { deepStrictEqual as eq, equal } from "node:assert/strict";
import { connection, connectStream, type StreamSource } from "./stream.ts";
import { ev, evs, VIEW, windowHarness } from "../testing/window_harness.ts";

/** A scripted `EventSource`: the test emits opens, errors and SSE messages with their `id:`. */
class FakeSource implements StreamSource {
  readyState = 0;
  closed = false;
  readonly #listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: Event) => void): void {
    this.#listeners.set(type, [...this.#listeners.get(type) ?? [], listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data?: unknown, lastEventId = ""): void {
    const event = data === undefined
      ? new Event(type)
      : new MessageEvent(type, { data: JSON.stringify(data), lastEventId });
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

async function loadedWindow(to: number) {
  const h = windowHarness();
  const started = h.win.start();
  h.history[0]!.resolve({ events: to < 0 ? [] : evs(0, to), views: {}, nextBefore: null });
  equal(await started, "loaded");
  return h;
}

function connect(win: ReturnType<typeof windowHarness>["win"]) {
  const sources: FakeSource[] = [];
  const stream = connectStream("s 1", win, {
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
  });
  return { sources, stream };
}

Deno.test("connectStream() opens after the loaded tail instead of replaying the log", async () => {
  const { win } = await loadedWindow(2);
  const { sources, stream } = connect(win);
  eq(sources.map((s) => s.url), ["/api/sessions/s%201/stream?after=2"]);
  sources[0]!.emit("open");
  equal(connection.value, "live");
  stream[Symbol.dispose]();
  equal(sources[0]!.closed, true);
});

Deno.test("connectStream() on an empty session opens without a cursor", async () => {
  const { win } = await loadedWindow(-1);
  const { sources, stream } = connect(win);
  eq(sources.map((s) => s.url), ["/api/sessions/s%201/stream"]);
  stream[Symbol.dispose]();
});

Deno.test("a late view keys on the event's seq, not on the SSE id (the stream cursor)", async () => {
  const { win } = await loadedWindow(2);
  const { sources, stream } = connect(win);
  const source = sources[0]!;
  source.emit("open");
  source.emit("session-event", { event: ev(3) }, "3");
  source.emit("session-event", { event: ev(4) }, "4");
  // The host re-sends seq 1 with its view once durable; its `id:` is the cursor 4.
  source.emit("session-event", { event: ev(1), for: "event", view: VIEW }, "4");
  eq(win.events.value.map((e) => e.seq), [0, 1, 2, 3, 4], "nothing appended");
  eq([...win.views.value.keys()], [1]);
  // `flushed` carries the same cursor as its id; throughSeq is exclusive.
  source.emit("flushed", { throughSeq: 4 }, "4");
  equal(win.durableBefore.value, 4);
  equal(win.isDurable(3), true);
  equal(win.isDurable(4), false);
  stream[Symbol.dispose]();
});

Deno.test("a stream the browser closed (409 session_cold) resumes before it opens again", async () => {
  const { win } = await loadedWindow(2);
  const sources: FakeSource[] = [];
  const calls: string[] = [];
  let resumed = Promise.withResolvers<void>();
  const stream = connectStream("s1", win, {
    open: (url) => {
      calls.push("open");
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    onReopen: () => {
      calls.push("resume");
      resumed.resolve();
      return Promise.resolve();
    },
  });
  sources[0]!.readyState = 2;
  sources[0]!.emit("error");
  equal(connection.value, "reconnecting");
  await resumed.promise;
  await new Promise((r) => setTimeout(r, 0));
  eq(calls, ["open", "resume", "open"]);
  resumed = Promise.withResolvers<void>();
  stream[Symbol.dispose]();
});

Deno.test("a session-lost event closes the stream for good and names the owner", async () => {
  const { win } = await loadedWindow(2);
  const sources: FakeSource[] = [];
  const owners: string[] = [];
  const stream = connectStream("s", win, {
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    onLost: (url) => owners.push(url),
  });
  sources[0]!.emit("open");
  sources[0]!.emit("session-lost", { code: "session_owned_elsewhere", url: "http://b/" });
  eq(owners, ["http://b/"]);
  equal(sources[0]!.closed, true);
  sources[0]!.emit("error");
  equal(sources.length, 1, "no reconnect");
  stream[Symbol.dispose]();
});

Deno.test("a session-deleted event closes the stream for good and reports the deletion once", async () => {
  const { win } = await loadedWindow(2);
  const sources: FakeSource[] = [];
  let deleted = 0;
  const stream = connectStream("s", win, {
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    onDeleted: () => void deleted++,
  });
  sources[0]!.emit("open");
  sources[0]!.emit("session-deleted", { code: "session_not_found" });
  equal(deleted, 1);
  equal(sources[0]!.closed, true);
  sources[0]!.emit("error");
  equal(sources.length, 1, "no reconnect");
  stream[Symbol.dispose]();
});
