/**
 * The schedule tools as the offline model speaks them. Names, argument shapes, the result
 * values and the reminder frame are `@chime/schedule`'s own exports (docs/recurring.md
 * "Tools"); this module adds only the exactly-one-selector refinement the model builds and the
 * defensive readers of tool values (a tool value reaches the model as JSON text).
 *
 * @module
 */
import type {
  CreateArgs as ScheduleCreateArgs,
  DeleteArgs,
  LocalAtArgs,
  RepeatArgs,
  RepeatValue,
  ScheduleValue,
  SelectorArgs,
  SeriesArgs,
  SkipArgs,
  SnoozeArgs,
  UpdateArgs as ScheduleUpdateArgs,
} from "@chime/schedule";
import { SCHEDULE_TOOL_NAMES } from "@chime/schedule";

/**
 * Tool names (docs/recurring.md "Tools"), the series tools `schedule_pause`, `schedule_resume`
 * and `schedule_skip` among them (the model calls those only when they are registered).
 */
export const TOOL: typeof SCHEDULE_TOOL_NAMES = SCHEDULE_TOOL_NAMES;

/** The structured local `at` selector. */
export type LocalAt = LocalAtArgs;
export type { RepeatArgs, SeriesArgs, SkipArgs };

type One<K extends keyof SelectorArgs> = {
  readonly [P in K]-?: Exclude<SelectorArgs[P], undefined>;
};

/** Exactly one selector of `schedule_create` / `schedule_update`. */
export type Selector = One<"after_seconds"> | One<"at"> | One<"repeat">;

/** Arguments of `schedule_create` as the model builds them: the prompt and one selector. */
export type CreateArgs = Pick<ScheduleCreateArgs, "prompt"> & Selector;

/** Arguments of each tool, by name: a call the model makes type-checks against the tool's. */
export interface ToolArgs {
  /** `schedule_create`. */
  readonly schedule_create: CreateArgs;
  /** `schedule_list`. */
  readonly schedule_list: Record<string, never>;
  /** `schedule_delete`. */
  readonly schedule_delete: DeleteArgs;
  /** `schedule_update`. */
  readonly schedule_update: ScheduleUpdateArgs;
  /** `schedule_snooze`. */
  readonly schedule_snooze: SnoozeArgs;
  /** `schedule_pause`. */
  readonly schedule_pause: SeriesArgs;
  /** `schedule_resume`. */
  readonly schedule_resume: SeriesArgs;
  /** `schedule_skip`. */
  readonly schedule_skip: SkipArgs;
}

/** `repeat` of a listed recurring record, or `recurring` of a frame, as read. */
export type RepeatView = Pick<RepeatValue, "rrule" | "timeZone"> & {
  /** The rule in words, when the tool gave them. */
  readonly text?: RepeatValue["text"];
  /** Local DTSTART, when the tool gave it. */
  readonly dtstart?: string;
};

/** One upcoming occurrence of a listed series (`preview`): UTC instant, local time, offset. */
export interface PreviewView {
  /** The occurrence, RFC 3339 UTC. */
  readonly at: string;
  /** Its local date-time in the series' zone, when given. */
  readonly local?: string;
}

/** A reminder as read, defensively, from a tool value ({@linkcode ScheduleValue}) or a frame. */
export interface ScheduleView extends Pick<ScheduleValue, "prompt" | "scheduledAt"> {
  /** Schedule id. */
  readonly id: string;
  /** `scheduled`, `overdue` or whatever the tool reported. */
  readonly status: string;
  /** `after`, `at`, `recurring` or empty. */
  readonly kind: string;
  /** The recurrence of a recurring record. */
  readonly repeat?: RepeatView;
  /** For a snooze record: the id of the reminder whose occurrence it snoozes. */
  readonly snoozeOf?: string;
  /** The next occurrences of a series, when the tool listed them. */
  readonly preview?: readonly PreviewView[];
  /** The series is paused (`status: "paused"` or `paused: true`). */
  readonly paused?: true;
}

/** A JSON object. */
export type Obj = Record<string, unknown>;

/**
 * The value when it is a plain object.
 *
 * @param value anything
 * @returns the object, or `undefined`
 */
export function obj(value: unknown): Obj | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Obj
    : undefined;
}

/**
 * A string field's text (numbers as digits, anything else empty).
 *
 * @param value anything
 * @returns the text
 */
export function str(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

/**
 * Parses a tool message's content, tolerating non-JSON text.
 *
 * @param content the tool message content
 * @returns the parsed value, or the raw text when it is not JSON
 */
export function readJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/**
 * Reads a rule's words: `{ en, zh }` from the tool, or one string used for both.
 *
 * @param value the `text` field
 * @returns both languages, or `undefined`
 */
export function readRuleText(value: unknown): { en: string; zh: string } | undefined {
  if (typeof value === "string" && value) return { en: value, zh: value };
  const o = obj(value);
  const en = str(o?.en);
  const zh = str(o?.zh);
  return en || zh ? { en: en || zh, zh: zh || en } : undefined;
}

/**
 * Reads a recurrence (`repeat` of a listed record, `recurring` of a frame).
 *
 * @param value the field
 * @returns the view, or `undefined` when it names no rule
 */
export function readRepeat(value: unknown): RepeatView | undefined {
  const o = obj(value);
  const rrule = str(o?.rrule);
  if (!o || !rrule) return undefined;
  const text = readRuleText(o.text);
  const dtstart = str(o.dtstart);
  return {
    rrule,
    timeZone: str(o.timeZone),
    ...(text ? { text } : {}),
    ...(dtstart ? { dtstart } : {}),
  };
}

/**
 * Reads one reminder from a record-like value.
 *
 * @param value a tool value or part of one
 * @returns the view, or `undefined` when it has no id
 */
export function readSchedule(value: unknown): ScheduleView | undefined {
  const o = obj(value);
  const id = str(o?.id);
  if (!o || !id) return undefined;
  const repeat = readRepeat(o.repeat ?? o.recurring);
  const snoozeOf = str(obj(o.snoozeOf)?.id);
  const listed = o.preview ?? obj(o.repeat)?.preview;
  const preview = Array.isArray(listed)
    ? listed.flatMap((p) => {
      const at = str(obj(p)?.at);
      const local = str(obj(p)?.local);
      return at ? [{ at, ...(local ? { local } : {}) }] : [];
    })
    : [];
  const paused = str(o.status) === "paused" || o.paused === true;
  return {
    id,
    prompt: str(o.prompt),
    scheduledAt: str(o.scheduledAt),
    status: str(o.status),
    kind: str(o.kind) || (repeat ? "recurring" : ""),
    ...(repeat ? { repeat } : {}),
    ...(snoozeOf ? { snoozeOf } : {}),
    ...(preview.length > 0 ? { preview } : {}),
    ...(paused ? { paused: true as const } : {}),
  };
}

/**
 * Reads the schedules of a `schedule_list` value (`{ ok, schedules }`; arrays and `records` too).
 *
 * @param value parsed tool value
 * @returns the schedules found (empty when none)
 */
export function readSchedules(value: unknown): ScheduleView[] {
  const o = obj(value);
  const list = Array.isArray(value) ? value : o?.schedules ?? o?.records ?? o?.items;
  return Array.isArray(list) ? list.flatMap((v) => readSchedule(v) ?? []) : [];
}

/**
 * The reminder a successful create, update, snooze or delete value names. A value is the
 * record's fields spread flat; `schedule`, `record`, `reminder`, `updated`, `snoozed` and
 * `deleted` wrappers are tolerated (a bare id in `deleted` too).
 *
 * @param value parsed tool value
 * @returns the view, or `undefined`
 */
export function readResultSchedule(value: unknown): ScheduleView | undefined {
  const o = obj(value);
  if (!o) return undefined;
  for (
    const key of [
      "schedule",
      "record",
      "reminder",
      "updated",
      "snoozed",
      "deleted",
      "paused",
      "resumed",
      "skipped",
    ]
  ) {
    const inner = readSchedule(o[key]);
    if (inner) return inner;
  }
  const bare = str(o.deleted);
  return readSchedule(o) ?? (bare ? { ...EMPTY_VIEW, id: bare } : undefined);
}

const EMPTY_VIEW: ScheduleView = { id: "", prompt: "", scheduledAt: "", status: "", kind: "" };

/**
 * Whether a tool value is a failure (`{ ok: false }` or an `error`), or not an object at all.
 *
 * @param value parsed tool value
 * @returns `true` for a failure
 */
export function isFailure(value: unknown): boolean {
  const o = obj(value);
  return !o || o.ok === false || o.error !== undefined;
}

/**
 * The error code of a failed tool value.
 *
 * @param value parsed tool value
 * @returns the code, or empty
 */
export function errorCode(value: unknown): string {
  return str(obj(obj(value)?.error)?.code);
}
