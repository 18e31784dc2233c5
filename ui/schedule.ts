/**
 * `@chime/ui/schedule`: the independent bilingual renderer of `schedule/change` events
 * (docs/design.md#receipt-presentation: the client renderer adds the fixed session-local label) for
 * protocol versions 1 and 2 (docs/recurring.md). A dispatch with a committed view renders as a
 * reminder card, with "repeats … · next …" for a recurring reminder and the Snooze 10 min,
 * Snooze 1 h and Stop repeating buttons when the page lends {@linkcode ScheduleServices};
 * every other change is one human line with its record behind `<details>`; a dispatch without a
 * view is never shown as a receipt.
 *
 * @example Register the renderer
 * ```ts
 * import { EventViewRegistry } from "@chime/ui";
 * import { registerScheduleView } from "@chime/ui/schedule";
 * const registry = new EventViewRegistry();
 * registerScheduleView(registry);
 * console.assert(registry.has("schedule/change"));
 * ```
 *
 * @module
 */
import type { VNode } from "preact";
import { el } from "./_el.ts";
import { icon, type IconName } from "./icons.ts";
import {
  type EventViewRegistry,
  jsonFallback,
  type RenderContext,
  type Rendered,
} from "./registry.ts";
import { formatOccurrence, repeatLine, SESSION_LOCAL_LABEL } from "./schedule_text.ts";
import type { PresentedEventNode } from "./transcript.ts";
import type { ReminderPresentation, ScheduleRecordWire, WireEvent } from "./wire.ts";

export {
  describeRule,
  formatOccurrence,
  type FormattedOccurrence,
  type RepeatInfo,
  repeatLine,
  SESSION_LOCAL_LABEL,
} from "./schedule_text.ts";

const TEXT = {
  en: {
    reminder: "Reminder",
    snoozedReminder: "Snoozed reminder",
    set: "Reminder set",
    setRepeating: "Repeating reminder set",
    snoozed: "Snoozed",
    changed: "Reminder changed",
    cancelled: "Reminder cancelled",
    stopped: "Stopped repeating",
    skipped: "Skipped a missed occurrence (outside its catch-up window)",
    due: "Reminder due — waiting for it to be saved",
    first: "first",
    until: "until",
    missed: (n: number) =>
      n === 1 ? "1 earlier occurrence was missed" : `${n} earlier occurrences were missed`,
    snooze10: "Snooze 10 min",
    snooze60: "Snooze 1 h",
    stop: "Stop repeating",
    pending: "Saving…",
    snoozedUntil: (when: string) => `Snoozed until ${when}`,
    stoppedDone: "Stopped repeating",
    failed: "Could not change the reminder",
  },
  zh: {
    reminder: "提醒",
    snoozedReminder: "稍后提醒",
    set: "已设置提醒",
    setRepeating: "已设置重复提醒",
    snoozed: "已推迟",
    changed: "已修改提醒",
    cancelled: "已取消提醒",
    stopped: "已停止重复",
    skipped: "已跳过一次错过的提醒（超出补发时间窗）",
    due: "提醒已到期 —— 等待保存",
    first: "首次",
    until: "至",
    missed: (n: number) => `之前错过了 ${n} 次`,
    snooze10: "10 分钟后再提醒",
    snooze60: "1 小时后再提醒",
    stop: "停止重复",
    pending: "保存中…",
    snoozedUntil: (when: string) => `已推迟至 ${when}`,
    stoppedDone: "已停止重复",
    failed: "无法修改该提醒",
  },
} as const;

/** What a snooze or stop click led to. */
export interface ReminderOutcome {
  /** `pending` while the request runs. */
  readonly state: "pending" | "snoozed" | "stopped" | "failed";
  /** Snoozed: the new target, UTC RFC 3339. */
  readonly until?: string;
  /** Failed: the host's error code. */
  readonly code?: string;
}

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
  /** The outcome shown by the card or row `key`. */
  outcome(key: string): ReminderOutcome | undefined;
  /** Snoozes a reminder by `seconds` (60 ≤ seconds ≤ 7 days). */
  snooze(scheduleId: string, seconds: number, key: string): void;
  /** Stops a recurring reminder. */
  stop(scheduleId: string, key: string): void;
}

/** The key of {@linkcode ScheduleServices} in `RenderContext.services`. */
export const SCHEDULE_SERVICES = "schedule";

function servicesOf(ctx: RenderContext): ScheduleServices | undefined {
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

function when(iso: string, ctx: RenderContext): VNode {
  const f = formatOccurrence(iso, ctx);
  return el(
    "span",
    { class: "when" },
    el("time", { dateTime: iso, title: f.zone }, f.local),
    el("span", { class: "zone" }, ` (${f.zone})`),
    el("span", { class: "utc" }, ` · ${f.utc}`),
  );
}

function outcomeText(o: ReminderOutcome, ctx: RenderContext): string {
  const t = TEXT[ctx.lang];
  if (o.state === "pending") return t.pending;
  if (o.state === "stopped") return t.stoppedDone;
  if (o.state === "snoozed" && o.until) return t.snoozedUntil(formatOccurrence(o.until, ctx).local);
  return `${t.failed} (${o.code ?? "failed"})`;
}

/**
 * The Snooze 10 min, Snooze 1 h and (recurring, still active) Stop repeating buttons with the
 * outcome of the last click, for a card or a panel row.
 *
 * @param scheduleId the reminder
 * @param key the card or row that shows the outcome
 * @param recurring whether the reminder repeats
 * @param ctx language, zone and the page's services (no services ⇒ nothing)
 * @returns the button row, or `null`
 */
export function reminderActions(
  scheduleId: string,
  key: string,
  recurring: boolean,
  ctx: RenderContext,
): Rendered {
  const s = servicesOf(ctx);
  if (!s) return null;
  const t = TEXT[ctx.lang];
  const o = s.outcome(key);
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
  const canStop = recurring && s.activeRecurring.has(scheduleId) && o?.state !== "stopped";
  return el(
    "div",
    { class: "reminder-actions" },
    el(
      "div",
      { class: "buttons" },
      button(t.snooze10, "snooze", "snooze-600", () => s.snooze(scheduleId, 600, key)),
      button(t.snooze60, "snooze", "snooze-3600", () => s.snooze(scheduleId, 3600, key)),
      canStop ? button(t.stop, "stop", "stop-repeating", () => s.stop(scheduleId, key)) : null,
    ),
    el(
      "p",
      {
        class: `outcome ${o?.state ?? ""}`,
        role: "status",
        "data-testid": "reminder-outcome",
        "data-state": o?.state,
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
    reminderActions(presentation.scheduleId, `card:${seq}`, r !== undefined, ctx),
  );
}

function row(kind: string, glyph: IconName, line: (VNode | string | null)[], body: unknown): VNode {
  return el(
    "details",
    { class: `schedule-row ${kind}`, "data-testid": `schedule-${kind}` },
    el("summary", null, icon(glyph), " ", ...line),
    el("pre", null, JSON.stringify(body, null, 2)),
  );
}

function quoted(prompt: string | undefined): (VNode | string)[] {
  return prompt === undefined ? [] : [": ", el("q", null, prompt)];
}

function recordLine(record: ScheduleRecordWire, ctx: RenderContext): (VNode | string)[] {
  const t = TEXT[ctx.lang];
  if (record.kind === "recurring" && record.rrule && record.timeZone) {
    const repeat = { rrule: record.rrule, timeZone: record.timeZone };
    return [
      " · ",
      repeatLine(repeat, undefined, ctx),
      ` · ${t.first} `,
      when(record.scheduledAt, ctx),
    ];
  }
  return [record.snoozeOf ? ` ${t.until} ` : " ", when(record.scheduledAt, ctx)];
}

/**
 * Renders a `schedule/change` node (versions 1 and 2): a card for a dispatch with a view, one
 * line with details otherwise, the JSON fallback for shapes it does not know.
 *
 * @param node the presented node
 * @param ctx language, viewer zone and the page's services
 * @returns the element
 */
export function renderScheduleChange(node: PresentedEventNode, ctx: RenderContext): Rendered {
  const t = TEXT[ctx.lang];
  const data = node.data as {
    op?: unknown;
    record?: ScheduleRecordWire;
    id?: unknown;
    reason?: unknown;
  };
  const record = data.record && typeof data.record.prompt === "string" ? data.record : undefined;
  const promptOf = (id: unknown) =>
    typeof id === "string" ? servicesOf(ctx)?.promptOf(id) : undefined;
  switch (data?.op) {
    case "dispatch": {
      const presentation = reminderPresentation(node.view);
      if (presentation) return reminderCard(presentation, ctx, node.seq);
      return el(
        "div",
        { class: "schedule-row dispatch-pending", "data-testid": "schedule-dispatch-pending" },
        icon("clock"),
        ` ${t.due}`,
      );
    }
    case "create":
      if (!record) break;
      if (record.snoozeOf) {
        return row("create", "snooze", [
          t.snoozed,
          ...quoted(record.prompt),
          ...recordLine(record, ctx),
        ], record);
      }
      return row(
        "create",
        record.kind === "recurring" ? "repeat" : "bell",
        [
          record.kind === "recurring" ? t.setRepeating : t.set,
          ...quoted(record.prompt),
          ...recordLine(record, ctx),
        ],
        record,
      );
    case "update":
      if (!record) break;
      return row("update", "edit", [
        t.changed,
        ...quoted(record.prompt),
        ...recordLine(record, ctx),
      ], record);
    case "delete":
      if (typeof data.id !== "string") break;
      return row("delete", "close", [t.cancelled, ...quoted(promptOf(data.id))], data);
    case "stop":
      if (typeof data.id !== "string") break;
      return row("stop", "stop", [t.stopped, ...quoted(promptOf(data.id))], data);
    case "skip":
      if (typeof data.id !== "string") break;
      return row("skip", "skip", [t.skipped, ...quoted(promptOf(data.id))], data);
  }
  return jsonFallback(node);
}

/**
 * Registers {@linkcode renderScheduleChange} for `schedule/change`.
 *
 * @param registry the `conversation.chat.eventview` registry
 * @returns a function that unregisters it
 */
export function registerScheduleView(registry: EventViewRegistry): () => void {
  return registry.register("schedule/change", renderScheduleChange);
}

/**
 * The prompts of every record a window's `create` and `update` events carry, by id (latest
 * wins), so delete, stop and skip rows can name their reminder.
 *
 * @param events the window's events
 * @returns prompts by schedule id
 */
export function promptsById(events: readonly WireEvent[]): Map<string, string> {
  const prompts = new Map<string, string>();
  for (const e of events) {
    if (e.type !== "schedule/change") continue;
    const r = (e.data as { record?: ScheduleRecordWire }).record;
    if (r && typeof r.id === "string" && typeof r.prompt === "string") prompts.set(r.id, r.prompt);
  }
  return prompts;
}

/**
 * The active reminders in a window: creates not yet deleted or dispatched, soonest first. On a
 * fork only events from `seedLength` on count, so inherited reminders are not active work.
 *
 * @param events the window's events (older creates outside the window are unknown)
 * @param options `seedLength` of the session header, if any
 * @returns the active records
 */
export function activeReminders(
  events: readonly WireEvent[],
  options: { readonly seedLength?: number | undefined } = {},
): ScheduleRecordWire[] {
  const active = new Map<string, ScheduleRecordWire>();
  for (const e of events) {
    if (e.type !== "schedule/change" || e.seq < (options.seedLength ?? 0)) continue;
    const d = e.data as { op?: string; record?: ScheduleRecordWire; id?: string; nextAt?: unknown };
    if ((d.op === "create" || d.op === "update") && d.record) active.set(d.record.id, d.record);
    else if (d.op === "delete" || d.op === "stop") active.delete(d.id ?? "");
    else if (d.op === "dispatch" || d.op === "skip") {
      const r = active.get(d.id ?? "");
      // A recurring dispatch is terminal only when the series is exhausted (`nextAt: null`).
      if (r?.kind === "recurring" && typeof d.nextAt === "string") {
        active.set(r.id, { ...r, scheduledAt: d.nextAt });
      } else active.delete(d.id ?? "");
    }
  }
  return [...active.values()].sort((a, b) => a.scheduledAt.localeCompare(b.scheduledAt));
}
