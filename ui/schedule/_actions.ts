/**
 * The action row of a reminder card or panel row (docs/recurring.md "Host and page"): the snooze
 * presets (10 min, 1 h, tomorrow morning at 09:00 in the session's zone, a picked date and
 * time), a series' Pause or Resume, Skip next and Stop repeating, the Edit form, and the
 * outcome of the last click as a sentence (a refusal too, never its code).
 *
 * @module
 */
import type { VNode } from "preact";
import { el } from "../_el.ts";
import type { DurableOutcome } from "./_outcomes.ts";
import { closeOnEscape, editControl, type EditTarget, submitButton } from "./_edit.ts";
import { tomorrowIn } from "./_local_time.ts";
import { failureText, TEXT } from "./_strings.ts";
import { SERIES_TEXT } from "./_series_strings.ts";
import { type ReminderOutcome, type ScheduleServices, servicesOf } from "./_services.ts";
import { icon, type IconName } from "../icons.ts";
import type { RenderContext, Rendered } from "../registry.ts";
import { formatOccurrence } from "./text.ts";

/** Which buttons a card or row offers (the page still hides Stop once the series ended). */
export interface OfferedActions {
  /** The snooze presets. */
  readonly snooze: boolean;
  /** Stop repeating (shown only while the series is active and not stopped). */
  readonly stop: boolean;
  /** A series' Pause (or Resume, when `paused`) and Skip next. */
  readonly series?: boolean;
  /** The series is paused: Resume instead of Pause, no Skip next. */
  readonly paused?: boolean;
  /** What the Edit form edits (absent: no Edit). */
  readonly edit?: EditTarget;
  /** The zone "tomorrow morning" and a picked time are in (the session's). */
  readonly zone?: string;
}

function outcomeText(o: ReminderOutcome, ctx: RenderContext): string {
  const t = TEXT[ctx.lang];
  const s = SERIES_TEXT[ctx.lang];
  switch (o.state) {
    case "pending":
      return t.pending;
    case "stopped":
      return t.stoppedDone;
    case "paused":
      return s.pausedDone;
    case "resumed":
      return s.resumedDone;
    case "skipped":
      return s.skippedDone;
    case "changed":
      return s.changedDone;
  }
  if (o.state === "snoozed" && o.until) return t.snoozedUntil(formatOccurrence(o.until, ctx).local);
  return failureText(o.code, o.action, ctx.lang);
}

/** The Pick a time disclosure: a date and a time in the session's zone. */
function pickTime(
  scheduleId: string,
  key: string,
  zone: string,
  ctx: RenderContext,
  s: ScheduleServices,
  pending: boolean,
): VNode {
  const t = SERIES_TEXT[ctx.lang];
  const value = (form: HTMLFormElement, name: string) =>
    (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "";
  return el(
    "details",
    { class: "pick", "data-testid": "snooze-pick", onKeyDown: closeOnEscape },
    el(
      "summary",
      { class: "chip-button", "data-testid": "snooze-pick-open" },
      icon("clock"),
      ` ${t.pickTime}`,
    ),
    el(
      "form",
      {
        class: "reminder-form",
        "data-testid": "snooze-pick-form",
        "aria-label": t.pickTime,
        onSubmit: (e: Event) => {
          e.preventDefault();
          const form = e.currentTarget as HTMLFormElement;
          s.snoozeUntil!(scheduleId, { date: value(form, "date"), time: value(form, "time") }, key);
          const d = form.closest?.("details");
          if (d) d.open = false;
        },
      },
      el(
        "div",
        { class: "field-row" },
        el(
          "label",
          { class: "field" },
          el("span", null, t.date),
          el("input", { name: "date", type: "date", required: true }),
        ),
        el(
          "label",
          { class: "field" },
          el("span", null, t.time),
          el("input", { name: "time", type: "time", required: true }),
        ),
      ),
      el("p", { class: "zone small" }, t.zone(zone)),
      el(
        "div",
        { class: "buttons" },
        submitButton(t.snoozeUntil, "snooze-pick-save", pending),
      ),
    ),
  );
}

/**
 * The buttons of a card or row with the outcome of the last click. A click in flight or a failed
 * one is shown over `durable`; otherwise the newer of the click's answer and what the durable log
 * says (a durable outcome at or above the click's `since` is newer).
 *
 * @param scheduleId the reminder
 * @param key the card or row that shows the outcome
 * @param offer the buttons the host would accept in the reminder's state
 * @param ctx language, zone and the page's services (no services ⇒ nothing)
 * @param durable what the durable log says came of it, if known
 * @returns the button row, or `null` when it has neither buttons nor an outcome
 */
export function reminderActions(
  scheduleId: string,
  key: string,
  offer: OfferedActions,
  ctx: RenderContext,
  durable?: DurableOutcome,
): Rendered {
  const s = servicesOf(ctx);
  if (!s) return null;
  const t = TEXT[ctx.lang];
  const st = SERIES_TEXT[ctx.lang];
  const clicked = s.outcome(key);
  const settled = clicked?.state !== "pending" && clicked?.state !== "failed";
  const o: ReminderOutcome | undefined =
    durable && settled && (clicked?.since === undefined || durable.seq >= clicked.since)
      ? durable
      : clicked;
  const pending = o?.state === "pending";
  const button = (label: string, name: IconName, testid: string, run: () => void) =>
    el(
      "button",
      {
        type: "button",
        class: "chip-button",
        "data-testid": testid,
        disabled: pending,
        onClick: run,
      },
      icon(name),
      ` ${label}`,
    );
  const active = s.activeRecurring.has(scheduleId) && o?.state !== "stopped";
  const canStop = offer.stop && active;
  const series = offer.series === true && active;
  const zone = offer.zone ?? ctx.timeZone;
  const edit = offer.edit && editControl(offer.edit, key, ctx, s, pending);
  const buttons: (VNode | null | false | undefined)[] = [
    offer.snooze &&
    button(t.snooze10, "snooze", "snooze-600", () => s.snooze(scheduleId, 600, key)),
    offer.snooze &&
    button(t.snooze60, "snooze", "snooze-3600", () => s.snooze(scheduleId, 3600, key)),
    offer.snooze && s.snoozeUntil &&
    button(st.tomorrowMorning, "snooze", "snooze-tomorrow", () =>
      s.snoozeUntil!(
        scheduleId,
        { date: tomorrowIn(s.now?.() ?? new Date(), zone), time: "09:00" },
        key,
      )),
    offer.snooze && s.snoozeUntil && pickTime(scheduleId, key, zone, ctx, s, pending),
    series && offer.paused && s.resume &&
    button(st.resume, "play", "resume", () => s.resume!(scheduleId, key)),
    series && !offer.paused && s.pause &&
    button(st.pause, "pause", "pause", () => s.pause!(scheduleId, key)),
    series && !offer.paused && s.skip &&
    button(st.skipNext, "skip", "skip-next", () => s.skip!(scheduleId, key)),
    edit,
    canStop && button(t.stop, "stop", "stop-repeating", () => s.stop(scheduleId, key)),
  ];
  const shown = buttons.filter((b): b is VNode => !!b);
  if (shown.length === 0 && o === undefined) return null;
  return el(
    "div",
    { class: "reminder-actions" },
    shown.length ? el("div", { class: "buttons" }, ...shown) : null,
    el(
      "p",
      {
        class: `outcome ${o?.state ?? ""}`,
        role: "status",
        "data-testid": "reminder-outcome",
        "data-state": o?.state,
        "data-code": o?.state === "failed" ? o.code ?? "failed" : undefined,
      },
      o ? outcomeText(o, ctx) : "",
    ),
  );
}
