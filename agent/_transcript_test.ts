import assert from "node:assert/strict";
import type { SessionEvent } from "@chime/session";
import { markText, readMarks, STOPPED_NOTE, summarizeResult, SUPERSEDED_NOTE } from "./_marks.ts";
import { buildTranscript, transcriptTurns } from "./_transcript.ts";

function log(...entries: [string, Record<string, unknown>][]): SessionEvent[] {
  return entries.map(([type, data], seq) => ({ seq, type, at: "2026-01-01T00:00:00.000Z", data }));
}
const msg = (
  messageId: string,
  text: string,
  edits?: string,
): [string, Record<string, unknown>] => [
  "user-rpc",
  { messageId, text, source: { kind: "web" }, ...(edits ? { edits } : {}) },
];
const step = (turnId: string, ...messageIds: string[]): [string, Record<string, unknown>] => [
  "step/start",
  { turnId, step: 0, messageIds },
];
const end = (
  turnId: string,
  outcome: string,
  stoppedMessageIds?: string[],
): [string, Record<string, unknown>] => [
  "turn/end",
  { turnId, outcome, ...(stoppedMessageIds ? { stoppedMessageIds } : {}) },
];
const users = (events: SessionEvent[]) =>
  buildTranscript(events).filter((m) => m.role === "user").map((m) => m.content);

Deno.test("buildTranscript() marks a stopped turn's messages and the queue the Stop took", () => {
  const events = log(
    msg("m1", "remind me in 1 hour to water the plants"),
    ["turn/start", { turnId: "t1" }],
    step("t1", "m1"),
    msg("m2", "remind me in 3 hours to buy milk"),
    end("t1", "cancelled", ["m1", "m2"]),
    msg("m3", "what time is it"),
    ["turn/start", { turnId: "t2" }],
    step("t2", "m3"),
    ["assistant/message", { turnId: "t2", text: "09:00" }],
    end("t2", "completed"),
    ["turn/start", { turnId: "t3" }],
    step("t3", "m2"),
    end("t3", "completed"),
  );
  assert.deepEqual(users(events), [
    `${STOPPED_NOTE}\nremind me in 1 hour to water the plants`,
    `${STOPPED_NOTE}\nremind me in 3 hours to buy milk`,
    "what time is it",
    "remind me in 3 hours to buy milk", // the retry asks again, plain
  ]);
}); // deno-fmt-ignore

Deno.test("buildTranscript() marks a cancelled turn from before stoppedMessageIds existed", () => {
  const events = log(msg("m1", "go"), ["turn/start", { turnId: "t1" }], step("t1", "m1"), end("t1", "cancelled"));
  assert.deepEqual(users(events), [`${STOPPED_NOTE}\ngo`]);
  const failed = log(msg("m1", "go"), ["turn/start", { turnId: "t1" }], step("t1", "m1"), end("t1", "error"));
  assert.deepEqual(users(failed), ["go"]);
}); // deno-fmt-ignore

Deno.test("buildTranscript() shows an edit as replacing its original, with what the original did", () => {
  const created = { ok: true, id: "sch_1", kind: "at", prompt: "call Bob", deliveryMode: "session-local", nested: { a: 1 } };
  const head = log(
    msg("m1", "remind me at 3pm to call Bob"),
    ["turn/start", { turnId: "t1" }],
    step("t1", "m1"),
    ["assistant/message", { turnId: "t1", text: "", toolCalls: [
      { id: "c1", name: "schedule_create", arguments: '{"prompt":"call Bob","at":{"date":"2026-01-15","time":"15:00"}}' },
      { id: "c2", name: "schedule_list", arguments: "" },
    ] }],
    ["tool/result", { turnId: "t1", callId: "c1", result: created }],
    end("t1", "cancelled", ["m1"]),
    msg("m2", "remind me at 4pm to call Bob", "m1"),
  );
  // Until the edit enters the conversation, the original stands (stopped, not superseded).
  assert.deepEqual(users(head), [`${STOPPED_NOTE}\nremind me at 3pm to call Bob`]);
  const events = [...head, ...log(["turn/start", { turnId: "t2" }], step("t2", "m2"))]
    .map((e, seq) => ({ ...e, seq }));
  const [original, edit] = users(events);
  assert.equal(original, `${STOPPED_NOTE}\n${SUPERSEDED_NOTE}\nremind me at 3pm to call Bob`);
  assert.equal(edit, [
    '[Edit: this message replaces the user\'s earlier message "remind me at 3pm to call Bob".',
    "What that earlier request did:",
    '- schedule_create {"prompt":"call Bob","at":{"date":"2026-01-15","time":"15:00"}} → {"ok":true,"id":"sch_1","kind":"at","prompt":"call Bob","deliveryMode":"session-local"}',
    "- schedule_list {} → (no result: the turn ended first)",
    "Bring those results in line with this version (change or undo them); do not do them twice.]",
    "remind me at 4pm to call Bob",
  ].join("\n"));
  const marks = readMarks(edit!);
  assert.equal(marks.text, "remind me at 4pm to call Bob");
  assert.deepEqual(marks.edit?.actions.map((a) => [a.name, a.result]), [
    ["schedule_create", { ok: true, id: "sch_1", kind: "at", prompt: "call Bob", deliveryMode: "session-local" }],
    ["schedule_list", undefined],
  ]);
}); // deno-fmt-ignore

Deno.test("buildTranscript() lists every earlier version's actions for an edit of an edit", () => {
  const events = log(
    msg("m1", "remind me at 3pm to call Bob"),
    ["turn/start", { turnId: "t1" }], step("t1", "m1"),
    ["assistant/message", { turnId: "t1", text: "", toolCalls: [{ id: "c1", name: "schedule_create", arguments: "{}" }] }],
    ["tool/result", { turnId: "t1", callId: "c1", result: { ok: true, id: "sch_1" } }],
    end("t1", "completed"),
    msg("m2", "remind me at 4pm to call Bob", "m1"),
    ["turn/start", { turnId: "t2" }], step("t2", "m2"),
    ["assistant/message", { turnId: "t2", text: "", toolCalls: [{ id: "c2", name: "schedule_update", arguments: '{"id":"sch_1"}' }] }],
    ["tool/result", { turnId: "t2", callId: "c2", result: { ok: true, id: "sch_1" } }],
    end("t2", "completed"),
    msg("m3", "what time is it", "m2"),
    ["turn/start", { turnId: "t3" }], step("t3", "m3"),
  );
  const all = users(events);
  assert.equal(all.length, 3);
  assert.ok(all[0]!.startsWith(SUPERSEDED_NOTE) && all[1]!.includes(SUPERSEDED_NOTE));
  const edit = readMarks(all[2]!);
  assert.equal(edit.edit?.original, "remind me at 4pm to call Bob");
  assert.deepEqual(edit.edit?.actions.map((a) => a.name), ["schedule_create", "schedule_update"]);
}); // deno-fmt-ignore

Deno.test("markText() and readMarks() round-trip; plain text stays plain", () => {
  const marked = { stopped: true, superseded: false, edit: { original: 'say "hi"\nthen', actions: [] }, text: "line 1\nline 2" };
  assert.deepEqual(readMarks(markText(marked)), marked);
  assert.deepEqual(readMarks("hello\nworld"), { stopped: false, superseded: false, text: "hello\nworld" });
  assert.deepEqual(summarizeResult({ ok: false, error: { code: "x", message: "m" } }), { ok: false, error: { code: "x" } });
  assert.equal(summarizeResult("text"), "text");
});

Deno.test("markText() and readMarks() round-trip an edit whose original is older than the window", () => {
  const actionsOmitted = {
    stopped: false,
    superseded: false,
    edit: { original: "at 9", actions: [], actionsOmitted: true },
    text: "at 10",
  };
  assert.deepEqual(readMarks(markText(actionsOmitted)), actionsOmitted);
  assert.match(markText(actionsOmitted), /What that earlier request did: omitted/);
  const originalOmitted = {
    stopped: false,
    superseded: false,
    edit: { original: "", actions: [], originalOmitted: true, actionsOmitted: true },
    text: "at 10",
  };
  assert.deepEqual(readMarks(markText(originalOmitted)), originalOmitted);
  assert.match(
    markText(originalOmitted),
    /replaces an earlier message of the user that is older than this conversation \(omitted\)/,
  );
}); // deno-fmt-ignore

Deno.test("transcriptTurns() cuts at each turn/start; the prompts right before it belong to it", () => {
  const events = log(
    ["session/start", {}],
    msg("m1", "one"),
    ["turn/start", { turnId: "t1" }],
    step("t1", "m1"),
    ["assistant/message", { turnId: "t1", text: "", toolCalls: [{ id: "c1", name: "x", arguments: "{}" }] }],
    msg("m2", "two"),
    msg("m3", "three"),
    ["turn/start", { turnId: "t2" }],
    step("t2", "m2", "m3"),
  );
  const turns = transcriptTurns(events);
  assert.deepEqual(turns.map((t) => [t.start, t.turnId]), [[0, undefined], [1, "t1"], [5, "t2"]]);
  // The unanswered call of t1 gets its result inside t1, never in the next turn.
  assert.deepEqual(turns[1]!.messages.map((m) => m.role), ["user", "assistant", "tool"]);
  assert.deepEqual(turns[2]!.messages.map((m) => m.content), ["two", "three"]);
}); // deno-fmt-ignore

Deno.test("buildTranscript() gives an edit only the actions of its own request, not a steered one's", () => {
  const call = (id: string, prompt: string) => ({
    id,
    name: "schedule_create",
    arguments: JSON.stringify({ prompt }),
  });
  const events = log(
    msg("m1", "remind me at 6pm to water the plants"),
    ["turn/start", { turnId: "t1" }],
    step("t1", "m1"),
    ["assistant/message", { turnId: "t1", text: "", toolCalls: [call("c1", "water the plants")] }],
    ["tool/result", { turnId: "t1", callId: "c1", result: { ok: true, id: "sch_1" } }],
    msg("m2", "remind me at 7pm to call mom"),
    ["step/start", { turnId: "t1", step: 1, messageIds: ["m2"] }],
    ["assistant/message", { turnId: "t1", text: "", toolCalls: [call("c2", "call mom")] }],
    ["tool/result", { turnId: "t1", callId: "c2", result: { ok: true, id: "sch_2" } }],
    ["step/start", { turnId: "t1", step: 2, messageIds: [] }],
    ["assistant/message", { turnId: "t1", text: "", toolCalls: [call("c3", "call mom too")] }],
    ["tool/result", { turnId: "t1", callId: "c3", result: { ok: true, id: "sch_3" } }],
    end("t1", "completed"),
    msg("m3", "remind me at 8pm to call dad", "m2"),
    ["turn/start", { turnId: "t2" }],
    step("t2", "m3"),
  );
  const edit = readMarks(users(events).at(-1)!);
  assert.deepEqual(edit.edit?.actions.map((a) => (a.args as { prompt: string }).prompt), [
    "call mom",
    "call mom too",
  ]);
});
