import { deepEqual, equal } from "node:assert/strict";
import { messageStates, turnOpen } from "./lifecycle.ts";
import type { WireEvent } from "../wire.ts";

const at = "2030-01-01T00:00:00.000Z";
let seq = 0;
const ev = (type: string, data: unknown): WireEvent => ({ seq: seq++, type, at, data });

Deno.test("messageStates() marks a message queued, then steering once a later step claims it", () => {
  seq = 0;
  const head = [
    ev("user-rpc", { messageId: "a", text: "first" }),
    ev("turn/start", { turnId: "t" }),
    ev("step/start", { turnId: "t", step: 0, messageIds: ["a"] }),
    ev("user-rpc", { messageId: "b", text: "steer" }),
  ];
  deepEqual([...messageStates(head)], [[3, "queued"]]);
  equal(turnOpen(head), true);
  const claimed = [...head, ev("step/start", { turnId: "t", step: 1, messageIds: ["b"] })];
  deepEqual([...messageStates(claimed)], [[3, "steering"]]);
  const ended = [...claimed, ev("turn/end", { turnId: "t", outcome: "completed" })];
  deepEqual([...messageStates(ended)], [[3, "steering"]]);
  equal(turnOpen(ended), false);
});

Deno.test("messageStates() leaves a message plain when a new turn's first step claims it", () => {
  seq = 0;
  const events = [
    ev("user-rpc", { messageId: "a", text: "first" }),
    ev("turn/start", { turnId: "t" }),
    ev("step/start", { turnId: "t", step: 0, messageIds: ["a"] }),
    ev("turn/end", { turnId: "t", outcome: "completed" }),
    ev("user-rpc", { messageId: "b", text: "next" }),
  ];
  deepEqual([...messageStates(events)], [[4, "queued"]]);
  const started = [
    ...events,
    ev("turn/start", { turnId: "u" }),
    ev("step/start", { turnId: "u", step: 0, messageIds: ["b"] }),
  ];
  deepEqual([...messageStates(started)], []);
});

Deno.test("messageStates() does not keep a message queued forever after its turn was cancelled", () => {
  seq = 0;
  const events = [
    ev("turn/start", { turnId: "t" }),
    ev("user-rpc", { messageId: "a", text: "never claimed" }),
    ev("turn/end", { turnId: "t", outcome: "cancelled" }),
    ev("turn/start", { turnId: "u" }),
    ev("turn/end", { turnId: "u", outcome: "error" }),
  ];
  deepEqual([...messageStates(events)], []);
});

Deno.test("messageStates() marks the messages a Stop ended as stopped until a retry claims one", () => {
  seq = 0;
  const stopped = [
    ev("user-rpc", { messageId: "a", text: "remind me at 3pm to call Bob" }),
    ev("turn/start", { turnId: "t" }),
    ev("step/start", { turnId: "t", step: 0, messageIds: ["a"] }),
    ev("user-rpc", { messageId: "b", text: "and buy milk" }),
    ev("turn/end", { turnId: "t", outcome: "cancelled", stoppedMessageIds: ["a", "b"] }),
  ];
  deepEqual([...messageStates(stopped)], [[0, "stopped"], [3, "stopped"]]);
  const retried = [
    ...stopped,
    ev("turn/start", { turnId: "u" }),
    ev("step/start", { turnId: "u", step: 0, messageIds: ["b"] }),
    ev("turn/end", { turnId: "u", outcome: "completed" }),
  ];
  deepEqual([...messageStates(retried)], [[0, "stopped"]]);
});

Deno.test("messageStates() marks an edited message replaced; a Stop never overrides it", () => {
  seq = 0;
  const events = [
    ev("user-rpc", { messageId: "a", text: "remind me at 3pm to call Bob" }),
    ev("turn/start", { turnId: "t" }),
    ev("step/start", { turnId: "t", step: 0, messageIds: ["a"] }),
    ev("turn/end", { turnId: "t", outcome: "completed" }),
    ev("user-rpc", { messageId: "b", text: "remind me at 4pm to call Bob", edits: "a" }),
  ];
  deepEqual([...messageStates(events)], [[0, "replaced"], [4, "queued"]]);
  const stopped = [
    ...events,
    ev("turn/start", { turnId: "u" }),
    ev("step/start", { turnId: "u", step: 0, messageIds: ["b"] }),
    ev("turn/end", { turnId: "u", outcome: "cancelled", stoppedMessageIds: ["b", "a"] }),
  ];
  deepEqual([...messageStates(stopped)], [[0, "replaced"], [4, "stopped"]]);
});

Deno.test("regression: every message of an edit tree but its newest is replaced, as a retry runs", () => {
  seq = 0;
  const turn = (id: string, turnId: string) => [
    ev("turn/start", { turnId }),
    ev("step/start", { turnId, step: 0, messageIds: [id] }),
    ev("turn/end", { turnId, outcome: "completed" }),
  ];
  // A edited to B, A edited again to C (Edit stays on a replaced message), B edited to D.
  const events = [
    ev("user-rpc", { messageId: "A", text: "tea at 3" }),
    ...turn("A", "t1"),
    ev("user-rpc", { messageId: "B", text: "tea at 4", edits: "A" }),
    ...turn("B", "t2"),
    ev("user-rpc", { messageId: "C", text: "tea at 5", edits: "A" }),
    ...turn("C", "t3"),
    ev("user-rpc", { messageId: "D", text: "tea at 6", edits: "B" }),
    ...turn("D", "t4"),
  ];
  deepEqual([...messageStates(events)].sort((x, y) => x[0] - y[0]), [
    [0, "replaced"],
    [4, "replaced"],
    [8, "replaced"],
  ], "only D, the newest (what a retry of any of them runs), is current");
  // An edit whose original lies before the window still joins the tree of that original.
  seq = 0;
  const window = [
    ev("user-rpc", { messageId: "E", text: "x", edits: "Z" }),
    ...turn("E", "t5"),
    ev("user-rpc", { messageId: "F", text: "y", edits: "Z" }),
  ];
  deepEqual([...messageStates(window)], [[0, "replaced"], [4, "queued"]]);
});
