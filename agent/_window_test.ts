import assert from "node:assert/strict";
import { Session, type SessionEvent } from "@chime/session";
import { estimateMessageTokens } from "./context_budget.ts";
import { History } from "./_history.ts";
import { readMarks, STOPPED_NOTE } from "./_marks.ts";
import { buildTranscript } from "./_transcript.ts";
import {
  buildWindow,
  estimateHeld,
  fitTurns,
  joinEstimates,
  omissionNote,
  WindowState,
} from "./_window.ts";
import { PAGE } from "./_history.ts";
import { BoundedSession } from "./testing/bounded_session.ts";
import { longLog, longLogEvent, TURN_EVENTS } from "./testing/long_log.ts";
import type { ModelMessage } from "./types.ts";

type Entry = [string, Record<string, unknown>];

function bounded(entries: readonly Entry[], liveTail = 20): BoundedSession {
  return new BoundedSession({
    now: () => 0,
    prefix: entries.length,
    generate: (seq) => ({ type: entries[seq]![0], data: entries[seq]![1] }),
    liveTail,
  });
}

function generated(turns: number, liveTail = 20): BoundedSession {
  return new BoundedSession({
    now: () => 0,
    prefix: turns * TURN_EVENTS,
    generate: longLogEvent,
    liveTail,
  });
}

const history = (s: BoundedSession) => new History(s, s.read);
const tokens = (messages: readonly ModelMessage[]) =>
  messages.reduce((n, m) => n + estimateMessageTokens(m), 0);

/** Every tool message answers a call of the assistant message before it in `messages`. */
function pairsWhole(messages: readonly ModelMessage[]): boolean {
  let open: string[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      if (!open.includes(m.toolCallId)) return false;
      open = open.filter((id) => id !== m.toolCallId);
    } else {
      if (open.length > 0) return false;
      open = m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [];
    }
  }
  return open.length === 0;
}

Deno.test("fitTurns() keeps the newest turns that fit, oldest dropped first, never a hole", () => {
  assert.deepEqual(fitTurns([10, 10, 10], 25, 3), { from: 1, tokens: 20, over: false });
  // An older small turn behind one that does not fit stays out: drops are a prefix.
  assert.deepEqual(fitTurns([5, 30, 5], 25, 3), { from: 2, tokens: 5, over: false });
  // The turns that must stay are kept even over the room.
  assert.deepEqual(fitTurns([10, 10, 50], 25, 2), { from: 2, tokens: 50, over: true });
  assert.deepEqual(fitTurns([], 25, 0), { from: 0, tokens: 0, over: false });
});

Deno.test("buildWindow() of a log that fits is the whole transcript, with no note", async () => {
  const events = longLog(10 * TURN_EVENTS) as SessionEvent[];
  const session = new Session({
    header: {
      version: 1,
      id: "s",
      cwd: "/",
      createdAt: "2026-01-01T00:00:00.000Z",
      origin: "test",
      lineage: null,
      delegationDepth: 0,
    },
    events,
    now: () => 0,
  });
  // Today's Session: the whole log in memory, read through session.events().
  const window = await buildWindow(
    new History(session, (from, to) => Promise.resolve(session.events(from, to))),
    { budget: 64_000, fixed: 0 },
  );
  assert.deepEqual(window.messages, buildTranscript(events));
  assert.equal(window.omitted, 0);
  assert.equal(window.over, false);
});

Deno.test("buildWindow() drops whole old turns, counts them exactly and never splits a tool call from its result", async () => {
  const session = generated(1_000);
  const budget = 2_000;
  const window = await buildWindow(history(session), { budget, fixed: 100, turnId: "t999" });
  const [note, first, ...rest] = window.messages;
  // The window starts at a turn: its user message, whose turn/start is the first kept event.
  const firstTurn = Number(/^question (\d+):/.exec(first!.content)![1]);
  assert.equal(first!.role, "user");
  assert.deepEqual(note, omissionNote(firstTurn * TURN_EVENTS));
  assert.equal(window.omitted, firstTurn * TURN_EVENTS);
  assert.ok(firstTurn > 900 && firstTurn < 999, `first kept turn ${firstTurn}`);
  // Kept turns are whole: 4 messages each, up to the last one.
  assert.equal(rest.length + 1, (1_000 - firstTurn) * 4);
  assert.equal(rest.at(-1)!.content, "answer 999: nothing due.");
  assert.ok(pairsWhole([first!, ...rest]));
  assert.equal(window.tokens, tokens(window.messages));
  assert.ok(100 + window.tokens <= budget, `${window.tokens} tokens`);
  // One more turn would not have fitted (the note's room is reserved at its longest).
  const previous = Array.from({ length: TURN_EVENTS }, (_, i) => {
    const seq = (firstTurn - 1) * TURN_EVENTS + i;
    return { seq, at: "", ...longLogEvent(seq) };
  });
  assert.ok(100 + window.tokens + tokens(buildTranscript(previous)) > budget - 20);
  // Bounded reads: a few pages, not the log.
  assert.ok(session.served < 2_000, `${session.served} events read`);
  assert.equal(session.refused, 0);
});

Deno.test("buildWindow() keeps the current turn whole even over the budget and says so", async () => {
  const entries: Entry[] = [
    ...longLog(3 * TURN_EVENTS).map((e): Entry => [e.type, e.data as Record<string, unknown>]),
    ["user-rpc", { messageId: "big", text: "x".repeat(30_000), source: { kind: "web" } }],
    ["turn/start", { turnId: "now" }],
    ["followup", { frame: "[reminder] stretch" }],
    ["step/start", { turnId: "now", step: 0, messageIds: ["big"] }],
    ["assistant/message", {
      turnId: "now",
      text: "",
      toolCalls: [{ id: "k", name: "list", arguments: "{}" }],
    }],
    ["tool/call", { turnId: "now", callId: "k", name: "list", args: {} }],
  ]; // deno-fmt-ignore
  const window = await buildWindow(history(bounded(entries)), {
    budget: 2_000,
    fixed: 0,
    turnId: "now",
  });
  assert.equal(window.over, true);
  assert.deepEqual(window.messages.map((m) => m.role), [
    "system",
    "user",
    "user",
    "assistant",
    "tool",
  ]);
  assert.deepEqual(window.messages[0], omissionNote(3 * TURN_EVENTS));
  assert.equal(window.messages[1]!.content, "[reminder] stretch");
  assert.equal(window.messages[2]!.content.length, 30_000);
  // The call still running has its (unrecorded) result right after it.
  assert.ok(pairsWhole(window.messages.slice(1)));
});

Deno.test("buildWindow() finds a retried message older than what it read, and its stop mark", async () => {
  const entries: Entry[] = [
    ["user-rpc", { messageId: "old", text: "remind me at 9", source: { kind: "web" } }],
    ["turn/start", { turnId: "t-old" }],
    ["step/start", { turnId: "t-old", step: 0, messageIds: ["old"] }],
    ["turn/end", { turnId: "t-old", outcome: "cancelled", stoppedMessageIds: ["old"] }],
    ...longLog(400 * TURN_EVENTS).map((e): Entry => [e.type, e.data as Record<string, unknown>]),
    ["turn/start", { turnId: "retry" }],
    ["step/start", { turnId: "retry", step: 0, messageIds: ["old"] }],
    ["turn/end", { turnId: "retry", outcome: "cancelled", stoppedMessageIds: ["old"] }],
    ["turn/start", { turnId: "now" }],
  ];
  const session = bounded(entries);
  const state = new WindowState();
  const window = await buildWindow(history(session), {
    budget: 1_000,
    fixed: 0,
    turnId: "now",
    state,
  });
  const stopped = window.messages.find((m) => m.content.endsWith("remind me at 9"));
  assert.equal(stopped?.content, `${STOPPED_NOTE}\nremind me at 9`);
  assert.ok(state.messages.has("old"), "the lookup is cached for the next request");
  const served = session.served;
  const again = await buildWindow(history(session), {
    budget: 1_000,
    fixed: 0,
    turnId: "now",
    state,
  });
  assert.equal(session.served, served, "the second request reads nothing: nothing was appended");
  assert.equal(again.read, 0);
  assert.deepEqual(again.messages, window.messages);
});

Deno.test("buildWindow() edit notes: what the original did when it was read, omitted when it is older", async () => {
  const original: Entry[] = [
    ["user-rpc", { messageId: "o", text: "remind me at 9 to call Bob", source: { kind: "web" } }],
    ["turn/start", { turnId: "t-o" }],
    ["step/start", { turnId: "t-o", step: 0, messageIds: ["o"] }],
    ["assistant/message", {
      turnId: "t-o",
      text: "",
      toolCalls: [{ id: "s1", name: "schedule_create", arguments: '{"prompt":"call Bob"}' }],
    }],
    ["tool/result", { turnId: "t-o", callId: "s1", result: { ok: true, id: "sch_1" } }],
    ["turn/end", { turnId: "t-o", outcome: "completed" }],
  ]; // deno-fmt-ignore
  const edit = (filler: number): Entry[] => [
    ...original,
    ...longLog(filler * TURN_EVENTS).map((e): Entry => [e.type, e.data as Record<string, unknown>]),
    ["user-rpc", { messageId: "e", text: "at 10 instead", edits: "o", source: { kind: "web" } }],
    ["turn/start", { turnId: "now" }],
    ["step/start", { turnId: "now", step: 0, messageIds: ["e"] }],
  ];
  const editOf = async (filler: number) => {
    const window = await buildWindow(history(bounded(edit(filler))), {
      budget: 600,
      fixed: 0,
      turnId: "now",
    });
    assert.ok(window.omitted > 0);
    return readMarks(window.messages.at(-1)!.content);
  };
  // The original's turn was read (the window is cut right after it): its action is named.
  const near = await editOf(14);
  assert.equal(near.text, "at 10 instead");
  assert.equal(near.edit?.original, "remind me at 9 to call Bob");
  assert.deepEqual(near.edit?.actions, [
    { name: "schedule_create", args: { prompt: "call Bob" }, result: { ok: true, id: "sch_1" } },
  ]);
  // Far older than anything read: the original is found, what it did is said to be omitted.
  const far = await editOf(2_000);
  assert.equal(far.edit?.original, "remind me at 9 to call Bob");
  assert.equal(far.edit?.actionsOmitted, true);
  assert.deepEqual(far.edit?.actions, []);
});

Deno.test("buildWindow() kept between requests sends what a fresh build sends, reading only the appended events", async () => {
  const session = generated(2_000);
  const state = new WindowState();
  const first = await buildWindow(history(session), { budget: 2_000, fixed: 100, state });
  assert.ok(first.read > 0 && first.held < 2 * 1_024, `${first.held} events held`);
  for (let t = 2_000; t < 2_040; t++) {
    for (let i = 0; i < TURN_EVENTS; i++) {
      const { type, data } = longLogEvent(t * TURN_EVENTS + i);
      session.append(type, data);
    }
    const served = session.served;
    const kept = await buildWindow(history(session), { budget: 2_000, fixed: 100, state });
    assert.equal(kept.read, TURN_EVENTS, "only the appended turn is read");
    assert.equal(session.served, served, "and it came from memory");
    assert.ok(kept.held < 2 * 1_024, `${kept.held} events held`);
    const fresh = await buildWindow(history(session), { budget: 2_000, fixed: 100 });
    assert.deepEqual(kept.messages, fresh.messages);
    assert.equal(kept.omitted, fresh.omitted);
  }
  // A larger budget reads the older pages it now has room for, then holds still.
  const wider = await buildWindow(history(session), { budget: 8_000, fixed: 100, state });
  assert.ok(wider.read > 0);
  const fresh = await buildWindow(history(session), { budget: 8_000, fixed: 100 });
  assert.deepEqual(wider.messages, fresh.messages);
  assert.equal((await buildWindow(history(session), { budget: 8_000, fixed: 100, state })).read, 0);
});

Deno.test("buildWindow() reads a long log one page at a time: at most a page beyond what it holds", async () => {
  const session = generated(3_000);
  const state = new WindowState();
  const first = await buildWindow(history(session), { budget: 32_000, fixed: 2_000, state });
  assert.ok(first.omitted > 0);
  // The window starts at the newest turn that did not fit; what was read below it is at most
  // the page whose fit ended the reading (pages doubling in size read up to twice the window).
  assert.ok(first.read - first.held <= PAGE, `${first.read} read, ${first.held} held`);
  const fresh = await buildWindow(history(session), { budget: 32_000, fixed: 2_000 });
  assert.deepEqual(first.messages, fresh.messages);
});

Deno.test("estimateHeld() of a log is the join of its pages' estimates, wherever it is cut", () => {
  const events = longLog(40 * TURN_EVENTS) as SessionEvent[];
  const whole = estimateHeld(events);
  for (const cut of [0, 1, 3, TURN_EVENTS, 7 * TURN_EVENTS + 2, events.length]) {
    const joined = joinEstimates(
      estimateHeld(events.slice(0, cut)),
      estimateHeld(events.slice(cut)),
    );
    assert.deepEqual(joined, whole, `cut at ${cut}`);
  }
  // Nothing counts before the first turn/start: the turn before it may be partial.
  assert.equal(estimateHeld(events.slice(1)).started < whole.all, true);
});
