/**
 * `@chime/ui/schedule`: the independent bilingual renderer of `schedule/change` events
 * (docs/design.md#receipt-presentation: the client renderer adds the fixed session-local label) for
 * protocol versions 1 and 2 (docs/recurring.md). A dispatch with a committed view renders as a
 * reminder card, with "repeats … · next …", "Paused" and the next occurrences for a recurring
 * reminder and its actions (snooze presets, Pause or Resume, Skip next, Edit, Stop repeating)
 * when the page lends {@linkcode ScheduleServices};
 * every other change is one human line with its record behind `<details>`; a dispatch without a
 * view is never shown as a receipt. It also gives the generic conversation its schedule words,
 * the schedule tools' result lines and the reminder follow-up label
 * ({@linkcode registerScheduleTools}).
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
import { el } from "../_el.ts";
import { reminderCard, reminderPresentation, servicesOf } from "./_card.ts";
import { quoted, recordLine, row } from "./_rows.ts";
import { TEXT } from "./_strings.ts";
import { registerScheduleTools } from "./_tools.ts";
import { icon } from "../icons.ts";
import {
  type EventViewRegistry,
  jsonFallback,
  type RenderContext,
  type Rendered,
} from "../registry.ts";
import type { PresentedEventNode } from "../transcript.ts";
import type { ScheduleRecordWire, WireEvent } from "../wire.ts";

export {
  type CardState,
  type DurableOutcome,
  type HistoryState,
  type OfferedActions,
  pausedBadge,
  reminderActions,
  reminderCard,
  type ReminderOutcome,
  reminderPresentation,
  SCHEDULE_SERVICES,
  type ScheduleServices,
} from "./_card.ts";
export {
  closeOnEscape,
  composeRule,
  editBody,
  type EditFields,
  type EditTarget,
  editTargetOf,
  presetOf,
  RULE_PRESETS,
  type RulePreset,
} from "./_edit.ts";
export { historyControl, historyLine } from "./_history.ts";
export { type PreviewLine, previewLines, previewList } from "./_preview.ts";
export { SERIES_TEXT } from "./_series_strings.ts";
export { failureText, type ReminderAction } from "./_strings.ts";
export { type LocalParts, localParts, tomorrowIn } from "./_local_time.ts";
export { registerScheduleTools, reminderFollowupLabel, SCHEDULE_TOOL_SUMMARIES } from "./_tools.ts";
export {
  formatOccurrence,
  type FormattedOccurrence,
  type RepeatInfo,
  repeatLine,
  SESSION_LOCAL_LABEL,
} from "./text.ts";

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
 * Registers the schedule slice of the conversation: {@linkcode renderScheduleChange} for
 * `schedule/change`, and what the generic renderers say about the schedule's work
 * ({@linkcode registerScheduleTools}: the schedule tools' result lines, the reminder follow-up
 * label).
 *
 * @param registry the `conversation.chat.eventview` registry
 * @returns a function that unregisters them all
 */
export function registerScheduleView(registry: EventViewRegistry): () => void {
  const offChange = registry.register("schedule/change", renderScheduleChange);
  const offTools = registerScheduleTools(registry);
  return () => {
    offChange();
    offTools();
  };
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
