/** fast-check properties of append/flush ordering and fork prefixes. */
import assert from "node:assert/strict";
import fc from "fast-check";
import { SessionStore } from "../../session/store.ts";
import { MemoryBackend } from "../../session/testing/memory_backend.ts";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import { tempDir } from "./_helpers.ts";

type Op = { kind: "append"; count: number } | { kind: "flush"; fault: "none" | "before" | "after" };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant("flush" as const),
    fault: fc.constantFrom("none" as const, "before" as const, "after" as const),
  }),
);

Deno.test("`flush()` acknowledgements are monotonic and always covered by storage", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
      const backend = new MemoryBackend();
      await using store = new SessionStore({ backend });
      const session = await store.create({ cwd: "/", id: "p" });
      const observed: number[] = [];
      using _ = store.onFlushed((_s, through) => observed.push(through));
      for (const step of ops) {
        if (step.kind === "append") {
          for (let i = 0; i < step.count; i++) store.append(session, "note", { i });
          continue;
        }
        const unwritten = (backend.raw("p")?.events.length ?? 0) < session.length;
        if (step.fault !== "none" && unwritten) {
          backend.failNext({ op: "append", when: step.fault });
          backend.failNext({ op: "append", when: step.fault });
        }
        const through = session.length;
        const acked = await store.flush(session).catch(() => false);
        if (acked) {
          assert.equal(observed.at(-1), through);
          assert.ok((backend.raw("p")?.events.length ?? 0) >= through);
        }
      }
      // Faults armed for writes that never happened are still pending; each try spends one.
      let acked = false;
      for (let i = 0; i < 2 * ops.length + 1 && !acked; i++) {
        acked = await store.flush(session).catch(() => false);
      }
      assert.ok(acked);
      assert.deepEqual(backend.raw("p")?.events, session.events());
      assert.deepEqual(observed, [...observed].sort((a, b) => a - b));
    }),
    { numRuns: 150 },
  );
});

Deno.test("`fork()` children hold exactly the parent prefix plus session/end-seed", async () => {
  await using dir = await tempDir();
  await using store = new SessionStore({
    backend: await LibsqlBackend.open({ url: `file:${dir.path}/f.db` }),
  });
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 12 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      async (length, pick) => {
        const parent = await store.create({ cwd: "/", id: `parent${n++}`, timeZone: "UTC" });
        for (let i = 0; i < length; i++) store.append(parent, "note", { i });
        // `pick` may be exactly 1: clamp to the last parent seq.
        const through = Math.min(length - 1, Math.floor(pick * (length + 1)) - 1);
        const child = await store.fork(parent, { throughSeq: through, id: `child${n++}` });
        assert.deepEqual(child.events(0, through + 1), parent.events(0, through + 1));
        assert.deepEqual(child.event(through + 1)?.data, { seedLength: through + 2 });
        assert.equal(child.header.seedLength, through + 2);
        assert.equal(child.header.timeZone, "UTC");
        store.append(child, "note", { own: true });
        assert.equal(await store.flush(child), true);
        assert.deepEqual((await store.inspect(child.id))?.events, child.events());
      },
    ),
    { numRuns: 40 },
  );
});
