/**
 * A series' preview (docs/recurring.md "Host and page"): its next occurrences in the rule's
 * zone as the host lists them, with a note where daylight saving moved one ("moved to 03:30,
 * 02:30 does not exist that day"; "the earlier 01:30"), where whole periods passed without one
 * ("no occurrence in 2 months") and the occurrences a person skipped ("skipped").
 *
 * @module
 */
import { el } from "../_el.ts";
import { localeOf } from "../i18n.ts";
import type { RenderContext, Rendered } from "../registry.ts";
import { addToTime, localParts, offsetMinutes, parseOffset, wallLabel } from "./_local_time.ts";
import { SERIES_TEXT } from "./_series_strings.ts";
import type { PreviewOccurrenceWire } from "../wire.ts";

/** One line of the preview: an occurrence, or one a person skipped. */
export interface PreviewLine {
  /** The instant, UTC. */
  readonly at: string;
  /** `next` (it will fire) or `skipped` (excluded). */
  readonly state: "next" | "skipped";
  /** The wall-clock date and time in the rule's zone, as shown. */
  readonly label: string;
  /** The notes, in the UI language. */
  readonly notes: readonly string[];
}

/** The `FREQ` of a rule, if it names one. */
function freqOf(rrule: string | undefined): string | undefined {
  return rrule ? /(?:^|;)FREQ=([A-Z]+)/.exec(rrule)?.[1] : undefined;
}

/**
 * The preview's lines: each occurrence after the ones it excluded, soonest first.
 *
 * @param preview the host's preview
 * @param zone the rule's zone
 * @param rrule the rule (its `FREQ` names the skipped periods)
 * @param ctx the UI language
 * @returns the lines
 */
export function previewLines(
  preview: readonly PreviewOccurrenceWire[],
  zone: string,
  rrule: string | undefined,
  ctx: RenderContext,
): PreviewLine[] {
  const t = SERIES_TEXT[ctx.lang];
  const locale = localeOf(ctx.lang);
  const lines: PreviewLine[] = [];
  // A preview spanning years (a yearly rule, December into January) names each year.
  const years = new Set(
    preview.flatMap((p) =>
      [p.local, ...(p.excluded ?? [])].map((x) =>
        x.endsWith("Z") ? localParts(x, zone).date.slice(0, 4) : x.slice(0, 4)
      )
    ),
  );
  const withYear = years.size > 1;
  for (const p of preview) {
    for (const x of p.excluded ?? []) {
      const l = localParts(x, zone);
      lines.push({
        at: x,
        state: "skipped",
        label: wallLabel(l.date, l.time, locale, withYear),
        notes: [t.skippedItem],
      });
    }
    const [date = "", time = ""] = p.local.split("T");
    const notes: string[] = [];
    if (p.skippedPeriods) notes.push(t.noOccurrence(p.skippedPeriods, freqOf(rrule)));
    if (p.dst === "gap") {
      // Moved forward by the gap's length: the offset it has against the day before's.
      const before = offsetMinutes(new Date(Date.parse(p.at) - 86_400_000), zone);
      const step = parseOffset(p.offset) - before;
      notes.push(t.gap(time, addToTime(time, -(step > 0 ? step : 60))));
    } else if (p.dst === "overlap") notes.push(t.overlap(time));
    lines.push({ at: p.at, state: "next", label: wallLabel(date, time, locale, withYear), notes });
  }
  return lines.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/**
 * The preview list of a card or panel row.
 *
 * @param preview the host's preview (absent or empty ⇒ nothing)
 * @param zone the rule's zone, named once in the heading
 * @param rrule the rule
 * @param ctx the UI language
 * @returns the `div.preview` element (`data-testid="reminder-preview"`), or `null`
 */
export function previewList(
  preview: readonly PreviewOccurrenceWire[] | undefined,
  zone: string,
  rrule: string | undefined,
  ctx: RenderContext,
): Rendered {
  if (!preview?.length) return null;
  const t = SERIES_TEXT[ctx.lang];
  const title = t.previewTitle(zone);
  return el(
    "div",
    { class: "preview", "data-testid": "reminder-preview" },
    el("p", { class: "preview-head" }, title),
    el(
      "ol",
      { "aria-label": title },
      ...previewLines(preview, zone, rrule, ctx).map((l) =>
        el(
          "li",
          { "data-testid": "preview-item", "data-state": l.state, class: l.state },
          el("time", { dateTime: l.at }, l.label),
          l.notes.length ? el("span", { class: "note" }, ` · ${l.notes.join(" · ")}`) : null,
        )
      ),
    ),
  );
}
