/**
 * `@chime/schedule` owns durable, session-local reminders: the `schedule/change` protocol
 * (version 1 one-shots, version 2 recurring series, update, skip, stop, snooze, pause, resume
 * and exclude; docs/recurring.md) and its strict decoder, the pure fold (from `seedLength` for
 * forks) and the incremental state each live session keeps of it (docs/long-sessions.md), the
 * narrow RFC 3339 profile, the Temporal calendar rules and the RRULE recurrence engine (with its
 * preview), the eight agent-scoped tools (`schedule_create`, `schedule_list`, `schedule_delete`,
 * `schedule_update`, `schedule_snooze`, `schedule_pause`, `schedule_resume`, `schedule_skip`),
 * the page actions (snooze, stop, pause, resume, skip, edit) and a reminder's history, the live
 * delivery owner,
 * {@linkcode scheduleReminderPresentation} for commit-aware receipts, and the plugin's web part
 * ({@linkcode scheduleWeb}: the reminders routes, the dispatch views, the renderer and panel
 * names) (docs/design.md#session-log-authority-and-tools,
 * docs/design.md#absolute-time-normalization, docs/design.md#live-delivery-lifecycle,
 * docs/design.md#commit-aware-web-receipt).
 *
 * @example Fold a log and find the next target
 * ```ts
 * import { createChange, earliestActive, foldSchedule } from "@chime/schedule";
 * import type { ScheduleId } from "@chime/schedule";
 * const record = {
 *   id: "sch_abcdefgh" as ScheduleId,
 *   kind: "after" as const,
 *   prompt: "stretch",
 *   afterSeconds: 1200,
 *   scheduledAt: "2026-11-29T09:00:00.000Z",
 * };
 * const events = [{ seq: 0, type: "schedule/change", at: record.scheduledAt, data: createChange(record) }];
 * console.assert(earliestActive(foldSchedule(events))?.id === record.id);
 * ```
 *
 * @module
 */
export type {
  AppendListener,
  Clock,
  CreateSessionOptions,
  EventPage,
  FlushedObserver,
  FlushListener,
  ForkOptions,
  LiveCause,
  LiveObserver,
  MessageSource,
  PersistenceBackend,
  ReadByTypeOptions,
  Session,
  SessionEvent,
  SessionHeader,
  SessionLineage,
  SessionStore,
  StorageHealth,
  StorageLoss,
  StoredCursor,
  StoredSession,
  StoredTail,
  TimerHandle,
  UserRpcData,
  WithdrawnObserver,
} from "@chime/session";
export type {
  AgentHandle,
  AgentPhase,
  AgentScope,
  ContextScan,
  EventView,
  ModelToolSpec,
  Plugin,
  PluginWeb,
  PreStepHook,
  RouteContext,
  RouteHandler,
  RouteMethod,
  SessionRoute,
  StepBatch,
  ToolContext,
  ToolDefinition,
  ViewSource,
  WebHost,
} from "@chime/contract";
export {
  ScheduleError,
  type ScheduleErrorCode,
  type ScheduleErrorDetails,
  type ToolError,
  toolError,
  type ToolErrorCode,
  type ToolErrorExtra,
  type ToolFailure,
  toolFailureFrom,
} from "./errors.ts";
export {
  type AfterRecord,
  type AtRecord,
  type CreateChange,
  type DeleteChange,
  type DispatchChange,
  type ExcludeChange,
  isPaused,
  isRecurringDispatch,
  isScheduleId,
  makeScheduleId,
  type MakeScheduleIdOptions,
  type OccurrenceFacts,
  type OneShotRecord,
  type PauseChange,
  type RandomBytes,
  type RecurringDispatchChange,
  type RecurringRecord,
  type ResumeChange,
  SCHEDULE_CHANGE,
  type ScheduleChange,
  type ScheduleChangeEvent,
  scheduledAtMs,
  type ScheduleId,
  type ScheduleRecord,
  type SkipChange,
  type SnoozeOf,
  type StopChange,
  type UpdateChange,
} from "./protocol.ts";
export {
  createChange,
  decodeScheduleChange,
  deleteChange,
  dispatchChange,
  encodeScheduleChange,
  excludeChange,
  occurrenceChange,
  pauseChange,
  resumeChange,
  stopChange,
  tryDecodeScheduleChange,
  updateChange,
} from "./decoder.ts";
export {
  type Delivered,
  earliestActive,
  type FoldOptions,
  foldSchedule,
  foldSession,
  foldStart,
  type ScheduleState,
} from "./fold.ts";
export { LiveSchedule, type LiveScheduleOptions } from "./live.ts";
export { endSchedules } from "./end_session.ts";
export {
  readStoredChanges,
  type ScheduleChangeReader,
  type SeqRange,
  type StoredChanges,
  storeReader,
  typeIndex,
  type TypeIndexedStore,
} from "./reader.ts";
export {
  canonicalRule,
  type CatchUp,
  catchUp,
  describeRule,
  nextOccurrence,
  parseDtstart,
  previewOccurrences,
  type RecurrenceSeries,
  type RuleLanguage,
  validateSeries,
  type ValidateSeriesOptions,
} from "./recurrence.ts";
export {
  daysInMonth,
  formatInstant,
  isCanonicalInstant,
  isStrictInstant,
  MAX_INSTANT_MS,
  MIN_INSTANT_MS,
  parseStrictInstant,
} from "./rfc3339.ts";
export {
  type LocalDateTime,
  parseLocalDateTime,
  type ResolvedLocal,
  resolveLocal,
} from "./calendar.ts";
export {
  type CreateContext,
  type CreateRequest,
  type CreateResolution,
  type CreateSelector,
  implicitTimeZone,
  MAX_PROMPT_LENGTH,
  MAX_SNOOZE_SECONDS,
  MIN_SNOOZE_SECONDS,
  type RepeatSelector,
  resolveCreate,
  toScheduleRecord,
  type UpdateRequest,
  validateCreateArgs,
  type Validated,
  validateDeleteArgs,
  validateListArgs,
  validateSnoozeArgs,
  validateUpdateArgs,
  type ZoneProvenance,
} from "./rules.ts";
export {
  DELIVERY_MODE,
  type OccurrencePreview,
  PREVIEW_LENGTH,
  type RecordResult,
  type RepeatValue,
  repeatValue,
  type ScheduleValue,
  scheduleValue,
  seriesPreview,
} from "./value.ts";
export {
  type ReminderPresentation,
  type ScheduleChangeView,
  scheduleChangeView,
  scheduleReminderPresentation,
  scheduleReminderPresentations,
} from "./presentation.ts";
export {
  OVERDUE_THRESHOLD_MS,
  REMINDER_FRAME_TAG,
  REMINDER_INSTRUCTION,
  reminderFrame,
} from "./frame.ts";
export { ACTIVITY_HEADING as SCHEDULE_ACTIVITY_HEADING } from "./_activity.ts";
export {
  type CreateArgs,
  type DeleteArgs,
  type LocalAtArgs,
  type RepeatArgs,
  SCHEDULE_TOOL_NAMES,
  type SelectorArgs,
  type SeriesArgs,
  type SkipArgs,
  type SnoozeArgs,
  type UpdateArgs,
} from "./args.ts";
export { ScheduleFifo } from "./fifo.ts";
export {
  type CreateResult,
  type DeleteResult,
  type ListResult,
  scheduleTools,
  type ScheduleToolsOptions,
} from "./tools.ts";
export {
  bindScheduleActions,
  checkEditBody,
  checkUntil,
  type PageFailure,
  ScheduleActions,
  scheduleActions,
  type ScheduleActionsOptions,
  scheduleActivityNote,
  type SkipResult,
  type StopResult,
} from "./actions.ts";
export {
  DEFAULT_CLOCK_CHECK_MS,
  DEFAULT_REMINDERS_PER_HOUR,
  DEFAULT_SEGMENT_MS,
  type OwnerState,
  type ScheduleLogger,
  ScheduleOwner,
  type ScheduleOwnerOptions,
} from "./owner.ts";
export { SCHEDULE_PLUGIN_NAME, schedulePlugin, type SchedulePluginOptions } from "./plugin.ts";
export {
  type ActiveReminder,
  activeReminder,
  type DamagedChange,
  durableChanges,
  type RemindersPage,
  sessionReminders,
} from "./reminders.ts";
export { scheduleViews } from "./views.ts";
export { type HistoryEntry, type HistoryKind, reminderHistory } from "./history.ts";
export { REMINDERS_PANEL, SCHEDULE_RENDERER, scheduleWeb, UPCOMING_VIEW } from "./web.ts";
export { scheduleOwnsTag } from "./notification_tags.ts";
export {
  type CalendarOptions,
  type FeedReminder,
  remindersCalendar,
  SESSION_LOCAL_NOTE,
  vtimezone,
} from "./ics.ts";
export {
  ICS_IMPORT_MAX_CHARS,
  ICS_IMPORT_MAX_EVENTS,
  icsCreateRequests,
  type ImportedEvent,
  type ImportFailure,
} from "./ics_import.ts";
export type { ImportResult } from "./_import.ts";
export { LATE_CONTEXT_AFTER, LATE_CONTEXT_BEFORE, type LateCause, lateCause } from "./late.ts";
export {
  decodeCursor,
  localTime,
  reminderZone,
  UPCOMING_LIMIT,
  type UpcomingDamage,
  type UpcomingEntry,
  type UpcomingPage,
  UpcomingProjection,
  type UpcomingQuery,
  type UpcomingState,
} from "./upcoming.ts";
export { ALL_FEED_SCOPE, sessionFeedScope, upcomingQuery, upcomingRoutes } from "./upcoming_web.ts";
export { scheduleLogCheck } from "./log_check.ts";

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type {
  ApiRoute,
  ApiRouteContext,
  EndingSession,
  LinkKeys,
  RouteAccess,
  SessionCounts,
} from "@chime/contract";
export type { Lateness } from "./presentation.ts";
export type { LogCheck, LogFinding, StoredTypes, TypeAcrossPage, TypedEvent } from "@chime/session";
export type { Quarantined } from "./fold.ts";
