/**
 * The after-commit hook (`PluginWeb.onDurable`, contract/web.ts): called when `session/flushed`
 * advances the watermark, with or without an open page, once per durable event, never for a
 * rejected flush, never with a fork's inherited prefix.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Plugin } from "@chime/contract";
import type { Session, SessionEvent } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { testRuntime } from "./_helpers.ts";

/** A plugin that records every event its after-commit hook is offered. */
function recorder() {
  const seen: { session: string; seq: number; type: string }[] = [];
  const plugin: Plugin = {
    name: "@test/recorder",
    setup() {},
    web: {
      onDurable(session: Session, events: readonly SessionEvent[]) {
        for (const e of events) seen.push({ session: session.id, seq: e.seq, type: e.type });
      },
    },
  };
  return { plugin, seen };
}

/** Waits until the runtime's hooks settled (they run after the flush resolves). */
async function settled(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

Deno.test("onDurable gets each durable event exactly once, with no page attached", async () => {
  const { plugin, seen } = recorder();
  await using runtime = await testRuntime({ plugins: [plugin] });
  const { session } = await runtime.create({ timeZone: "Europe/Paris" });
  await runtime.store.flush(session);
  await settled();
  session.append("note", { n: 1 });
  session.append("note", { n: 2 });
  await runtime.store.flush(session);
  await runtime.store.flush(session); // covers nothing new
  await settled();
  const seqs = seen.map((e) => e.seq);
  assert.deepEqual(seqs, [...Array(session.length).keys()], "dense, in order, none twice");
  assert.deepEqual(seen.slice(-2).map((e) => e.type), ["note", "note"]);
});

Deno.test("onDurable is called the same with a page's stream attached", async () => {
  const { plugin, seen } = recorder();
  await using runtime = await testRuntime({ plugins: [plugin] });
  const { session } = await runtime.create({ timeZone: "UTC" });
  await runtime.store.flush(session);
  using _client = runtime.feeds.attach(session);
  const before = seen.length;
  const seq = session.append("note", {}).seq;
  await runtime.store.flush(session);
  await settled();
  assert.deepEqual(seen.slice(before).map((e) => e.seq), [seq]);
});

Deno.test("onDurable never sees an event of a rejected flush: it is withdrawn, never committed later", async () => {
  const { plugin, seen } = recorder();
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ plugins: [plugin], backend });
  const { session } = await runtime.create({ timeZone: "UTC" });
  await runtime.store.flush(session);
  await settled();
  const before = seen.length;
  // The eager write fails: the write is withdrawn (README.md "How it behaves on failure"), nothing is durable.
  backend.failNext({ op: "append", when: "before" });
  const seq = session.append("note", {}).seq;
  await assert.rejects(runtime.store.flush(session));
  await settled();
  assert.equal(seen.length, before, "a rejected flush offers nothing");
  const later = await runtime.store.flush(session).catch(() => "refused");
  assert.notEqual(later, true, "a later flush never acknowledges it");
  const resumed = await runtime.resume(session.id);
  assert.notEqual(resumed, session, "the live object went cold");
  assert.equal(resumed.length, seq, "back to the durable length");
  const again = resumed.append("note", { again: true }).seq;
  assert.equal(await runtime.store.flush(resumed), true);
  await settled();
  assert.deepEqual(seen.slice(before).map((e) => e.seq), [again]);
});

Deno.test("onDurable offers a fork only its own events, not the inherited prefix", async () => {
  const { plugin, seen } = recorder();
  await using runtime = await testRuntime({ plugins: [plugin] });
  const { session: parent } = await runtime.create({ timeZone: "UTC" });
  parent.append("note", { parent: true });
  await runtime.store.flush(parent);
  const child = await runtime.fork(parent.id);
  const seq = child.append("note", { child: true }).seq;
  await runtime.store.flush(child);
  await settled();
  const own = seen.filter((e) => e.session === child.id).map((e) => e.seq);
  assert.ok((child.header.seedLength ?? 0) > 0);
  assert.deepEqual(own, [seq], "only the child's own event, never the copied prefix");
});

Deno.test("a throwing onDurable is reported and the commit stands", async () => {
  const errors: unknown[] = [];
  const plugin: Plugin = {
    name: "@test/throws",
    setup() {},
    web: {
      onDurable() {
        throw new Error("boom");
      },
    },
  };
  await using runtime = await testRuntime({
    plugins: [plugin],
    reportError: (e) => errors.push(e),
  });
  const { session } = await runtime.create({ timeZone: "UTC" });
  session.append("note", {});
  assert.equal(await runtime.store.flush(session), true);
  await settled();
  assert.equal(errors.length, 1);
  assert.equal(runtime.watermark.get(session), session.length);
});
