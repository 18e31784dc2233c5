/**
 * `@chime/ui/schedule`: the independent bilingual renderer of `schedule/change` events
 * (seed "Commit-aware Web 回执": the client renderer adds the fixed session-local label).
 * A dispatch with a committed view renders as a reminder card; create and delete render as
 * compact rows; a dispatch without a view is never shown as a receipt.
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
import { type Lang, localeOf } from "./i18n.ts";
import {
  type EventViewRegistry,
  jsonFallback,
  type RenderContext,
  type Rendered,
} from "./registry.ts";
import type { PresentedEventNode } from "./transcript.ts";
import type { ReminderPresentation, ScheduleRecordWire, WireEvent } from "./wire.ts";

/** The fixed session-local label, per language. */
export const SESSION_LOCAL_LABEL: Readonly<Record<Lang, string>> = {
  en: "Session-local reminder — fires only while this session is open",
  zh: "仅限本会话的提醒 —— 仅在本会话打开时触发",
};

const TEXT = {
  en: {
    reminder: "Reminder",
    set: "Reminder set",
    cancelled: "Reminder cancelled",
    due: "Reminder due — waiting for it to be saved",
    your: "your time",
  },
  zh: {
    reminder: "提醒",
    set: "已设置提醒",
    cancelled: "已取消提醒",
    due: "提醒已到期 —— 等待保存",
    your: "本地时间",
  },
} as const;

/** An occurrence formatted for the viewer. */
export interface FormattedOccurrence {
  /** In the viewer's zone, e.g. `Jan 1, 2030, 9:20 AM`. */
  readonly local: string;
  /** The viewer's zone used (falls back to `UTC` when the given zone is not accepted). */
  readonly zone: string;
  /** In UTC, e.g. `2030-01-01 08:20 UTC`. */
  readonly utc: string;
}

/**
 * Formats a UTC instant in the viewer's zone and in UTC.
 *
 * @param iso a UTC RFC 3339 instant (`occurrenceAt` / `scheduledAt`)
 * @param ctx the viewer's language and IANA zone
 * @returns both renderings
 * @example Format in Berlin
 * ```ts
 * import { formatOccurrence } from "@chime/ui/schedule";
 * const f = formatOccurrence("2030-01-01T08:20:00.000Z", { lang: "en", timeZone: "Europe/Berlin" });
 * console.assert(f.utc === "2030-01-01 08:20 UTC");
 * ```
 */
export function formatOccurrence(iso: string, ctx: RenderContext): FormattedOccurrence {
  const date = new Date(iso);
  let zone = ctx.timeZone;
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat(localeOf(ctx.lang), {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: zone,
    });
  } catch {
    zone = "UTC";
    fmt = new Intl.DateTimeFormat(localeOf(ctx.lang), {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: zone,
    });
  }
  const utc = Number.isNaN(date.getTime())
    ? iso
    : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return { local: Number.isNaN(date.getTime()) ? iso : fmt.format(date), zone, utc };
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
  const { scheduleId, prompt, occurrenceAt } = p;
  if (typeof scheduleId !== "string" || typeof prompt !== "string") return undefined;
  if (typeof occurrenceAt !== "string") return undefined;
  return { scheduleId, prompt, occurrenceAt };
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

/**
 * The reminder card of a committed dispatch. The prompt is a text child, never HTML.
 *
 * @param presentation what the host's view carries
 * @param ctx language and viewer zone
 * @returns the card element (`data-testid="reminder-card"`)
 */
export function reminderCard(presentation: ReminderPresentation, ctx: RenderContext): Rendered {
  const t = TEXT[ctx.lang];
  return el(
    "article",
    {
      class: "reminder-card",
      "data-testid": "reminder-card",
      "data-schedule-id": presentation.scheduleId,
    },
    el("header", null, el("span", { class: "bell", "aria-hidden": "true" }, "⏰"), t.reminder),
    el("p", { class: "prompt", "data-testid": "reminder-prompt" }, presentation.prompt),
    el("p", { class: "occurrence" }, when(presentation.occurrenceAt, ctx)),
    el(
      "p",
      { class: "session-local", "data-testid": "session-local-label" },
      SESSION_LOCAL_LABEL[ctx.lang],
    ),
  );
}

function row(kind: string, ...children: (VNode | string)[]): VNode {
  return el(
    "div",
    { class: `schedule-row ${kind}`, "data-testid": `schedule-${kind}` },
    ...children,
  );
}

/**
 * Renders a `schedule/change` node: a card for a dispatch with a view, compact rows otherwise,
 * the JSON fallback for shapes it does not know.
 *
 * @param node the presented node
 * @param ctx language and viewer zone
 * @returns the element
 */
export function renderScheduleChange(node: PresentedEventNode, ctx: RenderContext): Rendered {
  const t = TEXT[ctx.lang];
  const data = node.data as { op?: unknown; record?: ScheduleRecordWire; id?: unknown };
  if (data?.op === "dispatch") {
    const presentation = reminderPresentation(node.view);
    if (presentation) return reminderCard(presentation, ctx);
    return row("dispatch-pending", `⏰ ${t.due}`);
  }
  if (data?.op === "create" && data.record && typeof data.record.prompt === "string") {
    return row(
      "create",
      `⏰ ${t.set}: `,
      el("q", null, data.record.prompt),
      " ",
      when(data.record.scheduledAt, ctx),
    );
  }
  if (data?.op === "delete" && typeof data.id === "string") {
    return row("delete", `✕ ${t.cancelled} `, el("code", null, data.id));
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
    const d = e.data as { op?: string; record?: ScheduleRecordWire; id?: string };
    if (d.op === "create" && d.record) active.set(d.record.id, d.record);
    else if ((d.op === "delete" || d.op === "dispatch") && d.id) active.delete(d.id);
  }
  return [...active.values()].sort((a, b) => a.scheduledAt.localeCompare(b.scheduledAt));
}
