/** Shared fixtures of the offline model tests (a `_test.ts` file so it is never published). */
import assert from "node:assert/strict";
import { canonicalRule, nextOccurrence } from "@chime/schedule";
import { OfflineModel } from "./model.ts";
import type { ModelMessage, ModelReply, ModelToolSpec } from "@chime/agent";

export const NOW = Date.parse("2026-11-29T08:15:00Z");
/** Wednesday 2 December 18:30 in New York, Thursday 3 December 07:30 in Shanghai. */
export const DEC_NOW = Date.parse("2026-12-02T23:30:00Z");
/** The two zones the phrase tables read in (a day behind and ahead of UTC). */
export const NY = "America/New_York";
/** See {@linkcode NY}. */
export const SH = "Asia/Shanghai";
export const TOOLS: readonly ModelToolSpec[] = [
  "schedule_create",
  "schedule_list",
  "schedule_delete",
]
  .map((name) => ({ name, description: name, parameters: { type: "object" } }));

/** The v2 tools of docs/recurring.md: `schedule_create` takes `repeat`. */
export const TOOLS_V2: readonly ModelToolSpec[] = [
  "schedule_create",
  "schedule_list",
  "schedule_update",
  "schedule_delete",
  "schedule_snooze",
].map((name) => ({
  name,
  description: name,
  parameters: name === "schedule_create"
    ? { type: "object", properties: { prompt: {}, after_seconds: {}, at: {}, repeat: {} } }
    : { type: "object" },
}));

export function complete(
  messages: readonly ModelMessage[],
  options: { tools?: readonly ModelToolSpec[]; timeZone?: string | undefined } = {},
): Promise<ModelReply> {
  const timeZone = "timeZone" in options ? options.timeZone : "Europe/Berlin";
  return new OfflineModel().complete({
    messages,
    tools: options.tools ?? TOOLS,
    signal: new AbortController().signal,
    context: timeZone === undefined ? { now: NOW } : { now: NOW, timeZone },
  });
}

export const user = (content: string): ModelMessage => ({ role: "user", content });
export const calls = (reply: ModelReply) =>
  reply.toolCalls.map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.arguments) }));
export const called = (id: string, name: string, args: unknown): ModelMessage => ({
  role: "assistant",
  content: "",
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});
export const result = (toolCallId: string, value: unknown): ModelMessage => ({
  role: "tool",
  toolCallId,
  content: JSON.stringify(value),
});
export const frame = (data: Record<string, unknown>) =>
  `<schedule-reminder>\n${
    JSON.stringify(data)
  }\n</schedule-reminder>\nTell the user about this reminder now.`;

/**
 * Asserts a rule the model wrote is canonical and that the schedule engine's first occurrence
 * after `now`, from DTSTART = the model's start (`first`, local `YYYY-MM-DDTHH:MM` in `zone`),
 * is that start: the reminder the tools store fires when the test says.
 */
export function assertStartIsFirst(rrule: string, first: string, zone: string, now: number): void {
  assert.equal(canonicalRule(rrule), rrule);
  const dtstart = `${first}:00`;
  const next = nextOccurrence({ rrule, dtstart, timeZone: zone }, now);
  const want = Temporal.PlainDateTime.from(dtstart).toZonedDateTime(zone);
  assert.equal(next, want.epochMilliseconds, "the engine's first occurrence is the start");
}
