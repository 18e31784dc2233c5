import assert from "node:assert/strict";
import { PersistenceController } from "./coordinator.ts";
import { Session } from "./session.ts";
import { SessionError } from "./errors.ts";
import { MemoryBackend } from "./testing/memory_backend.ts";
import { header } from "../tests/session/_helpers.ts";
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";

const code = (c: string) => (e: unknown) => e instanceof SessionError && e.code === c;

function live(id = "s", events = 0): Session {
  const session = new Session({ header: header(id), now: () => 0 });
  for (let i = 0; i < events; i++) session.append("note", { i });
  return session;
}

Deno.test("`PersistenceController.flush()` rebuilds the prefix from the session scalar seedEnd", async () => {
  const backend = new MemoryBackend();
  const session = live("s", 3);
  await using controller = new PersistenceController(session, backend, 2);
  assert.equal(controller.seedEnd, 2);
  backend.failNext({ op: "initialize", when: "after" });
  backend.failNext({ op: "append", when: "after" });
  controller.start();
  await assert.rejects(controller.flush(3), code("persistence_failed"));
  assert.equal(await controller.flush(3), true);
  assert.deepEqual(backend.raw("s")?.events, session.events());
  assert.equal(backend.calls.initialize, 1);
});

Deno.test("`PersistenceController.flush()` fails while faults persist and recovers after", async () => {
  const backend = new MemoryBackend();
  const session = live("s", 1);
  await using controller = new PersistenceController(session, backend, 0);
  backend.failNext({ op: "initialize", when: "before" });
  await assert.rejects(
    controller.flush(1),
    (e) => code("persistence_failed")(e) && (e as Error).cause instanceof Error,
  );
  assert.equal(backend.raw("s"), undefined);
  assert.equal(await controller.flush(1), true);
  session.append("note", {});
  assert.equal(await controller.flush(2), true);
  assert.equal(backend.raw("s")?.events.length, 2);
});

Deno.test("`PersistenceController` refuses storage of another session lifetime", async () => {
  const backend = new MemoryBackend();
  await backend.initialize(header("s", { createdAt: "2020-01-01T00:00:00.000Z" }), []);
  await using controller = new PersistenceController(live("s", 1), backend, 0);
  await assert.rejects(controller.flush(1), code("persistence_failed"));
});

Deno.test("`PersistenceController` refuses storage longer than the live session", async () => {
  const backend = new MemoryBackend();
  await backend.initialize(header("s"), live("x", 3).events());
  await using controller = new PersistenceController(live("s", 1), backend, 1);
  await assert.rejects(controller.flush(1), code("persistence_failed"));
});

Deno.test("`PersistenceController.flush()` rejects a barrier beyond the live log", async () => {
  await using controller = new PersistenceController(live("s", 1), new MemoryBackend(), 0);
  await assert.rejects(controller.flush(5), code("persistence_failed"));
});

Deno.test("`PersistenceController` dispose waits for a parked write and stops eager writes", async () => {
  const backend = new MemoryBackend();
  const session = live("s", 1);
  const controller = new PersistenceController(session, backend, 0);
  backend.hold();
  controller.start();
  await new Promise((r) => setTimeout(r, 0));
  const disposed = controller[Symbol.asyncDispose]();
  backend.release();
  await disposed;
  assert.equal(backend.raw("s")?.events.length, 1);
  session.append("note", {});
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(backend.calls.append, 1);
});

Deno.test("`PersistenceController` disposed before its eager write writes nothing", async () => {
  const backend = new MemoryBackend();
  const controller = new PersistenceController(live("s", 1), backend, 0);
  controller.start();
  await controller[Symbol.asyncDispose]();
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(backend.raw("s"), undefined);
});

Deno.test("`PersistenceController` writes an append and the flush right after it once, flush first", async () => {
  const backend = new MemoryBackend();
  const session = live("s", 1);
  await using controller = new PersistenceController(session, backend, 0);
  assert.equal(await controller.flush(1), true);
  const writes = backend.calls.append ?? 0;
  session.append("note", { i: 1 });
  let acked = 0;
  const flushed = controller.flush(2, (through) => (acked = through));
  assert.equal(acked, 0, "not acknowledged before the write");
  assert.equal(await flushed, true);
  assert.equal(acked, 2);
  assert.equal(backend.calls.append, writes + 1, "the eager op behind it has nothing left");
  // The flush op is the write attempt: a fault fails the flush, the eager op behind it retries.
  session.append("note", { i: 2 });
  backend.failNext({ op: "append", when: "before" });
  await assert.rejects(controller.flush(3), code("persistence_failed"));
  assert.equal(await controller.flush(3), true);
  assert.deepEqual(backend.raw("s")?.events, session.events());
});

Deno.test("`PersistenceController` survives a backend that throws instead of rejecting", async () => {
  const inner = new MemoryBackend();
  let broken = false;
  const backend = Object.assign(Object.create(inner), {
    cursor: (id: string) => inner.cursor(id),
    initialize: (h: SessionHeader, e: readonly SessionEvent[]) => inner.initialize(h, e),
    append(id: string, events: readonly SessionEvent[]): Promise<void> {
      if (broken) throw new TypeError("not a promise");
      return inner.append(id, events);
    },
  }) as MemoryBackend;
  const session = live("s", 1);
  await using controller = new PersistenceController(session, backend, 0);
  assert.equal(await controller.flush(1), true);
  broken = true;
  session.append("note", {});
  await assert.rejects(
    controller.flush(2),
    (e) => code("persistence_failed")(e) && (e as Error).cause instanceof TypeError,
  );
  broken = false;
  assert.equal(await controller.flush(2), true);
  assert.equal(inner.raw("s")?.events.length, 2);
});

Deno.test("`PersistenceController` hands the backend each appended event's data text, until stored", async () => {
  const inner = new MemoryBackend();
  const seen: (readonly (string | undefined)[] | undefined)[] = [];
  const backend = Object.assign(Object.create(inner), {
    cursor: (id: string) => inner.cursor(id),
    initialize: (h: SessionHeader, e: readonly SessionEvent[]) => inner.initialize(h, e),
    append(id: string, events: readonly SessionEvent[], texts?: readonly (string | undefined)[]) {
      seen.push(texts);
      return inner.append(id, events);
    },
  }) as MemoryBackend;
  // Two events exist before the controller: it never saw their texts.
  const session = live("s", 2);
  await using controller = new PersistenceController(session, backend, 1);
  session.append("note", { i: 2 });
  assert.equal(await controller.flush(3), true);
  assert.deepEqual(seen, [undefined], "[1, 3) starts below the texts it holds");
  session.append("note", { i: 3, at: new Date(0) });
  session.append("note", [4]);
  inner.failNext({ op: "append", when: "after" });
  await assert.rejects(controller.flush(5), code("persistence_failed"));
  // Failed after commit: the retry finds storage complete and writes nothing more.
  assert.equal(await controller.flush(5), true);
  session.append("note", "five");
  assert.equal(await controller.flush(6), true);
  assert.deepEqual(seen.slice(1), [
    ['{"i":3,"at":"1970-01-01T00:00:00.000Z"}', "[4]"],
    ['"five"'],
  ]);
  assert.deepEqual(inner.raw("s")?.events, session.events());
});
