/**
 * `@chime/offline` is the keyless default model: a deterministic model adapter that reads
 * reminder requests in English and Chinese (create, list, cancel, snooze, move, repeat, pause,
 * resume, skip, a new text) and answers tool results and reminder frames with short texts. It speaks the contracts of the
 * members it talks to by importing them: the schedule tools' names, argument shapes and frame
 * from `@chime/schedule`, the time-context heading from `@chime/timecontext` and the model and
 * transcript-note types from `@chime/agent` (docs/architecture.md).
 *
 * @example Ask for a reminder
 * ```ts
 * import assert from "node:assert/strict";
 * import { OfflineModel } from "@chime/offline";
 *
 * const model = new OfflineModel();
 * const reply = await model.complete({
 *   messages: [{ role: "user", content: "remind me in 20 minutes to stretch" }],
 *   tools: [{ name: "schedule_create", description: "", parameters: {} }],
 *   signal: new AbortController().signal,
 *   context: { now: Date.parse("2026-11-29T08:15:00Z"), timeZone: "Europe/Berlin" },
 * });
 * assert.equal(reply.toolCalls[0]?.name, "schedule_create");
 * ```
 *
 * @module
 */
export { OfflineModel } from "./model.ts";
// Model types in this package's signatures, re-exported for documentation.
export type {
  ModelAdapter,
  ModelMessage,
  ModelReply,
  ModelRequest,
  ModelToolCall,
  ModelToolSpec,
} from "@chime/agent";
