/**
 * The commit-gated views of `schedule/change` dispatches (docs/design.md#commit-aware-web-receipt;
 * one-shot and recurring, docs/recurring.md "Host and page"): the view source the schedule plugin
 * contributes as `Plugin.web.views` (docs/architecture.md "Views").
 *
 * @module
 */
import type { ContextScan, EventView, ViewSource } from "@chime/contract";
import type { SessionEvent, SessionHeader } from "@chime/session";
import { tryDecodeScheduleChange } from "./decoder.ts";
import { foldStart } from "./fold.ts";
import { LATE_CONTEXT_BEFORE } from "./late.ts";
import {
  LATE_AFTER_MS,
  scheduleChangeView,
  scheduleReminderPresentations,
} from "./presentation.ts";
import { SCHEDULE_CHANGE } from "./protocol.ts";

/**
 * The creates (and updates) the dispatches of `gated` pair with, under the rules of
 * `scheduleReminderPresentations` (`./presentation.ts`): an own dispatch (`seq ≥ seedLength`)
 * pairs with the nearest same-id create in `[seedLength, seq)`, an inherited one with the
 * nearest same-id create before it. Keeping exactly those creates (newest first) makes the
 * sparse list present every dispatch as the dense log would.
 */
function dispatchContext(header: SessionHeader, gated: readonly SessionEvent[]): ContextScan {
  const seedLength = foldStart(header);
  // A recurring dispatch names its occurrence, so whether it is late is known here; a one-shot's
  // occurrence is its create's, found further back, so its window is kept in case.
  const windows: number[] = [];
  let pending = gated.flatMap((event) => {
    const change = tryDecodeScheduleChange(event.data);
    if (change?.op !== "dispatch") return [];
    const occurrenceAt = "occurrenceAt" in change ? change.occurrenceAt : undefined;
    if (
      occurrenceAt === undefined || Date.parse(event.at) - Date.parse(occurrenceAt) >= LATE_AFTER_MS
    ) {
      windows.push(event.seq);
    }
    return [{ seq: event.seq, id: change.id, own: event.seq >= seedLength }];
  });
  // A late card's cause reads the events just before its dispatch (`lateCause`, `./late.ts`):
  // keep every event within LATE_CONTEXT_BEFORE of a dispatch that may be late; the scan runs backwards, so it
  // is done once it is below the lowest window and every create was found.
  const lowest = Math.min(...windows) - LATE_CONTEXT_BEFORE;
  let reached = Infinity;
  return {
    offer(event) {
      reached = event.seq;
      const near = windows.some((d) => event.seq < d && event.seq >= d - LATE_CONTEXT_BEFORE);
      // Below the boundary an own dispatch can no longer pair: it has no receipt.
      if (event.seq < seedLength) pending = pending.filter((p) => !p.own);
      if (event.type !== SCHEDULE_CHANGE || pending.length === 0) return near;
      const change = tryDecodeScheduleChange(event.data);
      // An exclusion before a dispatch shapes that card's preview: keep it.
      if (change?.op === "exclude") {
        return near || pending.some((p) => p.id === change.id && p.seq > event.seq);
      }
      // An update pairs like the create it replaces (`./presentation.ts`).
      if (change?.op !== "create" && change?.op !== "update") return near;
      const before = pending.length;
      pending = pending.filter((p) => p.id !== change.record.id || p.seq <= event.seq);
      return near || pending.length < before;
    },
    get done() {
      return pending.length === 0 && reached <= lowest;
    },
  };
}

/**
 * Views of `schedule/change` dispatches: `{ type: 'schedule/change', presentation }` once a
 * flush covers the dispatch. Other transitions (`skip`, `stop`, `update`, …) get no view: the
 * page shows them raw.
 *
 * @example A dispatch is gated, a create is not
 * ```ts
 * import { scheduleViews } from "@chime/schedule";
 * const at = "2030-01-01T00:00:00.000Z";
 * const dispatch = { version: 1, op: "dispatch", id: "sch_abcdefgh" };
 * console.assert(scheduleViews.gated({ seq: 1, type: "schedule/change", at, data: dispatch }));
 * ```
 */
export const scheduleViews: ViewSource = {
  context: dispatchContext,
  gated: (event) =>
    event.type === SCHEDULE_CHANGE && tryDecodeScheduleChange(event.data)?.op === "dispatch",
  build(header, events, seqs) {
    const through = Math.max(...seqs);
    const receipts = scheduleReminderPresentations(header, events, {
      through,
      seqs: new Set(seqs),
    });
    const out = new Map<number, EventView>();
    for (const seq of seqs) {
      const receipt = receipts.get(seq);
      if (receipt !== undefined) out.set(seq, scheduleChangeView(receipt));
    }
    return out;
  },
};
