/**
 * Human, bilingual one-line summaries of tool results (`schedule_create`, `schedule_list`,
 * `schedule_delete` values and the tool error codes of docs/errors.md#tool-codes). The raw JSON
 * stays behind the row's expandable details.
 *
 * @module
 */
import type { Lang } from "./i18n.ts";
import type { RenderContext } from "./registry.ts";
import { formatOccurrence } from "./schedule.ts";

type ErrorText = (e: { knownTimeZones?: readonly string[] | undefined }) => string;

const ERRORS: Readonly<Record<Lang, Readonly<Record<string, ErrorText>>>> = {
  en: {
    invalid_arguments: () => "The reminder request was malformed",
    unsupported_rule: () =>
      "That repeat rule is not supported — repeats use an RRULE in whole minutes or longer",
    not_in_future: () => "That time is not in the future",
    invalid_time_zone: () => "That time zone is not a valid IANA zone",
    nonexistent_local_time: () => "That local time does not exist (a daylight-saving gap)",
    timezone_confirmation_required: (e) =>
      "Which time zone did you mean?" +
      (e.knownTimeZones?.length ? ` Known zones: ${e.knownTimeZones.join(", ")}` : ""),
    persistence_uncertain: () => "The reminder could not be confirmed saved — check the list",
    schedule_not_found: () => "No such reminder",
    schedule_not_active: () => "That reminder is no longer active",
    tool_failed: () => "The tool failed",
  },
  zh: {
    invalid_arguments: () => "提醒请求的参数无效",
    unsupported_rule: () => "不支持该重复规则 —— 重复提醒使用 RRULE，间隔至少为整分钟",
    not_in_future: () => "该时间不在未来",
    invalid_time_zone: () => "该时区不是有效的 IANA 时区",
    nonexistent_local_time: () => "该本地时间不存在（夏令时跳变）",
    timezone_confirmation_required: (e) =>
      "请确认使用哪个时区。" +
      (e.knownTimeZones?.length ? `已知时区：${e.knownTimeZones.join("、")}` : ""),
    persistence_uncertain: () => "无法确认提醒已保存 —— 请查看提醒列表",
    schedule_not_found: () => "找不到该提醒",
    schedule_not_active: () => "该提醒已不再有效",
    tool_failed: () => "工具执行失败",
  },
};

const TEXT = {
  en: {
    set: (when: string, zone: string) => `Reminder set for ${when} (${zone}) · session-local`,
    list: (n: number) =>
      n === 0 ? "No active reminders" : n === 1 ? "1 active reminder" : `${n} active reminders`,
    deleted: "Reminder cancelled",
    done: "Done",
    failed: "Failed",
  },
  zh: {
    set: (when: string, zone: string) => `已设置提醒：${when}（${zone}）· 仅限本会话`,
    list: (n: number) => n === 0 ? "暂无活动提醒" : `${n} 个活动提醒`,
    deleted: "已取消提醒",
    done: "完成",
    failed: "失败",
  },
} as const;

/** A summarized tool result. */
export interface ToolSummary {
  /** The sentence shown on the row. */
  readonly text: string;
  /** Whether the tool failed. */
  readonly failed: boolean;
  /** The error code of a failure, if any. */
  readonly code?: string;
}

/**
 * Summarizes a tool result value for people, in the viewer's language and zone.
 *
 * @param result the `tool/result` event's `result`
 * @param ctx language and viewer zone
 * @returns the summary
 * @example A created reminder
 * ```ts
 * import { summarizeToolResult } from "./tool_summary.ts";
 * const s = summarizeToolResult(
 *   { ok: true, id: "sch_1", scheduledAt: "2030-01-01T08:00:00.000Z", deliveryMode: "session-local" },
 *   { lang: "en", timeZone: "UTC" },
 * );
 * console.assert(s.text.startsWith("Reminder set for"));
 * ```
 */
export function summarizeToolResult(result: unknown, ctx: RenderContext): ToolSummary {
  const t = TEXT[ctx.lang];
  const r = (result ?? {}) as Record<string, unknown>;
  if (r.ok === false) {
    const e = (r.error ?? {}) as { code?: unknown; knownTimeZones?: unknown };
    const code = typeof e.code === "string" ? e.code : "tool_failed";
    const known = Array.isArray(e.knownTimeZones)
      ? e.knownTimeZones.filter((z): z is string => typeof z === "string")
      : undefined;
    const text = ERRORS[ctx.lang][code]?.({ knownTimeZones: known }) ?? `${t.failed}: ${code}`;
    return { text, failed: true, code };
  }
  if (Array.isArray(r.schedules)) return { text: t.list(r.schedules.length), failed: false };
  if (r.deleted !== undefined) return { text: t.deleted, failed: false };
  if (typeof r.scheduledAt === "string") {
    const f = formatOccurrence(r.scheduledAt, ctx);
    return { text: t.set(f.local, f.zone), failed: false };
  }
  return { text: t.done, failed: false };
}
