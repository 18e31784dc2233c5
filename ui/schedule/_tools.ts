/**
 * What the schedule slice tells the generic conversation about its work
 * (docs/architecture.md "Plugins"): one bilingual line per schedule tool result (the tools of
 * docs/architecture.md#tools and docs/recurring.md "Tools", the codes of
 * docs/errors.md#tool-codes) and the label of a reminder follow-up (a `<schedule-reminder>`
 * frame, docs/events.md#followup). Registered with the schedule renderer only.
 *
 * @module
 */
import type { Lang } from "../i18n.ts";
import type { EventViewRegistry, RenderContext, ToolSummarizer, ToolSummary } from "../registry.ts";

type ErrorText = (e: { knownTimeZones?: readonly string[] | undefined }) => string;

/** Sentences for the schedule tools' error codes; other codes get the neutral line. */
const ERRORS: Readonly<Record<Lang, Readonly<Record<string, ErrorText>>>> = {
  en: {
    invalid_arguments: () => "The reminder request was malformed",
    unsupported_rule: () =>
      "That repeat rule is not supported — repeats use an RRULE in whole minutes or longer",
    rule_never_occurs: () => "That repeat rule can never happen: its times and days never line up",
    not_in_future: () => "That time is not in the future",
    invalid_time_zone: () => "That time zone is not a valid IANA zone",
    nonexistent_local_time: () => "That local time does not exist (a daylight-saving gap)",
    timezone_confirmation_required: (e) =>
      "Which time zone did you mean?" +
      (e.knownTimeZones?.length ? ` Known zones: ${e.knownTimeZones.join(", ")}` : ""),
    persistence_uncertain: () => "The reminder could not be confirmed saved — check the list",
    schedule_not_found: () => "No such reminder",
    schedule_not_active: () => "That reminder is no longer active",
  },
  zh: {
    invalid_arguments: () => "提醒请求的参数无效",
    unsupported_rule: () => "不支持该重复规则 —— 重复提醒使用 RRULE，间隔至少为整分钟",
    rule_never_occurs: () => "该重复规则永远不会触发：时间和日期永远对不上",
    not_in_future: () => "该时间不在未来",
    invalid_time_zone: () => "该时区不是有效的 IANA 时区",
    nonexistent_local_time: () => "该本地时间不存在（夏令时跳变）",
    timezone_confirmation_required: (e) =>
      "请确认使用哪个时区。" +
      (e.knownTimeZones?.length ? `已知时区：${e.knownTimeZones.join("、")}` : ""),
    persistence_uncertain: () => "无法确认提醒已保存 —— 请查看提醒列表",
    schedule_not_found: () => "找不到该提醒",
    schedule_not_active: () => "该提醒已不再有效",
  },
};

const LIST = {
  en: (n: number) =>
    n === 0 ? "No active reminders" : n === 1 ? "1 active reminder" : `${n} active reminders`,
  zh: (n: number) => n === 0 ? "暂无活动提醒" : `${n} 个活动提醒`,
} as const;

/** The follow-up label of a reminder frame. */
const FOLLOWUP = { en: "Reminder delivered to the agent", zh: "提醒已交给 Agent" } as const;

/** The tag a reminder frame opens with (`REMINDER_FRAME_TAG` of `@chime/schedule`). */
const FRAME_OPEN = "<schedule-reminder>";

/** A failure with a schedule error code as its sentence; `undefined` for anything else. */
function failure(result: unknown, ctx: RenderContext): ToolSummary | undefined {
  const r = (result ?? {}) as {
    ok?: unknown;
    error?: { code?: unknown; knownTimeZones?: unknown };
  };
  if (r.ok !== false || typeof r.error?.code !== "string") return undefined;
  const code = r.error.code;
  const known = Array.isArray(r.error.knownTimeZones)
    ? r.error.knownTimeZones.filter((z): z is string => typeof z === "string")
    : undefined;
  const text = ERRORS[ctx.lang][code]?.({ knownTimeZones: known });
  return text === undefined ? undefined : { text, failed: true, code };
}

/**
 * A tool whose success a `schedule/change` row already shows (created, changed, snoozed,
 * cancelled): the success row is hidden, a failure reads as its sentence.
 */
function shownByItsRow(key: "id" | "deleted"): ToolSummarizer {
  return (result, ctx) => {
    const r = (result ?? {}) as Record<string, unknown>;
    if (r.ok === true && r[key] !== undefined) return null;
    return failure(result, ctx);
  };
}

const list: ToolSummarizer = (result, ctx) => {
  const r = (result ?? {}) as { ok?: unknown; schedules?: unknown };
  if (r.ok === true && Array.isArray(r.schedules)) {
    return { text: LIST[ctx.lang](r.schedules.length), failed: false };
  }
  return failure(result, ctx);
};

/** The summarizers of the schedule tools, by tool name. */
export const SCHEDULE_TOOL_SUMMARIES: Readonly<Record<string, ToolSummarizer>> = {
  schedule_create: shownByItsRow("id"),
  schedule_update: shownByItsRow("id"),
  schedule_snooze: shownByItsRow("id"),
  schedule_delete: shownByItsRow("deleted"),
  schedule_list: list,
};

/**
 * Labels a reminder frame; other follow-ups are not the schedule's.
 *
 * @param frame the `followup` event's `frame`
 * @param lang the UI language
 * @returns "Reminder delivered to the agent" (or its Chinese), or `undefined`
 */
export function reminderFollowupLabel(frame: unknown, lang: Lang): string | undefined {
  return typeof frame === "string" && frame.trimStart().startsWith(FRAME_OPEN)
    ? FOLLOWUP[lang]
    : undefined;
}

/**
 * Registers the schedule tools' summarizers and the reminder follow-up label.
 *
 * @param registry the `conversation.chat.eventview` registry
 * @returns a function that unregisters them all
 */
export function registerScheduleTools(registry: EventViewRegistry): () => void {
  const offs = Object.entries(SCHEDULE_TOOL_SUMMARIES)
    .map(([tool, summarize]) => registry.registerToolSummary(tool, summarize));
  offs.push(registry.registerFollowupLabel(reminderFollowupLabel));
  return () => offs.forEach((off) => off());
}
