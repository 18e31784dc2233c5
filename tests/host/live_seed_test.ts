// Regression tests from the commit-aware review: the watermark is seeded only with the prefix
// actually read back from storage, on every path that makes a stored session live.
import assert from "node:assert/strict";
import type { Plugin } from "@chime/agent";
import { MemoryBackend } from "@chime/session/testing";
import { appendReminder, parseSse, RECORD, testRuntime } from "./_helpers.ts";
import { webHost } from "@chime/host";
import { sessionReminders } from "@chime/schedule";

class GatedLoad extends MemoryBackend {
  gate: PromiseWithResolvers<void> | undefined;
  reached = Promise.withResolvers<void>();
  failAppends = false;
  override async append(id: string, events: Parameters<MemoryBackend["append"]>[1]) {
    if (this.failAppends) throw new Error("injected append failure");
    return await super.append(id, events);
  }
  // Resume reads the stored tail (docs/long-sessions.md): gate that read.
  override async tail(id: string, count: number) {
    if (this.gate) {
      this.reached.resolve();
      await this.gate.promise;
    }
    return await super.tail(id, count);
  }
}

Deno.test("a concurrent create and resume of a stored id never seed the watermark over a non-durable dispatch", async () => {
  const backend = new GatedLoad();
  // A stored cold session.
  {
    await using rt0 = await testRuntime({ backend });
    const { session } = await rt0.create({ id: "racey", timeZone: "UTC" });
    session.append("note", {});
    assert.equal(await rt0.store.flush(session), true);
  }
  let dispatchSeq = -1;
  // A plugin whose setup appends (stands in for an owner dispatching an overdue reminder).
  const plugin: Plugin = {
    name: "appender",
    setup(scope) {
      dispatchSeq = appendReminder(scope.agent.session);
    },
  };
  await using rt = await testRuntime({ backend, plugins: [plugin] });
  // Every write from now on fails: the dispatch is never durable.
  backend.failAppends = true;
  backend.gate = Promise.withResolvers();
  const created = rt.create({ id: "racey", timeZone: "UTC" });
  await backend.reached.promise;
  const resumed = rt.resume("racey");
  backend.gate.resolve();
  backend.gate = undefined;
  const [{ session }, second] = await Promise.allSettled([created, resumed]).then(([a, b]) => {
    if (a.status === "rejected") throw a.reason;
    return [a.value, b] as const;
  });
  // The dispatch's write is refused, so the session is withdrawn (README.md "How it behaves on
  // failure"): the racing resume either got the same live object or was told it went cold.
  if (second.status === "fulfilled") assert.equal(second.value, session);
  else assert.equal((second.reason as { code?: string }).code, "session_cold");
  assert.ok(dispatchSeq >= 0, "plugin appended");
  const stored = (await backend.cursor("racey"))!.length;
  // The dispatch is not durable...
  assert.ok(stored <= dispatchSeq);
  // ...so the watermark must not cover it, and a stream client must get no view for it.
  const client = rt.feeds.attach(session, dispatchSeq);
  const msgs = parseSse((await client.take(0)).join("") + (await client.take(0)).join(""));
  client.close();
  const views = msgs.filter((m) => m.data.view !== undefined);
  backend.failAppends = false;
  assert.ok(
    rt.watermark.get(session) <= dispatchSeq,
    `watermark ${rt.watermark.get(session)} covers non-durable seq ${dispatchSeq}`,
  );
  assert.equal(views.length, 0, "ghost receipt sent for a non-durable dispatch");
});
Deno.test("making a stored session live by create or by resume shows the same durable reminders and receipts", async () => {
  const backend = new MemoryBackend();
  {
    await using rt0 = await testRuntime({ backend });
    const { session } = await rt0.create({ id: "old", timeZone: "UTC" });
    session.append("schedule/change", {
      version: 1,
      op: "create",
      record: { ...RECORD, id: "sch_Pending00001" },
    });
    appendReminder(session); // another create + its dispatch
    assert.equal(await rt0.store.flush(session), true);
  }
  await using rt = await testRuntime({ backend });
  const viaResume = await (async () => {
    const s = await rt.resume("old");
    const r = await sessionReminders(webHost(rt), "old");
    const c = rt.feeds.attach(s, -1);
    const m = parseSse((await c.take(0)).join("") + (await c.take(0)).join(""));
    c.close();
    await rt.store.close(s);
    return { reminders: r!.reminders.length, views: m.filter((x) => x.data.view).length };
  })();
  const viaCreate = await (async () => {
    const { session: s } = await rt.create({ id: "old", timeZone: "UTC" });
    const r = await sessionReminders(webHost(rt), "old");
    const c = rt.feeds.attach(s, -1);
    const m = parseSse((await c.take(0)).join("") + (await c.take(0)).join(""));
    c.close();
    return { reminders: r!.reminders.length, views: m.filter((x) => x.data.view).length };
  })();
  assert.deepEqual(viaCreate, viaResume);
});
