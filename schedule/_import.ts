// Private: the import transaction's decision (docs/upcoming.md "Import from a calendar"): every
// event is decided as `schedule_create` over the same state, the ids allocated so far kept out
// of the next; an event already past is left out and listed, any other refusal refuses the
// whole import, so nothing is written for a text that does not import whole.
import { decideCreate } from "./_decide.ts";
import type { Decision } from "./_tx.ts";
import { toolError } from "./errors.ts";
import type { ScheduleState } from "./fold.ts";
import type { ImportedEvent, ImportFailure } from "./ics_import.ts";
import type { RandomBytes, ScheduleChange, ScheduleId } from "./protocol.ts";
import type { CreateContext, CreateSelector } from "./rules.ts";
import type { RecordResult, ScheduleValue } from "./value.ts";

/** What an import did: the reminders it made and the events it left out as past. */
export interface ImportResult {
  /** Always `true`. */
  readonly ok: true;
  /** The new reminders, in the text's order, each with its event's `UID` when it had one. */
  readonly created: readonly (ScheduleValue & { readonly uid?: string })[];
  /** Events with no occurrence after now (`not_in_future`), not imported. */
  readonly past: readonly { readonly index: number; readonly uid?: string }[];
}

function zoned(selector: CreateSelector, zone: string | undefined): CreateSelector | undefined {
  if (selector.kind !== "local" && selector.kind !== "repeat") return selector;
  if (selector.timeZone !== undefined) return selector;
  return zone === undefined ? undefined : { ...selector, timeZone: zone };
}

/**
 * Decides an import: one `create` per event that has a coming occurrence.
 *
 * @param state the schedule state
 * @param events the checked events (`icsCreateRequests`)
 * @param context the decision instant (no client zones: the page sends none)
 * @param sessionZone the zone of a floating time (the session's), if it has one
 * @param random id randomness
 * @returns the changes and the result, or the first refusal with its event's `index`
 */
export function decideImport(
  state: ScheduleState,
  events: readonly ImportedEvent[],
  context: CreateContext,
  sessionZone: string | undefined,
  random: RandomBytes,
): Decision<ImportResult> | ImportFailure {
  const seen = new Set<ScheduleId>(state.seen);
  const changes: ScheduleChange[] = [];
  const created: (ScheduleValue & { uid?: string })[] = [];
  const past: { index: number; uid?: string }[] = [];
  for (const [index, event] of events.entries()) {
    const uid = event.uid === undefined ? {} : { uid: event.uid };
    const selector = zoned(event.request.selector, sessionZone);
    if (selector === undefined) {
      const failure = toolError(
        "timezone_confirmation_required",
        `Cannot import calendar: event ${index} has a floating time and the session has no time zone`,
        { knownTimeZones: [] },
      );
      return { ...failure, index };
    }
    const decision = decideCreate(
      { ...state, seen },
      { ...event.request, selector },
      context,
      random,
    );
    if (!decision.ok) {
      if (decision.error.code === "not_in_future") {
        past.push({ index, ...uid });
        continue;
      }
      return { ...decision, index };
    }
    const answer: RecordResult = decision.answer;
    const { ok: _, ...value } = answer;
    seen.add(value.id as ScheduleId);
    changes.push(...(decision.changes ?? []));
    created.push({ ...value, ...uid });
  }
  return { ok: true, changes, answer: { ok: true, created, past } };
}
