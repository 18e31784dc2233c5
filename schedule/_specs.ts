// Private: the model-facing names, descriptions and JSON Schemas of the schedule tools
// (docs/recurring.md "Tools"). Kept apart from the transaction code in tools.ts; the JSON
// Schemas are generated from the argument schemas in _args.ts, which the validators in rules.ts
// parse with (specs_test.ts and args_test.ts hold them in step).
import type { ModelToolSpec } from "@chime/contract";
import {
  CREATE_ARGS,
  DELETE_ARGS,
  jsonSchemaOf,
  LIST_ARGS,
  MAX_SNOOZE_SECONDS,
  MIN_SNOOZE_SECONDS,
  PAUSE_ARGS,
  RESUME_ARGS,
  SKIP_ARGS,
  SNOOZE_ARGS,
  UPDATE_ARGS,
} from "./_args.ts";
import { SCHEDULE_TOOL_NAMES as NAMES } from "./args.ts";

const SESSION_LOCAL = "Reminders are session-local: they fire only while this chat session is " +
  "open (live); if it is closed when one falls due, it is delivered as overdue the next time the " +
  "session is opened. Nothing is sent outside this chat.";

/** `schedule_create`. */
export const CREATE_SPEC: ModelToolSpec = {
  name: NAMES.create,
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
  parameters: jsonSchemaOf(CREATE_ARGS),
};

/** `schedule_list`. */
export const LIST_SPEC: ModelToolSpec = {
  name: NAMES.list,
  description: "List this session's active (pending) reminders with their id, prompt, UTC " +
    "`scheduledAt` (a repeating one's next occurrence, with `repeat.text` describing its rule) " +
    "and `status` (`scheduled`, or `overdue` when due but not yet delivered). " +
    "Takes no arguments. " + SESSION_LOCAL,
  parameters: jsonSchemaOf(LIST_ARGS),
};

/** `schedule_delete`. */
export const DELETE_SPEC: ModelToolSpec = {
  name: NAMES.delete,
  description: "Cancel one active reminder of this session by its `id` (as returned by " +
    '`schedule_create` or `schedule_list`, e.g. "sch_…"). A reminder that was already ' +
    "delivered or deleted returns `schedule_not_active`; an unknown id returns " +
    "`schedule_not_found`. Deleting a repeating reminder ends the whole series.",
  parameters: jsonSchemaOf(DELETE_ARGS),
};

/** `schedule_update`. */
export const UPDATE_SPEC: ModelToolSpec = {
  name: NAMES.update,
  description: 'Change one active reminder in one step, keeping its id ("move it to 4pm", ' +
    '"make it every 2 hours", "change the text"). Give `id` and at least one of `prompt` ' +
    "and ONE new time: `after_seconds`, `at` or `repeat` (same forms as `schedule_create`; a " +
    "one-time reminder may become a repeating one and back). Unknown ids return " +
    "`schedule_not_found`, ended ones `schedule_not_active`. " + SESSION_LOCAL,
  parameters: jsonSchemaOf(UPDATE_ARGS),
};

/** `schedule_snooze`. */
export const SNOOZE_SPEC: ModelToolSpec = {
  name: NAMES.snooze,
  description: "Snooze a reminder that just fired: remind again after `after_seconds` " +
    `(${MIN_SNOOZE_SECONDS}..${MAX_SNOOZE_SECONDS}). For a repeating reminder this adds a ` +
    "one-time reminder for the occurrence that fired and never shifts the series (snoozing the " +
    "same occurrence again moves that one-time reminder); a one-time reminder that has not " +
    "fired yet is moved, never earlier: `after_seconds` is added to the later of its current " +
    "time and now.",
  parameters: jsonSchemaOf(SNOOZE_ARGS),
};

/** `schedule_pause`. */
export const PAUSE_SPEC: ModelToolSpec = {
  name: NAMES.pause,
  description: 'Pause a repeating reminder ("pause my standup reminder"): it keeps its id and ' +
    "history but never fires until `schedule_resume`. A one-time reminder, an ended one or one " +
    "already paused returns `schedule_not_active`; an unknown id `schedule_not_found`.",
  parameters: jsonSchemaOf(PAUSE_ARGS),
};

/** `schedule_resume`. */
export const RESUME_SPEC: ModelToolSpec = {
  name: NAMES.resume,
  description: "Resume a paused repeating reminder. It fires again at its next occurrence " +
    "after now; the occurrences missed while paused are not delivered (no catch-up burst). " +
    "A reminder that is not paused, or has no occurrence left, returns `schedule_not_active`.",
  parameters: jsonSchemaOf(RESUME_ARGS),
};

/** `schedule_skip`. */
export const SKIP_SPEC: ModelToolSpec = {
  name: NAMES.skip,
  description: 'Skip one occurrence of a repeating reminder ("skip next Monday\'s"), keeping ' +
    "the series: give `id` and optionally `occurrence_at`, one of the instants listed in the " +
    "reminder's `preview` (default: the next occurrence). An instant that is not a coming " +
    "occurrence returns `not_an_occurrence`; a one-time reminder `schedule_not_active`.",
  parameters: jsonSchemaOf(SKIP_ARGS),
};
