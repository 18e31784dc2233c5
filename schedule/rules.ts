/**
 * The one-shot rule union of `schedule_create` and the tool argument checks
 * (seed §"Session 日志权威与工具", §"Session 与请求时区归属", §"绝对时间规范化";
 * ARCHITECTURE.md §6 "Tools").
 *
 * Shape checks ({@linkcode validateCreateArgs}) run before the Agent FIFO; time- and
 * provenance-dependent checks ({@linkcode resolveCreate}) run after the preflight.
 *
 * @module
 */
import { extraKeys, has, isPlainObject } from "./_shape.ts";
import { implicitTimeZone, type ZoneProvenance } from "./_provenance.ts";
import { type LocalDateTime, parseLocalDateTime, resolveLocal } from "./calendar.ts";
import { toolError, type ToolFailure, toolFailureFrom } from "./errors.ts";
import { isScheduleId, scheduledAtMs, type ScheduleId, type ScheduleRecord } from "./protocol.ts";
import { formatInstant, MAX_INSTANT_MS, parseStrictInstant } from "./rfc3339.ts";

export { implicitTimeZone, type ZoneProvenance };

/** Longest accepted prompt, in Unicode code points after trimming. */
export const MAX_PROMPT_LENGTH: number = 1000;
/** The only delivery mode: reminders run only while the original session is live. */
export const DELIVERY_MODE = "session-local" as const;

/** The validated selector of a create request. */
export type CreateSelector =
  | { readonly kind: "after"; readonly afterSeconds: number }
  | { readonly kind: "instant"; readonly epochMs: number }
  | { readonly kind: "local"; readonly local: LocalDateTime; readonly timeZone?: string };

/** `schedule_create` arguments after the shape check. */
export interface CreateRequest {
  /** The trimmed, non-empty prompt. */
  readonly prompt: string;
  /** Exactly one selector. */
  readonly selector: CreateSelector;
}

/** A validation outcome: the typed value, or a tool failure to return as is. */
export type Validated<T> = { readonly ok: true; readonly value: T } | ToolFailure;

const CREATE_KEYS = ["prompt", "after_seconds", "at"];
const LOCAL_KEYS = ["date", "time", "time_zone"];

function bad(message: string): ToolFailure {
  return toolError("invalid_arguments", `Cannot create schedule: ${message}`);
}

function validateAt(at: unknown): CreateSelector | ToolFailure {
  try {
    if (typeof at === "string") return { kind: "instant", epochMs: parseStrictInstant(at) };
  } catch (error) {
    return toolFailureFrom(error);
  }
  if (!isPlainObject(at)) return bad("at is neither a date-time string nor { date, time }");
  const extra = extraKeys(at, LOCAL_KEYS);
  if (extra.length > 0) return bad(`at has unknown field ${JSON.stringify(extra[0])}`);
  const { date, time, time_zone: timeZone } = at;
  if (typeof date !== "string" || typeof time !== "string") return bad("at needs date and time");
  if (has(at, "time_zone") && typeof timeZone !== "string") return bad("time_zone is not a string");
  try {
    parseLocalDateTime({ date, time });
  } catch (error) {
    return toolFailureFrom(error);
  }
  const local = { date, time };
  return typeof timeZone === "string"
    ? { kind: "local", local, timeZone }
    : { kind: "local", local };
}

/**
 * Shape-only check of `schedule_create` arguments. `every_seconds` and `cron` are refused, never
 * ignored; unknown fields are refused; exactly one of `after_seconds` and `at` is required.
 *
 * @param args the raw tool arguments
 * @returns the typed request, or a failure with `unsupported_rule` or `invalid_arguments`
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateCreateArgs } from "./rules.ts";
 * const result = validateCreateArgs({ prompt: " stretch ", after_seconds: 1200 });
 * assert(result.ok && result.value.prompt === "stretch");
 * ```
 */
export function validateCreateArgs(args: unknown): Validated<CreateRequest> {
  if (!isPlainObject(args)) return bad("arguments are not an object");
  for (const rule of ["every_seconds", "cron"]) {
    if (has(args, rule)) {
      return toolError("unsupported_rule", `Cannot create schedule: ${rule} is not supported`);
    }
  }
  const extra = extraKeys(args, CREATE_KEYS);
  if (extra.length > 0) return bad(`unknown field ${JSON.stringify(extra[0])}`);
  const prompt = typeof args.prompt === "string" ? args.prompt.trim() : "";
  if (prompt.length === 0) return bad("prompt must be a non-empty string");
  if ([...prompt].length > MAX_PROMPT_LENGTH) {
    return bad(`prompt is longer than ${MAX_PROMPT_LENGTH} characters`);
  }
  if (has(args, "after_seconds") === has(args, "at")) {
    return bad("give exactly one of after_seconds and at");
  }
  if (has(args, "after_seconds")) {
    const afterSeconds = args.after_seconds;
    if (!Number.isSafeInteger(afterSeconds) || (afterSeconds as number) <= 0) {
      return bad("after_seconds must be a positive integer");
    }
    return {
      ok: true,
      value: { prompt, selector: { kind: "after", afterSeconds: afterSeconds as number } },
    };
  }
  const selector = validateAt(args.at);
  return "ok" in selector ? selector : { ok: true, value: { prompt, selector } };
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
 * explicit instant or a resolved local time must be strictly after `now`. A local time with an
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
 * import { resolveCreate } from "./rules.ts";
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
 * @returns the record (no local fields, offsets or zones are kept)
 */
export function toScheduleRecord(
  id: ScheduleId,
  resolved: Extract<CreateResolution, { ok: true }>,
): ScheduleRecord {
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
  const failure = toolError("invalid_arguments", "Cannot delete schedule: expected { id }");
  if (!isPlainObject(args) || extraKeys(args, ["id"]).length > 0) return failure;
  return isScheduleId(args.id) ? { ok: true, value: { id: args.id } } : failure;
}

/**
 * Shape check of `schedule_list` arguments: exactly `{}`.
 *
 * @param args the raw tool arguments
 * @returns `{ ok: true, value: {} }`, or an `invalid_arguments` failure
 */
export function validateListArgs(args: unknown): Validated<Record<string, never>> {
  return isPlainObject(args) && Object.keys(args).length === 0
    ? { ok: true, value: {} }
    : toolError("invalid_arguments", "Cannot list schedules: expected {}");
}

/** A record as the tools return it. */
export interface ScheduleValue {
  /** Stable id. */
  readonly id: ScheduleId;
  /** Rule kind. */
  readonly kind: "after" | "at";
  /** The reminder text. */
  readonly prompt: string;
  /** Target instant, canonical UTC with milliseconds. */
  readonly scheduledAt: string;
  /** Delay in seconds, for `after` records only. */
  readonly afterSeconds?: number;
  /** `overdue` once `now ≥ scheduledAt` (it fires when the live session can deliver it). */
  readonly status: "scheduled" | "overdue";
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
}

/**
 * The tool value of an active record.
 *
 * @param record an active record
 * @param now the decision instant, epoch milliseconds (UTC)
 * @returns the value with a derived `status` and `deliveryMode: 'session-local'`
 */
export function scheduleValue(record: ScheduleRecord, now: number): ScheduleValue {
  const status = now >= scheduledAtMs(record) ? "overdue" : "scheduled";
  return { ...record, status, deliveryMode: DELIVERY_MODE };
}
