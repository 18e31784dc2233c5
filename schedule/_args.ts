// Private: the schedule tools' arguments, written once as valibot schemas (docs/recurring.md
// "Tools"). The JSON Schema the model sees (_specs.ts) is generated from them and the shape
// checks in rules.ts parse with them, so the two cannot drift; args_test.ts holds the exported
// argument types (args.ts) equal to what these schemas accept.
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { MAX_COUNT, MAX_INTERVAL } from "./_rrule_parse.ts";
import { toolError, type ToolFailure } from "./errors.ts";
import { isScheduleId } from "./protocol.ts";

/** Longest accepted prompt, in Unicode code points after trimming. */
export const MAX_PROMPT_LENGTH = 1000;
/** Shortest snooze, seconds. */
export const MIN_SNOOZE_SECONDS = 60;
/** Longest snooze, seconds (7 days). */
export const MAX_SNOOZE_SECONDS: number = 7 * 86_400;

// A check the JSON Schema converter cannot read gets the fragment the model should see.
const FRAGMENTS = new WeakMap<object, Record<string, unknown>>();
function said<A extends object>(action: A, fragment: Record<string, unknown>): A {
  FRAGMENTS.set(action, fragment);
  return action;
}

// The prompt is trimmed and counted in code points, as JSON Schema's maxLength counts.
const PROMPT = v.pipe(
  v.string("prompt must be a string"),
  v.description(
    "What to remind the user about, in their own words (non-empty, at most " +
      `${MAX_PROMPT_LENGTH} characters).`,
  ),
  said(v.check((s: string) => s.trim().length > 0, "prompt must be a non-empty string"), {
    minLength: 1,
  }),
  said(
    v.check(
      (s: string) => [...s.trim()].length <= MAX_PROMPT_LENGTH,
      `prompt is longer than ${MAX_PROMPT_LENGTH} characters`,
    ),
    { maxLength: MAX_PROMPT_LENGTH },
  ),
);

const ID = v.pipe(
  v.string("id must be a string"),
  v.description("The reminder id, starting with `sch_`."),
  // The description says the form; the id's exact alphabet is the tool's business.
  said(v.check((s: string) => isScheduleId(s), "id must be a schedule id (sch_…)"), {}),
);

const DATE = v.pipe(v.string(), v.description("Local calendar date, YYYY-MM-DD."));
const TIME = v.pipe(v.string(), v.description("Local 24-hour time, HH:MM or HH:MM:SS."));
const ZONE = v.pipe(
  v.string("time_zone must be a string"),
  v.description(
    "IANA zone name; only when the user named or confirmed a zone. Omit it to use the " +
      "session's own zone.",
  ),
);

const positive = (name: string, description: string) =>
  v.pipe(
    v.number(`${name} must be a positive integer`),
    v.safeInteger(`${name} must be a positive integer`),
    v.minValue(1, `${name} must be a positive integer`),
    v.description(description),
  );

const AFTER_SECONDS = positive(
  "after_seconds",
  "Delay from now in whole seconds (positive), for relative requests.",
);

const AT = v.pipe(
  v.union([
    v.pipe(
      v.string(),
      v.description(
        "RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS with uppercase T, seconds, and `Z` or " +
          '`±HH:MM`, e.g. "2026-03-01T01:00:00Z".',
      ),
    ),
    v.strictObject({ date: DATE, time: TIME, time_zone: v.optional(ZONE) }),
  ], "at is neither a date-time string nor { date, time[, time_zone] }"),
  v.description("Absolute target, strictly in the future. Either a string or an object."),
);

const REPEAT = v.pipe(
  v.strictObject({
    rrule: v.pipe(
      v.string("rrule must be an RRULE string"),
      v.description(
        "RRULE value without the RRULE: prefix. FREQ is MINUTELY, HOURLY, DAILY, WEEKLY, " +
          `MONTHLY or YEARLY; optional INTERVAL (1..${MAX_INTERVAL}), BYMONTH (1..12), BYDAY ` +
          "(MO..SU; ordinals such as 1MO or -1FR only with MONTHLY or YEARLY), BYMONTHDAY " +
          "(1..31, -1 = last day), BYHOUR, BYMINUTE, BYSETPOS (e.g. BYDAY=MO,TU,WE,TH,FR;" +
          "BYSETPOS=-1 = the last weekday), and COUNT " +
          `(1..${MAX_COUNT}) or UNTIL (UTC YYYYMMDDTHHMMSSZ). Occurrences are at least one ` +
          "minute apart.",
      ),
    ),
    start: v.optional(v.pipe(
      v.strictObject({ date: DATE, time: TIME }, "start must be { date, time }"),
      v.description("Local DTSTART; default: the next whole minute. Its seconds are kept."),
    )),
    time_zone: v.optional(ZONE),
    catch_up_seconds: v.optional(positive(
      "catch_up_seconds",
      "Skip (do not deliver) an occurrence missed by more than this many seconds.",
    )),
  }, "repeat must be { rrule, start?, time_zone?, catch_up_seconds? }"),
  v.description("A repeating reminder: an RFC 5545 RRULE expanded in local time of the zone."),
);

const SELECTORS = {
  after_seconds: v.optional(AFTER_SECONDS),
  at: v.optional(AT),
  repeat: v.optional(REPEAT),
};

/** `schedule_create`: a prompt and (checked in rules.ts) exactly one selector. */
export const CREATE_ARGS = v.strictObject({ prompt: PROMPT, ...SELECTORS });
/** `schedule_update`: the id, and a prompt and/or one selector. */
export const UPDATE_ARGS = v.strictObject({ id: ID, prompt: v.optional(PROMPT), ...SELECTORS });
/** `schedule_delete`. */
export const DELETE_ARGS = v.strictObject({ id: ID });
/** `schedule_list`: no arguments. */
export const LIST_ARGS = v.strictObject({});
const SNOOZE_MESSAGE = `after_seconds must be an integer in ${MIN_SNOOZE_SECONDS}..` +
  `${MAX_SNOOZE_SECONDS}`;
/** `schedule_snooze`. */
export const SNOOZE_ARGS = v.strictObject({
  id: ID,
  after_seconds: v.pipe(
    v.number(SNOOZE_MESSAGE),
    v.safeInteger(SNOOZE_MESSAGE),
    v.minValue(MIN_SNOOZE_SECONDS, SNOOZE_MESSAGE),
    v.maxValue(MAX_SNOOZE_SECONDS, SNOOZE_MESSAGE),
    v.description("Delay from now in whole seconds (10 minutes = 600)."),
  ),
});

/** `schedule_pause`. */
export const PAUSE_ARGS = v.strictObject({ id: ID });
/** `schedule_resume`. */
export const RESUME_ARGS = v.strictObject({ id: ID });
/** `schedule_skip`. */
export const SKIP_ARGS = v.strictObject({
  id: ID,
  occurrence_at: v.optional(v.pipe(
    v.string("occurrence_at must be an RFC 3339 date-time string"),
    v.description(
      "The occurrence to skip, as listed in the reminder's `preview` (RFC 3339 with seconds and " +
        "`Z` or `±HH:MM`). Omit it to skip the next occurrence.",
    ),
  )),
});

/** Any of the argument schemas. */
export type ArgsSchema = v.GenericSchema<unknown, Record<string, unknown>>;

/**
 * The JSON Schema of one tool's arguments, as the model sees it (draft-07, no `$schema` key).
 * `safeInteger` says only `type: integer`: the safe-integer bounds are noise to a model.
 */
export function jsonSchemaOf(schema: ArgsSchema): Record<string, unknown> {
  const { $schema: _, ...json } = toJsonSchema(schema, {
    overrideAction: ({ valibotAction, jsonSchema }) => {
      if (valibotAction.type === "safe_integer") {
        // Runs before the pipe's own minValue/maxValue, which set the bounds the model sees.
        const { minimum: _, maximum: __, ...rest } = jsonSchema;
        return { ...rest, type: "integer" };
      }
      const fragment = FRAGMENTS.get(valibotAction);
      return fragment === undefined ? undefined : { ...jsonSchema, ...fragment };
    },
  });
  return json as Record<string, unknown>;
}

function where(issue: v.BaseIssue<unknown>): string {
  const path = (issue.path ?? []).map((item) => String(item.key));
  if (issue.type === "strict_object" && issue.expected === "never") {
    const owner = path.slice(0, -1).join(".");
    return `${owner ? `${owner} has ` : ""}unknown field ${JSON.stringify(path.at(-1))}`;
  }
  return issue.message;
}

/**
 * Parses `args` with `schema`; a mismatch is `invalid_arguments` naming the first problem
 * (`Cannot <action>: <reason>`).
 */
export function parseArgs<T>(
  schema: v.GenericSchema<unknown, T>,
  args: unknown,
  action: string,
): { readonly ok: true; readonly value: T } | ToolFailure {
  const result = v.safeParse(schema, args, { abortEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  return toolError("invalid_arguments", `Cannot ${action}: ${where(issue)}`);
}
