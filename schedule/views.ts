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
  // A dispatch whose card may be late keeps a window of LATE_CONTEXT_BEFORE events before it
  // (its cause, `lateCause` in `./late.ts`). A recurring dispatch names its occurrence, so that is
  // known here; a one-shot's occurrence is the `scheduledAt` of the create it pairs with, so its
  // window is open until that create is offered and closes there when the card is on time.
  const windows = new Set<number>();
  let pending = gated.flatMap((event) => {
    const change = tryDecodeScheduleChange(event.data);
    if (change?.op !== "dispatch") return [];
    const occurrenceAt = "occurrenceAt" in change ? change.occurrenceAt : undefined;
    if (occurrenceAt === undefined || late(event.at, occurrenceAt)) windows.add(event.seq);
    return [{
      seq: event.seq,
      at: event.at,
      id: change.id,
      own: event.seq >= seedLength,
      oneShot: occurrenceAt === undefined,
    }];
  });
  const inWindow = (seq: number) => {
    for (const d of windows) if (seq < d && seq >= d - LATE_CONTEXT_BEFORE) return true;
    return false;
  };
  let reached = Infinity;
  return {
    offer(event) {
      reached = event.seq;
      const near = inWindow(event.seq);
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
      const paired = pending.filter((p) => p.id === change.record.id && p.seq > event.seq);
      if (paired.length === 0) return near;
      pending = pending.filter((p) => !paired.includes(p));
      for (const p of paired) {
        if (p.oneShot && !late(p.at, change.record.scheduledAt)) {
          windows.delete(p.seq);
        }
      }
      return true;
    },
    // The scan runs backwards: it is done once every create was found and it is below the
    // lowest open window.
    get done() {
      if (pending.length > 0) return false;
      for (const d of windows) if (reached > d - LATE_CONTEXT_BEFORE) return false;
      return true;
    },
  };
}

/** `true` when a dispatch at `at` came {@linkcode LATE_AFTER_MS} or more after `occurrenceAt`. */
function late(at: string, occurrenceAt: string): boolean {
  return Date.parse(at) - Date.parse(occurrenceAt) >= LATE_AFTER_MS;
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
