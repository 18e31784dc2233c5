// Private: the page's request bodies for the reminder edit control and the snooze `until`
// (docs/recurring.md "Host and page"). Checked before a cold session is resumed; the zone they
// resolve in is read only inside the transaction (the reminder's own zone, else the session's).
import { extraKeys, isPlainObject } from "./_shape.ts";
import { type LocalDateTime, parseLocalDateTime, resolveLocal } from "./calendar.ts";
import { toolError, type ToolFailure, toolFailureFrom } from "./errors.ts";
import type { ScheduleState } from "./fold.ts";
import type { ScheduleId } from "./protocol.ts";
import { type CreateSelector, type UpdateRequest, validateUpdateArgs } from "./rules.ts";

/** A page refusal: a tool failure, naming the HTTP body field when one is at fault. */
export type PageFailure = ToolFailure & { readonly field?: string };

const EDIT_FIELDS = ["prompt", "at", "repeat"];
const ANY_ID = "sch_AAAAAAAAAAAA";

function refuse(failure: ToolFailure, field?: string): PageFailure {
  return field === undefined ? failure : { ...failure, field };
}

function fieldError(action: string, field: string, reason: string): PageFailure {
  return refuse(toolError("invalid_arguments", `Cannot ${action}: ${field} ${reason}`), field);
}

/**
 * Checks the page's edit body `{ prompt?, at?: { date, time }, repeat?: { rrule } }` (no zone:
 * the page never sends one), before any session work.
 *
 * @param id the reminder id (the route's `:scheduleId`)
 * @param body the request body
 * @returns the update request, its selector without a zone yet, or the refusal naming `field`
 *   when one body field is at fault (`invalid_arguments`, `unsupported_rule`)
 */
export function checkEditBody(
  id: string,
  body: Record<string, unknown>,
): { readonly ok: true; readonly value: UpdateRequest } | PageFailure {
  const action = "update schedule";
  const extra = extraKeys(body, EDIT_FIELDS);
  if (extra.length > 0) return fieldError(action, extra[0]!, "is not an edit field");
  const shapes: Record<string, readonly string[]> = { at: ["date", "time"], repeat: ["rrule"] };
  for (const field of EDIT_FIELDS) {
    if (!Object.hasOwn(body, field)) continue;
    const value = body[field];
    const keys = shapes[field];
    if (keys !== undefined) {
      if (!isPlainObject(value) || extraKeys(value, keys).length > 0) {
        return fieldError(action, field, `must be { ${keys.join(", ")} }`);
      }
    }
    const alone = validateUpdateArgs({ id: ANY_ID, [field]: value });
    if (!alone.ok) return refuse(alone, field);
  }
  return validateUpdateArgs({ ...body, id });
}

/**
 * Checks the page snooze's `until: { date, time }` (shape and calendar only; the zone is the
 * reminder's and is read in the transaction).
 *
 * @param until the body's `until`
 * @returns the local date and time, or an `invalid_arguments` refusal naming `until`
 */
export function checkUntil(until: unknown): LocalDateTime | PageFailure {
  const action = "snooze schedule";
  if (!isPlainObject(until) || extraKeys(until, ["date", "time"]).length > 0) {
    return fieldError(action, "until", "must be { date, time }");
  }
  const { date, time } = until;
  if (typeof date !== "string" || typeof time !== "string") {
    return fieldError(action, "until", "must be { date, time }");
  }
  try {
    parseLocalDateTime({ date, time });
  } catch (error) {
    return refuse(toolFailureFrom(error), "until");
  }
  return { date, time };
}

/**
 * The zone a page request's local times resolve in: the reminder's own zone (a series'
 * `timeZone`; a snooze of a delivered series occurrence: the series' zone), else the session's.
 */
export function pageZone(
  state: ScheduleState,
  id: ScheduleId,
  sessionTimeZone: string | undefined,
): string | ToolFailure {
  const record = state.active.get(id) ?? state.delivered.get(id)?.record;
  if (record?.kind === "recurring") return record.timeZone;
  if (sessionTimeZone !== undefined) return sessionTimeZone;
  return toolError(
    "timezone_confirmation_required",
    "Cannot use a local time: the session has no time zone",
    { knownTimeZones: [] },
  );
}

/** The edit request with its selector (a page `at` or `repeat`) in {@linkcode pageZone}. */
export function zonedEdit(
  request: UpdateRequest & { readonly selector: CreateSelector },
  zone: string,
): UpdateRequest {
  return { ...request, selector: { ...request.selector, timeZone: zone } as CreateSelector };
}

/** `until` in `zone` as epoch ms, or the failure (`nonexistent_local_time`, …) naming `until`. */
export function untilInstant(until: LocalDateTime, zone: string): number | PageFailure {
  try {
    return resolveLocal(until, zone).epochMs;
  } catch (error) {
    return refuse(toolFailureFrom(error), "until");
  }
}
