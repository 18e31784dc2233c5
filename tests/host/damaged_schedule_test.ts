/**
 * One damaged `schedule/change` row (valid JSON, not a valid change) in a real libSQL file holds
 * only the reminder it names (docs/recurring.md "Damaged changes"): the reminders route answers
 * `200` naming it in `damaged` (`storage_corrupt` with its seq), an action on it answers
 * `500 storage_corrupt`, the session's other due reminder still fires once, and a new reminder
 * can be created by the tool.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ScriptedModel } from "@chime/agent";
import { createApp } from "@chime/host";
import { fileRuntime } from "./_file_runtime.ts";
import { postJson } from "./_helpers.ts";

const GOOD = "sch_GoodGood1234";
const BAD = "sch_BadBadBad123";

Deno.test("a damaged schedule row is quarantined: the route names its seq, the other reminders keep working", async () => {
  const dir = await Deno.makeTempDir({ prefix: "chime-damaged-" });
  let calls = 0;
  const model = new ScriptedModel((request) => {
    // The user's message asks for a new reminder once; everything else is only acknowledged.
    const asked = request.messages.some((m) => JSON.stringify(m).includes("add a new one"));
    if (asked && calls++ === 0) {
      const args = JSON.stringify({ prompt: "call mum", after_seconds: 3600 });
      return { text: "", toolCalls: [{ id: "c1", name: "schedule_create", arguments: args }] };
    }
    return { text: "ok" };
  });
  const open = () => fileRuntime(dir, model);
  let id: string;
  let badSeq: number;
  {
    // Write the log as a damaged store would hold it, then close the host.
    await using runtime = await open();
    const { session } = await runtime.create({ timeZone: "UTC" });
    id = session.id;
    const due = new Date(Date.now() + 1_500).toISOString();
    session.append("schedule/change", {
      version: 1,
      op: "create",
      record: { id: GOOD, kind: "at", prompt: "stretch", scheduledAt: due },
    });
    badSeq = session.append("schedule/change", {
      version: 1,
      op: "create",
      record: { id: BAD, kind: "at", prompt: "", scheduledAt: "not a time", extra: true },
    }).seq;
    assert.equal(await runtime.store.flush(session), true);
  }
  await using runtime = await open();
  const app = createApp(runtime);
  const listed = await app.request(`/api/sessions/${id}/reminders`);
  assert.equal(listed.status, 200, "not 500: the refusal is contained");
  const page = await listed.json();
  assert.deepEqual(page.reminders.map((r: { id: string }) => r.id), [GOOD]);
  assert.equal(page.damaged.length, 1);
  assert.equal(page.damaged[0].code, "storage_corrupt");
  assert.equal(page.damaged[0].seq, badSeq);
  assert.equal(page.damaged[0].id, BAD);
  assert.equal(runtime.store.live(id), undefined, "listing never activates");

  const stop = await app.request(`/api/sessions/${id}/reminders/${BAD}/snooze`, {
    ...postJson({ seconds: 600 }),
  });
  assert.equal(stop.status, 500);
  const refusal = (await stop.json()).error;
  assert.equal(refusal.code, "storage_corrupt");
  assert.match(refusal.message, new RegExp(`seq ${badSeq}`));
  assert.equal(runtime.store.live(id), undefined, "refused before any activation");

  // Open the session: the good reminder fires once; the tool creates a new reminder.
  const sent = await app.request(
    `/api/sessions/${id}/messages`,
    postJson({ text: "add a new one", clientTimeZone: "UTC" }),
  );
  assert.equal(sent.status, 202);
  const session = runtime.store.live(id)!;
  const agent = await runtime.agentFor(session);
  const deadline = Date.now() + 20_000;
  const dispatched = () =>
    session.events().filter((e) =>
      e.type === "schedule/change" && (e.data as { op?: string; id?: string }).op === "dispatch" &&
      (e.data as { id?: string }).id === GOOD
    );
  while (dispatched().length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await agent.whenIdle();
  assert.equal(dispatched().length, 1, "the session's other reminder fired once");
  const result = session.events().find((e) =>
    e.type === "tool/result" && (e.data as { callId?: string }).callId === "c1"
  );
  assert.equal((result?.data as { result: { ok: boolean } }).result.ok, true, "create works");
  const after = await (await app.request(`/api/sessions/${id}/reminders`)).json();
  assert.deepEqual(after.reminders.map((r: { prompt: string }) => r.prompt), ["call mum"]);
  assert.equal(after.damaged[0].seq, badSeq, "still reported, never applied");
  await Deno.remove(dir, { recursive: true });
});
