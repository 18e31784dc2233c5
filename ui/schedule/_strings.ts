/**
 * The bilingual strings of the `schedule/change` renderer and the occurrence element every card
 * and row shows (local time, zone, UTC; docs/design.md#receipt-presentation).
 *
 * @module
 */
import type { VNode } from "preact";
import { el } from "../_el.ts";
import type { Lang } from "../i18n.ts";
import type { RenderContext } from "../registry.ts";
import { formatOccurrence } from "./text.ts";

/** The renderer's strings, by language. */
export const TEXT = {
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
  },
} as const;

/** What was tried: a card's or row's action. */
export type ReminderAction = "snooze" | "stop" | "pause" | "resume" | "skip" | "edit" | "history";

/** What a failed snooze or stop click says, by the host's error code (never the code itself). */
const FAILURES: Readonly<Record<Lang, Readonly<Record<string, string>>>> = {
  en: {
    schedule_not_found: "This reminder is not part of this session any more.",
    "schedule_not_active:snooze":
      "This reminder can't be snoozed now: it has not fired yet, or it has ended.",
    "schedule_not_active:stop": "This reminder no longer repeats.",
    "schedule_not_active:pause": "This reminder has ended, so it can't be paused.",
    "schedule_not_active:resume": "This reminder has ended, so it can't be resumed.",
    "schedule_not_active:skip": "This reminder has no next occurrence to skip.",
    "schedule_not_active:edit": "This reminder has ended, so it can't be changed.",
    "schedule_not_active:history": "This reminder's history is not available.",
    persistence_uncertain:
      "The change may not have been saved. Reload the page to see the reminder's state.",
    invalid_arguments: "That snooze time is not allowed.",
    "invalid_arguments:edit": "Check the text, date and time: one of them is not valid.",
    "invalid_arguments:skip": "That occurrence can't be skipped.",
    unsupported_rule:
      "That repeat rule is not supported. Choose one of the common rules or check the RRULE.",
    not_in_future: "That time has already passed. Choose a time in the future.",
    not_an_occurrence: "That time is not one of this reminder's occurrences.",
    rule_never_occurs: "That repeat rule can never happen: its times and days never line up.",
    empty_prompt: "The reminder text can't be empty.",
    session_not_found: "This session no longer exists.",
    failed: "Could not change the reminder. Check the connection and try again.",
    "failed:history": "Could not load the history. Check the connection and try again.",
  },
  zh: {
    schedule_not_found: "该提醒已不在本会话中。",
    "schedule_not_active:snooze": "该提醒现在无法推迟：它尚未触发，或已经结束。",
    "schedule_not_active:stop": "该提醒已不再重复。",
    persistence_uncertain: "更改可能未保存。请刷新页面查看提醒的状态。",
    "schedule_not_active:pause": "该提醒已结束，无法暂停。",
    "schedule_not_active:resume": "该提醒已结束，无法恢复。",
    "schedule_not_active:skip": "该提醒没有可跳过的下一次。",
    "schedule_not_active:edit": "该提醒已结束，无法修改。",
    "schedule_not_active:history": "无法查看该提醒的历史。",
    invalid_arguments: "不允许这个推迟时间。",
    "invalid_arguments:edit": "请检查内容、日期和时间：其中有一项无效。",
    "invalid_arguments:skip": "无法跳过这一次。",
    unsupported_rule: "不支持该重复规则。请选择常用规则，或检查 RRULE。",
    not_in_future: "该时间已经过去。请选择一个未来的时间。",
    not_an_occurrence: "该时间不是这个提醒的某一次。",
    rule_never_occurs: "该重复规则永远不会触发：时间和日期永远对不上。",
    empty_prompt: "提醒内容不能为空。",
    session_not_found: "该会话已不存在。",
    failed: "无法修改该提醒。请检查网络连接后重试。",
    "failed:history": "无法加载历史。请检查网络连接后重试。",
  },
};

/**
 * The sentence for a failed action (snooze, stop, pause, resume, skip, edit, history): one per
 * host error code, refined by the action where it reads differently (docs/recurring.md "Host and
 * page": `404 schedule_not_found`, `409 schedule_not_active`, `503 persistence_uncertain`,
 * `400 invalid_arguments`), a general one for anything else (a lost connection too).
 *
 * @param code the host's error code, if any
 * @param action what was tried
 * @param lang the UI language
 * @returns a human sentence, never the raw code
 */
export function failureText(
  code: string | undefined,
  action: ReminderAction | undefined,
  lang: Lang,
): string {
  const table = FAILURES[lang];
  return table[`${code}:${action}`] ?? table[code ?? "failed"] ?? table[`failed:${action}`] ??
    table.failed!;
}

/**
 * An occurrence as the viewer reads it: local time (its zone as the title), the zone, then UTC.
 * The separators are outside the three parts so a narrow card wraps between them, never inside
 * a date (the parts are `white-space: nowrap` in `ui/style.css`).
 *
 * @param iso the instant, UTC RFC 3339
 * @param ctx language and viewer zone
 * @returns the `span.when` element
 */
export function when(iso: string, ctx: RenderContext): VNode {
  const f = formatOccurrence(iso, ctx);
  return el(
    "span",
    { class: "when" },
    el("time", { dateTime: iso, title: f.zone }, f.local),
    " ",
    el("span", { class: "zone" }, `(${f.zone})`),
    " · ",
    el("span", { class: "utc" }, f.utc),
  );
}
