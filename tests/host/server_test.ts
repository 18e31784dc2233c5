/**
 * Against a real server process: the keyless main job end to end over HTTP and SSE, SSE resume
 * after a dropped connection, and a clean SIGTERM shutdown that loses no event.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readSse, type SseMessage } from "./_helpers.ts";
import { spawnServer } from "./_server.ts";

interface WireEvent {
  readonly seq: number;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

const raw = (m: SseMessage) => m.event === "session-event" && m.data.view === undefined;
const eventOf = (m: SseMessage) => m.data.event as WireEvent;

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  assert.ok(response.ok, JSON.stringify(json));
  return json;
}

Deno.test({
  name: "the keyless main job: a reminder in 10 seconds, end to end against a server process",
  async fn() {
    const dataDir = await Deno.makeTempDir();
    let sessionId = "";
    let seen: WireEvent[] = [];
    {
      await using server = await spawnServer(dataDir);
      const { header } = await post(`${server.url}/api/sessions`, { timeZone: "Europe/Berlin" });
      sessionId = (header as { id: string }).id;
      const stream = await fetch(`${server.url}/api/sessions/${sessionId}/stream`);
      assert.equal(stream.headers.get("content-type"), "text/event-stream");
      const sent = await post(`${server.url}/api/sessions/${sessionId}/messages`, {
        text: "remind me in 10 seconds to stretch",
        clientTimeZone: "Europe/Berlin",
      });
      assert.equal(sent.seq, 0);
      const messages = await readSse(stream.body!, (ms) => {
        const followup = ms.findIndex((m) => raw(m) && eventOf(m).type === "followup");
        return followup >= 0 && ms.slice(followup).some((m) =>
          raw(m) && eventOf(m).type === "turn/end"
        ) &&
          ms.some((m) => m.data.view !== undefined);
      }, 40_000);
      seen = messages.filter(raw).map(eventOf);
      assert.deepEqual(seen.map((e) => e.seq), seen.map((_, i) => i), "dense, no duplicates");
      const userRpc = seen[0]!;
      assert.deepEqual(userRpc.data.source, { kind: "web", clientTimeZone: "Europe/Berlin" });
      const call = seen.find((e) => e.type === "tool/call")!;
      assert.equal(call.data.name, "schedule_create");
      const changes = seen.filter((e) => e.type === "schedule/change");
      assert.deepEqual(changes.map((e) => e.data.op), ["create", "dispatch"]);
      const record = changes[0]!.data.record as { id: string; scheduledAt: string };
      const dispatch = changes[1]!;
      const sidecar = messages.find((m) => m.data.view !== undefined)!;
      assert.deepEqual(
        sidecar.data.event,
        messages.find((m) => raw(m) && eventOf(m).seq === dispatch.seq)!.data.event,
      );
      assert.equal(sidecar.data.for, "event");
      assert.deepEqual(sidecar.data.view, {
        type: "schedule/change",
        presentation: {
          scheduleId: record.id,
          prompt: "stretch",
          occurrenceAt: record.scheduledAt,
        },
      });
      const sidecarIndex = messages.indexOf(sidecar);
      const rawIndex = messages.findIndex((m) => raw(m) && eventOf(m).seq === dispatch.seq);
      assert.ok(sidecarIndex > rawIndex, "the view follows the raw dispatch");
      const followup = seen.find((e) => e.type === "followup")!;
      assert.match(String(followup.data.frame), /stretch/);
      assert.ok(seen.some((e) => e.type === "assistant/message" && e.seq > followup.seq));
      assert.equal(await server.stop("SIGTERM"), 0, server.output());
      assert.match(server.output(), /shutting down[\s\S]*stopped/);
    }
    // After a clean stop, the durable log holds every event observed live, and cold history
    // renders the receipt without activating the session.
    await using again = await spawnServer(dataDir);
    const history = await (await fetch(`${again.url}/api/sessions/${sessionId}/history?limit=500`))
      .json();
    assert.equal(history.live, false);
    assert.ok(history.events.length >= seen.length);
    assert.deepEqual(
      history.events.slice(0, seen.length).map((e: WireEvent) => e.type),
      seen.map((e) => e.type),
    );
    const dispatchSeq = seen.find((e) =>
      e.type === "schedule/change" && e.data.op === "dispatch"
    )!.seq;
    assert.equal(history.views[dispatchSeq].type, "schedule/change");
    const list = await (await fetch(`${again.url}/api/sessions`)).json();
    assert.equal(list.sessions[0].live, false, "cold history created no agent");
    assert.equal(await again.stop(), 0);
    await Deno.remove(dataDir, { recursive: true });
  },
});

Deno.test("SSE resumes after a dropped connection without loss or duplicates", async () => {
  const dataDir = await Deno.makeTempDir();
  await using server = await spawnServer(dataDir, "config/default.jsonc");
  const { header } = await post(`${server.url}/api/sessions`, { timeZone: "Asia/Tokyo" });
  const id = (header as { id: string }).id;
  const turnEnds = (n: number) => (ms: readonly SseMessage[]) =>
    ms.filter((m) => raw(m) && eventOf(m).type === "turn/end").length >= n;
  const first = await fetch(`${server.url}/api/sessions/${id}/stream`);
  await post(`${server.url}/api/sessions/${id}/messages`, {
    text: "hello",
    clientTimeZone: "Asia/Tokyo",
  });
  const before = (await readSse(first.body!, turnEnds(1))).filter(raw);
  const last = before.at(-1)!.id!;
  // Disconnected: two more turns happen meanwhile.
  await post(`${server.url}/api/sessions/${id}/messages`, {
    text: "one",
    clientTimeZone: "Asia/Tokyo",
  });
  await post(`${server.url}/api/sessions/${id}/messages`, { text: "two", clientTimeZone: "UTC" });
  const second = await fetch(`${server.url}/api/sessions/${id}/stream`, {
    headers: { "Last-Event-ID": last },
  });
  const after = (await readSse(second.body!, (ms) => {
    const two = ms.find((m) => raw(m) && eventOf(m).data.text === "two");
    return two !== undefined &&
      ms.some((m) => raw(m) && eventOf(m).type === "turn/end" && eventOf(m).seq > eventOf(two).seq);
  })).filter(raw);
  const seqs = [...before, ...after].map((m) => eventOf(m).seq);
  assert.deepEqual(seqs, seqs.map((_, i) => i), "contiguous across the reconnect");
  const zones = [...before, ...after].map(eventOf).filter((e) => e.type === "user-rpc")
    .map((e) => (e.data.source as { clientTimeZone: string }).clientTimeZone);
  assert.deepEqual(zones, ["Asia/Tokyo", "Asia/Tokyo", "UTC"]);
  const viaQuery = await fetch(`${server.url}/api/sessions/${id}/stream?after=${seqs.at(-1)! - 1}`);
  const tail = await readSse(viaQuery.body!, (ms) => ms.some(raw));
  assert.equal(eventOf(tail.find(raw)!).seq, seqs.at(-1));
  assert.equal(await server.stop(), 0);
  await Deno.remove(dataDir, { recursive: true });
});
