/**
 * The one-shot rule union of `schedule_create` and the tool argument checks
 * (docs/design.md#session-log-authority-and-tools, docs/design.md#time-zone-ownership,
 * docs/design.md#absolute-time-normalization; docs/architecture.md#tools).
 *
 * Shape checks ({@linkcode validateCreateArgs}) run before the Agent FIFO; time- and
 * provenance-dependent checks ({@linkcode resolveCreate}) run after the preflight.
 *
 * @module
 */
import {
  CREATE_ARGS,
  DELETE_ARGS,
  LIST_ARGS,
  MAX_PROMPT_LENGTH,
  MAX_SNOOZE_SECONDS,
  MIN_SNOOZE_SECONDS,
  parseArgs,
  SNOOZE_ARGS,
  UPDATE_ARGS,
} from "./_args.ts";
import { has, isPlainObject } from "./_shape.ts";
import type { LocalAtArgs, SelectorArgs } from "./args.ts";
import { implicitTimeZone, type ZoneProvenance } from "./_provenance.ts";
import { type RepeatSelector, resolveRepeat, validateRepeat } from "./_repeat.ts";
import { type LocalDateTime, parseLocalDateTime, resolveLocal } from "./calendar.ts";
import { toolError, type ToolFailure, toolFailureFrom } from "./errors.ts";
import type { RecurringRecord, ScheduleId, ScheduleRecord } from "./protocol.ts";
import { formatInstant, MAX_INSTANT_MS, parseStrictInstant } from "./rfc3339.ts";

export {
  implicitTimeZone,
  MAX_PROMPT_LENGTH,
  MAX_SNOOZE_SECONDS,
  MIN_SNOOZE_SECONDS,
  type RepeatSelector,
  type ZoneProvenance,
};
export {
  DELIVERY_MODE,
  type RepeatValue,
  repeatValue,
  type ScheduleValue,
  scheduleValue,
} from "./value.ts";

/** The validated selector of a create request. */
export type CreateSelector =
  | { readonly kind: "after"; readonly afterSeconds: number }
  | { readonly kind: "instant"; readonly epochMs: number }
  | { readonly kind: "local"; readonly local: LocalDateTime; readonly timeZone?: string }
  | RepeatSelector;

/** `schedule_create` arguments after the shape check. */
export interface CreateRequest {
  /** The trimmed, non-empty prompt. */
  readonly prompt: string;
  /** Exactly one selector. */
  readonly selector: CreateSelector;
}

/** `schedule_update` arguments after the shape check: at least one of prompt and selector. */
export interface UpdateRequest {
  /** The record to change. */
  readonly id: ScheduleId;
  /** The new trimmed prompt, if given. */
  readonly prompt?: string;
  /** The new selector, if given. */
  readonly selector?: CreateSelector;
}

/** A validation outcome: the typed value, or a tool failure to return as is. */
export type Validated<T> = { readonly ok: true; readonly value: T } | ToolFailure;

function bad(message: string): ToolFailure {
  return toolError("invalid_arguments", `Cannot create schedule: ${message}`);
}

function validateAt(at: string | LocalAtArgs): CreateSelector | ToolFailure {
  try {
    if (typeof at === "string") return { kind: "instant", epochMs: parseStrictInstant(at) };
    parseLocalDateTime(at);
  } catch (error) {
    return toolFailureFrom(error);
  }
  const local = { date: at.date, time: at.time };
  return at.time_zone === undefined
    ? { kind: "local", local }
    : { kind: "local", local, timeZone: at.time_zone };
}

/** The one selector of parsed `args`, `undefined` when none is given, or a failure. */
function validateSelector(args: SelectorArgs): CreateSelector | undefined | ToolFailure {
  const given = (["after_seconds", "at", "repeat"] as const).filter((k) => args[k] !== undefined);
  if (given.length > 1) return bad("give exactly one of after_seconds, at and repeat");
  if (args.after_seconds !== undefined) return { kind: "after", afterSeconds: args.after_seconds };
  if (args.at !== undefined) return validateAt(args.at);
  if (args.repeat !== undefined) return validateRepeat(args.repeat);
  return undefined;
}

/** A failure when `args` is not a plain JSON object (class instances and arrays included). */
function plain(args: unknown, action: string): ToolFailure | undefined {
  return isPlainObject(args)
    ? undefined
    : toolError("invalid_arguments", `Cannot ${action}: arguments are not an object`);
}

/** `every_seconds` and `cron` are refused by name, never read as unknown fields. */
function refuseRules(args: unknown, action: string): ToolFailure | undefined {
  const notPlain = plain(args, action);
  if (notPlain !== undefined) return notPlain;
  for (const rule of ["every_seconds", "cron"]) {
    if (has(args as Record<string, unknown>, rule)) {
      return toolError(
        "unsupported_rule",
        `Cannot ${action}: ${rule} is not supported; use repeat with an RRULE`,
      );
    }
  }
  return undefined;
}

/**
 * Shape-only check of `schedule_create` arguments. `every_seconds` and `cron` are refused
 * (`unsupported_rule`), never ignored; unknown fields are refused; exactly one of
 * `after_seconds`, `at` and `repeat` is required (docs/recurring.md "Tools").
 *
 * @param args the raw tool arguments
 * @returns the typed request, or a failure with `unsupported_rule` or `invalid_arguments`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateCreateArgs } from "@chime/schedule";
 * const result = validateCreateArgs({ prompt: " stretch ", after_seconds: 1200 });
 * assert(result.ok && result.value.prompt === "stretch");
 * ```
 */
export function validateCreateArgs(args: unknown): Validated<CreateRequest> {
  const refused = refuseRules(args, "create schedule");
  if (refused !== undefined) return refused;
  const parsed = parseArgs(CREATE_ARGS, args, "create schedule");
  if (!parsed.ok) return parsed;
  const selector = validateSelector(parsed.value);
  if (selector === undefined) return bad("give exactly one of after_seconds, at and repeat");
  const prompt = parsed.value.prompt.trim();
  return "ok" in selector ? selector : { ok: true, value: { prompt, selector } };
}

/**
 * Shape-only check of `schedule_update` arguments: `{ id, prompt?, after_seconds? | at? |
 * repeat? }` with at least one of prompt and a selector (docs/recurring.md "Tools").
 *
 * @param args the raw tool arguments
 * @returns the typed request, or a failure with `unsupported_rule` or `invalid_arguments`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateUpdateArgs } from "@chime/schedule";
 * const result = validateUpdateArgs({ id: "sch_AbCd1234", prompt: "call mum" });
 * assert(result.ok && result.value.prompt === "call mum");
 * ```
 */
export function validateUpdateArgs(args: unknown): Validated<UpdateRequest> {
  const refused = refuseRules(args, "update schedule");
  if (refused !== undefined) return refused;
  const parsed = parseArgs(UPDATE_ARGS, args, "update schedule");
  if (!parsed.ok) return parsed;
  const selector = validateSelector(parsed.value);
  if (selector !== undefined && "ok" in selector) return selector;
  const prompt = parsed.value.prompt?.trim();
  if (prompt === undefined && selector === undefined) {
    return toolError(
      "invalid_arguments",
      "Cannot update schedule: give a new prompt, a new after_seconds, at or repeat, or both",
    );
  }
  return {
    ok: true,
    value: {
      id: parsed.value.id as ScheduleId,
      ...(prompt === undefined ? {} : { prompt }),
      ...(selector === undefined ? {} : { selector }),
    },
  };
}

/**
 * Shape check of `schedule_snooze` arguments: exactly `{ id, after_seconds }` with
 * `60 ≤ after_seconds ≤ 604800` (7 days).
 *
 * @param args the raw tool arguments
 * @returns the id and delay, or an `invalid_arguments` failure
 */
export function validateSnoozeArgs(
  args: unknown,
): Validated<{ readonly id: ScheduleId; readonly afterSeconds: number }> {
  const action = "snooze schedule";
  const parsed = plain(args, action) ?? parseArgs(SNOOZE_ARGS, args, action);
  if (!parsed.ok) return parsed;
  const { id, after_seconds: afterSeconds } = parsed.value;
  return { ok: true, value: { id: id as ScheduleId, afterSeconds } };
}

/** Time and provenance facts {@linkcode resolveCreate} decides with (sampled after preflight). */
export interface CreateContext extends ZoneProvenance {
  /** The decision instant, integer epoch milliseconds (UTC). */
  readonly now: number;
}

/** A resolved create: everything but the id of the record to append. */
export type CreateResolution =
  | {
    readonly ok: true;
    readonly kind: "after";
    readonly prompt: string;
    readonly afterSeconds: number;
    readonly scheduledAt: string;
  }
  | {
    readonly ok: true;
    readonly kind: "at";
    readonly prompt: string;
    readonly scheduledAt: string;
  }
  | ({ readonly ok: true } & Omit<RecurringRecord, "id">)
  | ToolFailure;

function notInFuture(epochMs: number, now: number): ToolFailure {
  return toolError(
    "not_in_future",
    `Cannot create schedule: ${formatInstant(epochMs)} is not after ${formatInstant(now)}`,
  );
}

function localInstant(
  selector: Extract<CreateSelector, { kind: "local" }>,
  context: CreateContext,
): number | ToolFailure {
  let zone = selector.timeZone;
  if (zone === undefined) {
    const implicit = implicitTimeZone(context);
    if (!implicit.ok) return implicit;
    zone = implicit.timeZone;
  }
  try {
    return resolveLocal(selector.local, zone).epochMs;
  } catch (error) {
    return toolFailureFrom(error);
  }
}

/**
 * Resolves a validated request to one UTC target. `after` is `now + afterSeconds·1000`; an
 * explicit instant or a resolved local time must be strictly after `now`; a `repeat` series
 * gets its zone like a local time, DTSTART `start` or the first whole minute after the decision
 * instant, and the first occurrence strictly after `now` as its target. A local time with an
 * explicit `time_zone` is validated like any zone and skips the ambiguity check; without one it
 * needs {@linkcode implicitTimeZone} to accept the request's provenance.
 *
 * @param request the output of {@linkcode validateCreateArgs}
 * @param context `now` (epoch ms, UTC) and the request's zone provenance
 * @returns the kind, prompt, canonical UTC `scheduledAt` (and `afterSeconds`), or a failure with
 *   `not_in_future`, `invalid_time_zone`, `nonexistent_local_time`,
 *   `timezone_confirmation_required` (with `knownTimeZones`) or `invalid_arguments`
 * @throws {RangeError} when `context.now` is not a safe integer (programmer misuse)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveCreate } from "@chime/schedule";
 * const resolved = resolveCreate(
 *   { prompt: "stretch", selector: { kind: "after", afterSeconds: 60 } },
 *   { now: 0, clientTimeZones: "missing", hasTimeContextMarker: false },
 * );
 * assert(resolved.ok && resolved.scheduledAt === "1970-01-01T00:01:00.000Z");
 * ```
 */
export function resolveCreate(request: CreateRequest, context: CreateContext): CreateResolution {
  const { now } = context;
  if (!Number.isSafeInteger(now)) throw new RangeError(`Cannot resolve create: now=${now}`);
  const { prompt, selector } = request;
  if (selector.kind === "repeat") {
    const series = resolveRepeat(selector, context);
    return "ok" in series ? series : { ok: true, kind: "recurring", prompt, ...series };
  }
  if (selector.kind === "after") {
    const epochMs = now + selector.afterSeconds * 1000;
    if (epochMs > MAX_INSTANT_MS) return bad("after_seconds reaches beyond year 9999");
    const { afterSeconds } = selector;
    return { ok: true, kind: "after", prompt, afterSeconds, scheduledAt: formatInstant(epochMs) };
  }
  const epochMs = selector.kind === "instant" ? selector.epochMs : localInstant(selector, context);
  if (typeof epochMs !== "number") return epochMs;
  if (epochMs <= now) return notInFuture(epochMs, now);
  return { ok: true, kind: "at", prompt, scheduledAt: formatInstant(epochMs) };
}

/**
 * Builds the record to append from a successful resolution and a freshly allocated id.
 *
 * @param id a new id (see `makeScheduleId`)
 * @param resolved a successful {@linkcode resolveCreate} result
 * @returns the record (a one-shot keeps no local fields, offsets or zones; a series keeps its
 *   local DTSTART and zone, which define it)
 */
export function toScheduleRecord(
  id: ScheduleId,
  resolved: Extract<CreateResolution, { ok: true }>,
): ScheduleRecord {
  if (resolved.kind === "recurring") {
    const { ok: _, ...rest } = resolved;
    return { id, ...rest };
  }
  const { prompt, scheduledAt } = resolved;
  return resolved.kind === "after"
    ? { id, kind: "after", prompt, afterSeconds: resolved.afterSeconds, scheduledAt }
    : { id, kind: "at", prompt, scheduledAt };
}

/**
 * Shape check of `schedule_delete` arguments: exactly `{ id }` with a well-formed id.
 *
 * @param args the raw tool arguments
 * @returns the id, or an `invalid_arguments` failure
 */
export function validateDeleteArgs(args: unknown): Validated<{ readonly id: ScheduleId }> {
  const parsed = plain(args, "delete schedule") ?? parseArgs(DELETE_ARGS, args, "delete schedule");
  return parsed.ok ? { ok: true, value: { id: parsed.value.id as ScheduleId } } : parsed;
}

/**
 * Shape check of `schedule_list` arguments: exactly `{}`.
 *
 * @param args the raw tool arguments
 * @returns `{ ok: true, value: {} }`, or an `invalid_arguments` failure
 */
export function validateListArgs(args: unknown): Validated<Record<string, never>> {
  const parsed = plain(args, "list schedules") ?? parseArgs(LIST_ARGS, args, "list schedules");
  return parsed.ok ? { ok: true, value: {} } : parsed;
}
