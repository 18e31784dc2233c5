/**
 * The History disclosure of a panel row (docs/recurring.md "Host and page"): opened, it fetches
 * `GET …/reminders/:id/history` and lists what the log says happened to the reminder (created,
 * changed, each delivery with its lateness and missed count, skips, snoozes, pauses, resumes,
 * skipped occurrences, stop, delete), each at its local time.
 *
 * @module
 */
import { el } from "../_el.ts";
import { icon } from "../icons.ts";
import type { RenderContext, Rendered } from "../registry.ts";
import { failureText } from "./_strings.ts";
import { causeClause, SERIES_TEXT } from "./_series_strings.ts";
import type { ScheduleServices } from "./_services.ts";
import { formatOccurrence } from "./text.ts";
import type { ReminderHistoryEntryWire } from "../wire.ts";

/**
 * One history entry in words: what happened, then its facts.
 *
 * @param e the entry
 * @param ctx the UI language and viewer zone
 * @returns e.g. `Delivered · for Jan 2, 2030, 9:00 AM · 3 s late · 2 missed`
 */
export function historyLine(e: ReminderHistoryEntryWire, ctx: RenderContext): string {
  const t = SERIES_TEXT[ctx.lang];
  const local = (iso: string) => formatOccurrence(iso, ctx).local;
  const facts: string[] = [t.kinds[e.kind] ?? e.kind];
  if (e.occurrenceAt && e.kind !== "created") {
    facts.push(`${t.occurrence} ${local(e.occurrenceAt)}`);
  }
  if (e.kind === "delivered" && typeof e.latenessMs === "number") facts.push(t.late(e.latenessMs));
  if (e.kind === "delivered" && e.cause && e.occurrenceAt) {
    facts.push(causeClause(e.cause, ctx.lang, ctx.timeZone, e.occurrenceAt));
  }
  if (e.missed) facts.push(t.missedN(e.missed));
  if (e.nextAt) facts.push(`${e.kind === "snoozed" ? t.until : t.next} ${local(e.nextAt)}`);
  return facts.join(" · ");
}

/**
 * The History disclosure: the `toggle` of an opened one asks the services to fetch.
 *
 * @param scheduleId the reminder
 * @param ctx the UI language and viewer zone
 * @param s the page's services (without `loadHistory`: nothing)
 * @returns the `details.history` element (`data-testid="reminder-history"`), or `null`
 */
export function historyControl(
  scheduleId: string,
  ctx: RenderContext,
  s: ScheduleServices,
): Rendered {
  if (!s.loadHistory) return null;
  const t = SERIES_TEXT[ctx.lang];
  const h = s.history?.(scheduleId);
  const body = h === undefined || h.state === "loading"
    ? el("p", { class: "muted small" }, t.historyLoading)
    : h.state === "failed"
    ? el(
      "p",
      { class: "outcome failed", role: "status", "data-code": h.code },
      failureText(h.code, "history", ctx.lang),
    )
    : h.entries?.length
    ? el(
      "ol",
      { class: "history-list" },
      ...h.entries.map((e) =>
        el(
          "li",
          { key: String(e.seq), "data-testid": "history-entry", "data-kind": e.kind },
          el("time", { dateTime: e.at }, formatOccurrence(e.at, ctx).local),
          el("span", null, ` · ${historyLine(e, ctx)}`),
        )
      ),
    )
    : el("p", { class: "muted small" }, t.historyEmpty);
  return el(
    "details",
    {
      class: "history",
      "data-testid": "reminder-history",
      "data-state": h?.state,
      onToggle: (e: Event) => {
        if ((e.currentTarget as HTMLDetailsElement).open) s.loadHistory!(scheduleId);
      },
    },
    el(
      "summary",
      { class: "chip-button", "data-testid": "history-open" },
      icon("list"),
      ` ${t.history}`,
    ),
    el("div", { "aria-busy": h === undefined || h.state === "loading" ? "true" : undefined }, body),
  );
}
