import assert from "node:assert/strict";
import { ScheduleFifo } from "./fifo.ts";

Deno.test("ScheduleFifo.run() runs transactions one at a time in arrival order", async () => {
  const fifo = new ScheduleFifo();
  const order: string[] = [];
  const gate = Promise.withResolvers<void>();
  const first = fifo.run(async () => {
    order.push("a:start");
    await gate.promise;
    order.push("a:end");
    return "a";
  });
  const second = fifo.run(() => {
    order.push("b");
    return Promise.resolve("b");
  });
  assert.equal(fifo.pending, 2);
  await Promise.resolve();
  assert.deepEqual(order, ["a:start"]);
  gate.resolve();
  assert.deepEqual(await Promise.all([first, second]), ["a", "b"]);
  assert.deepEqual(order, ["a:start", "a:end", "b"]);
  await fifo.drained();
  assert.equal(fifo.pending, 0);
});

Deno.test("ScheduleFifo.run() keeps going after a failed transaction", async () => {
  const fifo = new ScheduleFifo();
  const failed = fifo.run(() => Promise.reject(new Error("boom")));
  const next = fifo.run(() => Promise.resolve(42));
  await assert.rejects(failed, /boom/);
  assert.equal(await next, 42);
  await fifo.drained();
  assert.equal(fifo.pending, 0);
});
