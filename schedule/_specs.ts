// Private: the model-facing names, descriptions and JSON Schemas of the schedule tools
// (ARCHITECTURE.md §6 "Tools"; docs/recurring.md "Tools"). Kept apart from the transaction code
// in tools.ts; specs_test.ts holds them in step with the validators in rules.ts.
import type { ModelToolSpec } from "@chime/agent";
import { MAX_COUNT, MAX_INTERVAL } from "./_rrule_parse.ts";
import { MAX_PROMPT_LENGTH, MAX_SNOOZE_SECONDS, MIN_SNOOZE_SECONDS } from "./rules.ts";

const SESSION_LOCAL = "Reminders are session-local: they fire only while this chat session is " +
  "open (live); if it is closed when one falls due, it is delivered as overdue the next time the " +
  "session is opened. Nothing is sent outside this chat.";

const PROMPT = {
  type: "string",
  minLength: 1,
  maxLength: MAX_PROMPT_LENGTH,
  description: "What to remind the user about, in their own words (non-empty, at most " +
    `${MAX_PROMPT_LENGTH} characters).`,
};

const REPEAT = {
  type: "object",
  description: "A repeating reminder: an RFC 5545 RRULE expanded in local time of the zone.",
  properties: {
    rrule: {
      type: "string",
      description: "RRULE value without the RRULE: prefix. FREQ is MINUTELY, HOURLY, DAILY, " +
        `WEEKLY or MONTHLY; optional INTERVAL (1..${MAX_INTERVAL}), BYDAY (MO..SU; ordinals ` +
        "such as 1MO or -1FR only with MONTHLY), BYMONTHDAY (1..31, -1 = last day), BYHOUR, " +
        `BYMINUTE, and COUNT (1..${MAX_COUNT}) or UNTIL (UTC YYYYMMDDTHHMMSSZ). Occurrences are ` +
        "at least one minute apart.",
    },
    start: {
      type: "object",
      description: "Local DTSTART; default: the next whole minute. Its seconds are kept.",
      properties: {
        date: { type: "string", description: "Local calendar date, YYYY-MM-DD." },
        time: { type: "string", description: "Local 24-hour time, HH:MM or HH:MM:SS." },
      },
      required: ["date", "time"],
      additionalProperties: false,
    },
    time_zone: {
      type: "string",
      description: "IANA zone name; only when the user named or confirmed a zone. Omit it to " +
        "use the session's own zone.",
    },
    catch_up_seconds: {
      type: "integer",
      minimum: 1,
      description: "Skip (do not deliver) an occurrence missed by more than this many seconds.",
    },
  },
  required: ["rrule"],
  additionalProperties: false,
};

/** `schedule_create`. */
export const CREATE_SPEC: ModelToolSpec = {
  name: "schedule_create",
  description: "Create a reminder in this chat session. When it falls due you receive a " +
    "[reminder] follow-up message with the prompt, and should then remind the user. Give " +
    "`prompt` and exactly ONE of `after_seconds`, `at` or `repeat`. Use `after_seconds` for relative " +
    'delays ("in 20 minutes" → 1200). Use `at` for a clock time: either an RFC 3339 string ' +
    'with seconds and `Z` or a numeric offset ("2026-03-01T09:00:00+08:00"), or a local ' +
    "`{ date, time }` object read in the session's time zone from the [time-context] reading; " +
    'add `time_zone` (IANA name such as "America/New_York") only when the user names a zone ' +
    "or confirms one. For a repeating reminder use `repeat` with an RFC 5545 RRULE " +
    '("every day at 9" → {"rrule":"FREQ=DAILY;BYHOUR=9;BYMINUTE=0"}; "every weekday at 8:30" → ' +
    '"FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=30"; "every 2 hours" → ' +
    '"FREQ=HOURLY;INTERVAL=2"); never send `every_seconds` or `cron`. If the result is ' +
    "`timezone_confirmation_required`, ask the user which of " +
    "`knownTimeZones` they mean and retry with `time_zone`. If it is `persistence_uncertain`, " +
    "call `schedule_list` before retrying, to avoid a duplicate. " + SESSION_LOCAL,
  parameters: {
    type: "object",
    properties: {
      prompt: PROMPT,
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
      repeat: REPEAT,
    },
    required: ["prompt"],
    additionalProperties: false,
  },
};

/** `schedule_list`. */
export const LIST_SPEC: ModelToolSpec = {
  name: "schedule_list",
  description: "List this session's active (pending) reminders with their id, prompt, UTC " +
    "`scheduledAt` (a repeating one's next occurrence, with `repeat.text` describing its rule) " +
    "and `status` (`scheduled`, or `overdue` when due but not yet delivered). " +
    "Takes no arguments. " + SESSION_LOCAL,
  parameters: { type: "object", properties: {}, additionalProperties: false },
};

/** `schedule_delete`. */
export const DELETE_SPEC: ModelToolSpec = {
  name: "schedule_delete",
  description: "Cancel one active reminder of this session by its `id` (as returned by " +
    '`schedule_create` or `schedule_list`, e.g. "sch_…"). A reminder that was already ' +
    "delivered or deleted returns `schedule_not_active`; an unknown id returns " +
    "`schedule_not_found`. Deleting a repeating reminder ends the whole series.",
  parameters: {
    type: "object",
    properties: {
      id: { type: "string", description: "The reminder id, starting with `sch_`." },
    },
    required: ["id"],
    additionalProperties: false,
  },
};

const CREATE_PROPERTIES = CREATE_SPEC.parameters.properties as Record<string, unknown>;

/** `schedule_update`. */
export const UPDATE_SPEC: ModelToolSpec = {
  name: "schedule_update",
  description: 'Change one active reminder in one step, keeping its id ("move it to 4pm", ' +
    '"make it every 2 hours", "change the text"). Give `id` and at least one of `prompt` ' +
    "and ONE new time: `after_seconds`, `at` or `repeat` (same forms as `schedule_create`; a " +
    "one-time reminder may become a repeating one and back). Unknown ids return " +
    "`schedule_not_found`, ended ones `schedule_not_active`. " + SESSION_LOCAL,
  parameters: {
    type: "object",
    properties: {
      id: { type: "string", description: "The reminder id, starting with `sch_`." },
      prompt: PROMPT,
      after_seconds: CREATE_PROPERTIES.after_seconds,
      at: CREATE_PROPERTIES.at,
      repeat: REPEAT,
    },
    required: ["id"],
    additionalProperties: false,
  },
};

/** `schedule_snooze`. */
export const SNOOZE_SPEC: ModelToolSpec = {
  name: "schedule_snooze",
  description: "Snooze a reminder that just fired: remind again after `after_seconds` " +
    `(${MIN_SNOOZE_SECONDS}..${MAX_SNOOZE_SECONDS}). For a repeating reminder this adds a ` +
    "one-time reminder for the occurrence that fired and never shifts the series; a one-time " +
    "reminder that has not fired yet is moved.",
  parameters: {
    type: "object",
    properties: {
      id: { type: "string", description: "The reminder id, starting with `sch_`." },
      after_seconds: {
        type: "integer",
        minimum: MIN_SNOOZE_SECONDS,
        maximum: MAX_SNOOZE_SECONDS,
        description: "Delay from now in whole seconds (10 minutes = 600).",
      },
    },
    required: ["id", "after_seconds"],
    additionalProperties: false,
  },
};
