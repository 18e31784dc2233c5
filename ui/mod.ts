/**
 * `@chime/ui`: the browser side of chime. It owns the session window (a commit-aware merge of
 * history pages, live SSE events and same-seq sidecar views), the {@linkcode TranscriptAdapter},
 * the `conversation.chat.eventview` registry with its JSON fallback, and the conversation
 * renderers. `@chime/ui/schedule` is the independent bilingual reminder renderer and
 * `@chime/ui/assets` the built page, embedded as strings.
 *
 * @example Drive a session window without a network
 * ```ts
 * import { SessionWindow } from "@chime/ui";
 * const win = new SessionWindow({
 *   loadHistory: () => Promise.resolve({ events: [], views: {}, nextBefore: null }),
 *   loadAfter: () => Promise.resolve({ events: [], views: {} }),
 * });
 * await win.start();
 * console.assert(win.status.value === "ready");
 * ```
 *
 * @module
 */
export { SessionWindow } from "./window.ts";
export type {
  BufferEntry,
  EventSnapshot,
  HistoryQuery,
  LoadExit,
  MergeExit,
  OlderExit,
  OlderPage,
  Readable,
  RepairExit,
  SessionWindowOptions,
  WindowStatus,
} from "./window_types.ts";
export { isDense } from "./window_types.ts";
export { type PresentedEventNode, presentEvent, TranscriptAdapter } from "./transcript.ts";
export {
  EVENT_VIEW_SLOT,
  type EventRenderer,
  EventViewRegistry,
  eventViews,
  type FollowupLabeler,
  jsonFallback,
  registerEventView,
  type RenderContext,
  type Rendered,
  type ToolSummarizer,
  type ToolSummary,
} from "./registry.ts";
export { CONVERSATION_RENDERERS, registerConversationViews } from "./conversation.ts";
export {
  detectLang,
  initialLang,
  type Lang,
  lang,
  LANG_KEY,
  type LangStorage,
  localeOf,
  saveLang,
  type Writable,
} from "./i18n.ts";
export type {
  ActiveReminderWire,
  DamagedChangeWire,
  EventView,
  FlushedMessage,
  HistoryEntry,
  HistoryKind,
  HistoryPage,
  LateWire,
  OccurrencePreview,
  PreviewOccurrenceWire,
  RecurringPresentation,
  ReminderHistoryEntryWire,
  ReminderPresentation,
  RemindersPage,
  ReminderUpdateBody,
  RepeatWire,
  ScheduleChangeData,
  ScheduleChangeView,
  ScheduleId,
  ScheduleRecordWire,
  SessionsPage,
  SessionSummary,
  SnoozeOfWire,
  StreamMessage,
  WireError,
  WireEvent,
  WireHeader,
} from "./wire.ts";
export { type AssetsEnv, installAssets } from "./client/assets.ts";

// Types in the signatures above, re-exported for documentation.
export type { ClientRenderer, EventRenderers } from "@chime/contract";
export type { ClientAssets, PageHints, PanelDefinition, ViewAlert } from "@chime/contract";
export type { PanelHost, PanelModel, PanelViewProps } from "@chime/contract";
export type { PageWindow, PanelRequest } from "@chime/contract";

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type {
  ApiRequest,
  Delivery,
  DeliveryHost,
  OpenTarget,
  PageViewDefinition,
  PageViewHost,
  PageViewModel,
  PageViewProps,
} from "@chime/contract";
