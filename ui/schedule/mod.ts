/**
 * `@chime/ui/schedule`: the schedule plugin's client renderer module, and its one registration
 * point in the page, {@linkcode SCHEDULE_CLIENT} (docs/architecture.md "Plugins"): the bilingual
 * `schedule/change` renderer (reminder cards with the fixed session-local label,
 * docs/design.md#receipt-presentation; `./view.ts`), the `reminders` panel with its chip
 * ({@linkcode ReminderPanelModel}, {@linkcode RemindersPanel}), a series' controls on cards and
 * rows (Paused, Pause or Resume, Skip next, Edit, the snooze presets, the next-5 preview and a
 * row's History; docs/recurring.md "Host and page"), the alert for a new reminder card and the
 * empty page's reminder hints, and the `upcoming` page view ({@linkcode UpcomingView}: every
 * session's reminders, with Open, the same actions and the calendar feed's link). The page enables it only when `GET /api/client-config`
 * lists `@chime/ui/schedule`, and shows the panel only when that answer lists `reminders` (the
 * schedule plugin is loaded, so its routes exist).
 *
 * @example Register the renderer
 * ```ts
 * import { EventViewRegistry } from "@chime/ui";
 * import { SCHEDULE_CLIENT } from "@chime/ui/schedule";
 * const registry = new EventViewRegistry();
 * SCHEDULE_CLIENT.register(registry);
 * console.assert(registry.has("schedule/change"));
 * ```
 *
 * @module
 */
import type { ClientRenderer, PageViewDefinition, PanelDefinition } from "../client_renderer.ts";
import { registerScheduleView, reminderPresentation } from "./view.ts";
import { ReminderPanelModel } from "./panel.ts";
import { occurrenceKey } from "@chime/schedule/presentation";
import { PANEL_TEXT, RemindersPanel } from "./panel_view.tsx";
import { UpcomingViewModel } from "./upcoming.ts";
import { UPCOMING_TEXT, UpcomingView } from "./upcoming_view.tsx";

export * from "./view.ts";
export {
  durableScheduleMark,
  type ImportOutcome,
  type ReminderPanel,
  ReminderPanelModel,
} from "./panel.ts";
// Types in the signatures above, re-exported for documentation.
export type { DamagedChangeWire } from "../wire.ts";
export { PANEL_TEXT, RemindersPanel } from "./panel_view.tsx";
export {
  type FeedLink,
  UPCOMING_PAGE,
  type UpcomingDamageWire,
  type UpcomingEntryWire,
  type UpcomingModel,
  type UpcomingPageWire,
  type UpcomingStateWire,
  UpcomingViewModel,
} from "./upcoming.ts";
export { STATE_TEXT, UPCOMING_TEXT, type UpcomingTextKey, UpcomingView } from "./upcoming_view.tsx";
export {
  codeOf,
  listServices,
  type SessionActions,
  sessionActions,
  type SessionActionsHost,
} from "./_session_actions.ts";
export type {
  ApiRequest,
  ClientRenderer,
  OpenTarget,
  PageHints,
  PageViewDefinition,
  PageViewHost,
  PageViewModel,
  PageViewProps,
  PanelDefinition,
  PanelHost,
  PanelModel,
  PanelRequest,
  PanelViewProps,
  ViewAlert,
} from "../client_renderer.ts";
// UI types that appear in this module's signatures, re-exported for documentation.
export type { ClientAssets, EventRenderers, PageWindow } from "@chime/contract";
export type { Lang } from "../i18n.ts";
export type {
  EventRenderer,
  EventViewRegistry,
  FollowupLabeler,
  RenderContext,
  Rendered,
  ToolSummarizer,
  ToolSummary,
} from "../registry.ts";
export type { PresentedEventNode } from "../transcript.ts";
export type { SessionWindow } from "../window.ts";
export type {
  BufferEntry,
  LoadExit,
  MergeExit,
  OlderExit,
  Readable,
  RepairExit,
  WindowStatus,
} from "../window_types.ts";
export type {
  ActiveReminderWire,
  EventView,
  HistoryEntry,
  HistoryKind,
  LateWire,
  OccurrencePreview,
  PreviewOccurrenceWire,
  RecurringPresentation,
  ReminderHistoryEntryWire,
  ReminderPresentation,
  ReminderUpdateBody,
  RepeatWire,
  ScheduleId,
  ScheduleRecordWire,
  SnoozeOfWire,
  StreamMessage,
  WireEvent,
} from "../wire.ts";

/** The `reminders` panel. */
export const REMINDERS_PANEL: PanelDefinition = {
  name: "reminders",
  icon: "bell",
  label: (lang) => PANEL_TEXT[lang].chip,
  create: (host) => new ReminderPanelModel(host),
  view: RemindersPanel,
};

/** The `upcoming` page view: every session's reminders (docs/upcoming.md). */
export const UPCOMING_VIEW: PageViewDefinition = {
  name: "upcoming",
  icon: "calendar",
  label: (lang) => UPCOMING_TEXT[lang].title,
  create: (host) => new UpcomingViewModel(host),
  view: UpcomingView,
};

const CARD_TITLE = { en: "Reminder", zh: "提醒" } as const;

/**
 * The schedule renderer module as the page enables it.
 *
 * @example Its name and panel
 * ```ts
 * import { SCHEDULE_CLIENT } from "@chime/ui/schedule";
 * console.assert(SCHEDULE_CLIENT.name === "@chime/ui/schedule");
 * console.assert(SCHEDULE_CLIENT.panels?.[0]?.name === "reminders");
 * ```
 */
export const SCHEDULE_CLIENT: ClientRenderer = {
  name: "@chime/ui/schedule",
  register: registerScheduleView,
  panels: [REMINDERS_PANEL],
  views: [UPCOMING_VIEW],
  hints: {
    placeholder: {
      en: "Message the agent — try “remind me in 20 minutes to stretch”",
      zh: "给 Agent 发消息 —— 试试“20 分钟后提醒我起来活动”",
    },
    hello: {
      en: "Say hello. Ask for a reminder in plain words, in English or 中文.",
      zh: "打个招呼吧。可以用中文或英文让我设置提醒。",
    },
    hostDown: {
      en: "Cannot reach the server. Reminders cannot fire until it is back.",
      zh: "无法连接服务器。服务器恢复之前，提醒无法触发。",
    },
    deleteBody: {
      en: "Its reminders stop and it leaves the list. This cannot be undone here.",
      zh: "它的提醒会停止，并从列表中移除。此操作无法在页面上撤销。",
    },
  },
  alertOf(view, lang) {
    const p = reminderPresentation(view);
    return p === undefined
      ? undefined
      : { title: CARD_TITLE[lang], body: p.prompt, key: occurrenceKey(p) };
  },
};

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type { Delivery, DeliveryHost } from "@chime/contract";
export type {
  ActiveReminder,
  DELIVERY_MODE,
  RepeatValue,
  SnoozeOf,
  UpcomingEntry,
  UpcomingState,
} from "@chime/schedule/upcoming";
