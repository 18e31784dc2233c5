// Private: the model-facing names, descriptions and JSON Schemas of the three schedule tools
// (ARCHITECTURE.md §6 "Tools"). Kept apart from the transaction code in tools.ts.
import type { ModelToolSpec } from "@chime/agent";

const SESSION_LOCAL = "Reminders are session-local: they fire only while this chat session is " +
  "open (live); if it is closed when one falls due, it is delivered as overdue the next time the " +
  "session is opened. Nothing is sent outside this chat.";

/** `schedule_create`. */
export const CREATE_SPEC: ModelToolSpec = {
  name: "schedule_create",
  description: "Create a one-time reminder in this chat session. When it falls due you receive a " +
    "[reminder] follow-up message with the prompt, and should then remind the user. Give " +
    "`prompt` and exactly ONE of `after_seconds` or `at`. Use `after_seconds` for relative " +
    'delays ("in 20 minutes" → 1200). Use `at` for a clock time: either an RFC 3339 string ' +
    'with seconds and `Z` or a numeric offset ("2026-03-01T09:00:00+08:00"), or a local ' +
    "`{ date, time }` object read in the session's time zone from the [time-context] reading; " +
    'add `time_zone` (IANA name such as "America/New_York") only when the user names a zone ' +
    "or confirms one. Recurring reminders are not supported: never send `every_seconds` or " +
    "`cron`. If the result is `timezone_confirmation_required`, ask the user which of " +
    "`knownTimeZones` they mean and retry with `time_zone`. If it is `persistence_uncertain`, " +
    "call `schedule_list` before retrying, to avoid a duplicate. " + SESSION_LOCAL,
  parameters: {
    type: "object",
    properties: {
      prompt: {
        type: "string",
        minLength: 1,
        description: "What to remind the user about, in their own words (non-empty).",
      },
      after_seconds: {
        type: "integer",
        minimum: 1,
        description: "Delay from now in whole seconds (positive), for relative requests.",
      },
      at: {
        description: "Absolute target, strictly in the future. Either a string or an object.",
        anyOf: [
          {
            type: "string",
            description: "RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS with uppercase T, seconds, " +
              'and `Z` or `±HH:MM`, e.g. "2026-03-01T01:00:00Z".',
          },
          {
            type: "object",
            properties: {
              date: { type: "string", description: "Local calendar date, YYYY-MM-DD." },
              time: { type: "string", description: "Local 24-hour time, HH:MM or HH:MM:SS." },
              time_zone: {
                type: "string",
                description: "IANA zone name; only when the user named or confirmed a zone. " +
                  "Omit it to use the session's own zone.",
              },
            },
            required: ["date", "time"],
            additionalProperties: false,
          },
        ],
      },
    },
    required: ["prompt"],
    additionalProperties: false,
  },
};

/** `schedule_list`. */
export const LIST_SPEC: ModelToolSpec = {
  name: "schedule_list",
  description: "List this session's active (pending) reminders with their id, prompt, UTC " +
    "`scheduledAt` and `status` (`scheduled`, or `overdue` when due but not yet delivered). " +
    "Takes no arguments. " + SESSION_LOCAL,
  parameters: { type: "object", properties: {}, additionalProperties: false },
};

/** `schedule_delete`. */
export const DELETE_SPEC: ModelToolSpec = {
  name: "schedule_delete",
  description: "Cancel one active reminder of this session by its `id` (as returned by " +
    '`schedule_create` or `schedule_list`, e.g. "sch_…"). A reminder that was already ' +
    "delivered or deleted returns `schedule_not_active`; an unknown id returns " +
    "`schedule_not_found`.",
  parameters: {
    type: "object",
    properties: {
      id: { type: "string", description: "The reminder id, starting with `sch_`." },
    },
    required: ["id"],
    additionalProperties: false,
  },
};
