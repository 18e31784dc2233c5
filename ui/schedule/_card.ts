/**
 * The reminder card of a committed `schedule/change` dispatch (docs/recurring.md "Views"), its
 * Snooze and Stop repeating buttons, and the {@linkcode ScheduleServices} the page lends them
 * (docs/recurring.md "Host and page").
 *
 * @module
 */
import { el } from "../_el.ts";
import type { CardState, DurableOutcome } from "./_outcomes.ts";
import { failureText, TEXT, when } from "./_strings.ts";
import { icon, type IconName } from "../icons.ts";
import type { RenderContext, Rendered } from "../registry.ts";
import { formatOccurrence, repeatLine, SESSION_LOCAL_LABEL } from "./text.ts";
import type { ReminderPresentation } from "../wire.ts";

/** What a snooze or stop click led to (or, for a card, what the durable log says came of it). */
export interface ReminderOutcome {
  /** `pending` while the request runs. */
  readonly state: "pending" | "snoozed" | "stopped" | "failed";
  /** Snoozed: the new target, UTC RFC 3339. */
  readonly until?: string;
  /** Failed: the host's error code (shown as a sentence, never raw). */
  readonly code?: string;
  /** Failed: what was tried. */
  readonly action?: "snooze" | "stop";
  /**
   * The window's durable bound when the click was made: a durable outcome at or above it is
   * newer than the click and is shown instead.
   */
  readonly since?: number;
}

export type { CardState, DurableOutcome } from "./_outcomes.ts";

/**
 * What a page lends the renderer through `RenderContext.services[SCHEDULE_SERVICES]`: the
 * snooze and stop actions (docs/recurring.md "Host and page"), their outcomes, which recurring
 * reminders are still active, and the prompts of records the window holds.
 */
export interface ScheduleServices {
  /** Ids of active recurring reminders (the host's fold, `GET /reminders`). */
  readonly activeRecurring: ReadonlySet<string>;
  /** The prompt of a record created or changed in the window, by id. */
  promptOf(scheduleId: string): string | undefined;
  /** The outcome of the last click on the card or row `key` in this page (memory only). */
  outcome(key: string): ReminderOutcome | undefined;
  /**
   * The card of a delivered occurrence as the durable log tells it: whether it may act (it is
   * its reminder's latest delivered occurrence, the one the host snoozes) and what came of it
   * (snoozed until …, stopped), so the outcome survives a reload.
   *
   * @param scheduleId the delivered reminder
   * @param occurrenceAt the delivered occurrence, UTC RFC 3339
   * @param seq the card's dispatch seq
   */
  card?(scheduleId: string, occurrenceAt: string, seq: number): CardState;
  /** Snoozes a reminder by `seconds` (60 ≤ seconds ≤ 7 days). */
  snooze(scheduleId: string, seconds: number, key: string): void;
  /** Stops a recurring reminder. */
  stop(scheduleId: string, key: string): void;
}

/** The key of {@linkcode ScheduleServices} in `RenderContext.services`. */
export const SCHEDULE_SERVICES = "schedule";

/**
 * The page's schedule services, if it lends them.
 *
 * @param ctx the render context
 * @returns the services, or `undefined`
 */
export function servicesOf(ctx: RenderContext): ScheduleServices | undefined {
  return ctx.services?.[SCHEDULE_SERVICES] as ScheduleServices | undefined;
}

/**
 * Tells whether a view carries a usable reminder presentation.
 *
 * @param view a sidecar view
 * @returns the presentation, or `undefined`
 */
export function reminderPresentation(view: unknown): ReminderPresentation | undefined {
  const v = view as { type?: unknown; presentation?: Record<string, unknown> } | undefined;
  const p = v?.presentation;
  if (v?.type !== "schedule/change" || !p) return undefined;
  const { scheduleId, prompt, occurrenceAt, recurring, missed, snoozeOf } = p;
  if (typeof scheduleId !== "string" || typeof prompt !== "string") return undefined;
  if (typeof occurrenceAt !== "string") return undefined;
  const r = recurring as ReminderPresentation["recurring"] | undefined;
  const s = snoozeOf as ReminderPresentation["snoozeOf"] | undefined;
  return {
    scheduleId,
    prompt,
    occurrenceAt,
    ...(r && typeof r.rrule === "string" && typeof r.timeZone === "string" ? { recurring: r } : {}),
    ...(typeof missed === "number" && missed > 0 ? { missed } : {}),
    ...(s && typeof s.id === "string" ? { snoozeOf: s } : {}),
  };
}

function outcomeText(o: ReminderOutcome, ctx: RenderContext): string {
  const t = TEXT[ctx.lang];
  if (o.state === "pending") return t.pending;
  if (o.state === "stopped") return t.stoppedDone;
  if (o.state === "snoozed" && o.until) return t.snoozedUntil(formatOccurrence(o.until, ctx).local);
  return failureText(o.code, o.action, ctx.lang);
}

/** Which buttons a card or row offers (the page still hides Stop once the series ended). */
export interface OfferedActions {
  /** Snooze 10 min and Snooze 1 h. */
  readonly snooze: boolean;
  /** Stop repeating (shown only while the series is active and not stopped). */
  readonly stop: boolean;
}

/**
 * The Snooze 10 min, Snooze 1 h and (recurring, still active) Stop repeating buttons with the
 * outcome of the last click, for a card or a panel row. A click in flight or a failed one is
 * shown over `durable`; otherwise the newer of the click's answer and what the durable log says
 * (a durable outcome at or above the click's `since` is newer).
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
  const canStop = offer.stop && s.activeRecurring.has(scheduleId) && o?.state !== "stopped";
  if (!offer.snooze && !canStop && o === undefined) return null;
  return el(
    "div",
    { class: "reminder-actions" },
    offer.snooze || canStop
      ? el(
        "div",
        { class: "buttons" },
        offer.snooze
          ? button(t.snooze10, "snooze", "snooze-600", () => s.snooze(scheduleId, 600, key))
          : null,
        offer.snooze
          ? button(t.snooze60, "snooze", "snooze-3600", () => s.snooze(scheduleId, 3600, key))
          : null,
        canStop ? button(t.stop, "stop", "stop-repeating", () => s.stop(scheduleId, key)) : null,
      )
      : null,
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

/**
 * The reminder card of a committed dispatch. The prompt is a text child, never HTML.
 *
 * @param presentation what the host's view carries
 * @param ctx language, viewer zone and (optionally) the page's services for the buttons
 * @param seq the dispatch seq (the key of the card's outcome)
 * @returns the card element (`data-testid="reminder-card"`)
 */
export function reminderCard(
  presentation: ReminderPresentation,
  ctx: RenderContext,
  seq = -1,
): Rendered {
  const t = TEXT[ctx.lang];
  const r = presentation.recurring;
  const known = servicesOf(ctx)?.card?.(presentation.scheduleId, presentation.occurrenceAt, seq);
  const actionable = known?.actionable ?? true;
  return el(
    "article",
    {
      class: `reminder-card${r ? " recurring" : ""}`,
      "data-testid": "reminder-card",
      "data-schedule-id": presentation.scheduleId,
      "data-recurring": r ? "true" : undefined,
      "aria-label": `${t.reminder}: ${presentation.prompt}`,
    },
    el(
      "header",
      null,
      icon(presentation.snoozeOf ? "snooze" : "bell"),
      presentation.snoozeOf ? t.snoozedReminder : t.reminder,
    ),
    el("p", { class: "prompt", "data-testid": "reminder-prompt" }, presentation.prompt),
    el("p", { class: "occurrence" }, when(presentation.occurrenceAt, ctx)),
    r
      ? el(
        "p",
        { class: "repeat", "data-testid": "reminder-repeat" },
        icon("repeat"),
        ` ${repeatLine(r, r.nextAt, ctx)}`,
      )
      : null,
    presentation.missed ? el("p", { class: "missed" }, t.missed(presentation.missed)) : null,
    el(
      "p",
      { class: "session-local", "data-testid": "session-local-label" },
      SESSION_LOCAL_LABEL[ctx.lang],
    ),
    reminderActions(
      presentation.scheduleId,
      `card:${seq}`,
      { snooze: actionable, stop: actionable && r !== undefined },
      ctx,
      known?.outcome,
    ),
  );
}
