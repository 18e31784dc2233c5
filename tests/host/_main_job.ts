/**
 * The keyless main job against a real server process, shared by every form the host starts in
 * (source, built module): a reminder in 10 seconds end to end over HTTP and SSE, a clean
 * SIGTERM shutdown that loses no event, then cold history after a restart on the same data.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readSse } from "./_helpers.ts";
import { eventOf, post, raw, type ServerProcess, type WireEvent } from "./_server.ts";

/**
 * Runs the main job with servers from `start` (called twice on one fresh data directory).
 *
 * @param start spawns the host form under test on `dataDir`
 */
export async function mainJob(start: (dataDir: string) => Promise<ServerProcess>): Promise<void> {
  const dataDir = await Deno.makeTempDir();
  let sessionId = "";
  let seen: WireEvent[] = [];
  {
    await using server = await start(dataDir);
    const { header } = await post(`${server.url}/api/sessions`, { timeZone: "Europe/Berlin" });
    sessionId = (header as { id: string }).id;
    const stream = await fetch(`${server.url}/api/sessions/${sessionId}/stream`);
    assert.equal(stream.headers.get("content-type"), "text/event-stream");
    const page = await fetch(`${server.url}/`);
    assert.match(await page.text(), /<!doctype html>/i, "the embedded page is served");
    const sent = await post(`${server.url}/api/sessions/${sessionId}/messages`, {
      text: "remind me in 10 seconds to stretch",
      clientTimeZone: "Europe/Berlin",
    });
    assert.equal(sent.seq, 0);
    const messages = await readSse(stream.body!, (ms) => {
      const followup = ms.findIndex((m) => raw(m) && eventOf(m).type === "followup");
      return followup >= 0 &&
        ms.slice(followup).some((m) => raw(m) && eventOf(m).type === "turn/end") &&
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
      presentation: { scheduleId: record.id, prompt: "stretch", occurrenceAt: record.scheduledAt },
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
  await using again = await start(dataDir);
  const history = await (await fetch(`${again.url}/api/sessions/${sessionId}/history?limit=500`))
    .json();
  assert.equal(history.live, false);
  assert.ok(history.events.length >= seen.length);
  assert.deepEqual(
    history.events.slice(0, seen.length).map((e: WireEvent) => e.type),
    seen.map((e) => e.type),
  );
  const dispatchSeq =
    seen.find((e) => e.type === "schedule/change" && e.data.op === "dispatch")!.seq;
  assert.equal(history.views[dispatchSeq].type, "schedule/change");
  const list = await (await fetch(`${again.url}/api/sessions`)).json();
  assert.equal(list.sessions[0].live, false, "cold history created no agent");
  assert.equal(await again.stop(), 0);
  await Deno.remove(dataDir, { recursive: true });
}
