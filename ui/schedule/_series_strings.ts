/**
 * The bilingual strings of a series' controls (pause, resume, skip next, edit, the snooze
 * presets), its preview (the next occurrences with their daylight-saving and skipped-period
 * notes) and its history (docs/recurring.md "Host and page").
 *
 * @module
 */

/** How many of a rule's periods passed without an occurrence, per language and frequency. */
function periods(n: number, freq: string | undefined, zh: boolean): string {
  const unit = {
    YEARLY: ["year", "年"],
    MONTHLY: ["month", "个月"],
    WEEKLY: ["week", "周"],
    DAILY: ["day", "天"],
    HOURLY: ["hour", "小时"],
    MINUTELY: ["minute", "分钟"],
  }[freq ?? ""] ?? ["period", "个周期"];
  return zh ? `${n} ${unit[1]}` : `${n} ${unit[0]}${n === 1 ? "" : "s"}`;
}

/** A lateness in words: seconds under two minutes, else minutes, else hours. */
function lateness(ms: number, zh: boolean): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return zh ? `${s} 秒` : `${s} s`;
  const m = Math.round(s / 60);
  if (m < 120) return zh ? `${m} 分钟` : `${m} min`;
  const h = Math.round(m / 60);
  return zh ? `${h} 小时` : `${h} h`;
}

/**
 * A late delivery in words, for a card: "Delivered 2 minutes late, while the session was
 * closed" (README.md#the-page).
 *
 * @param late the presentation's lateness
 * @param zh Chinese
 * @returns the sentence
 */
export function lateLine(
  late: { readonly ms: number; readonly while: string },
  zh: boolean,
): string {
  const m = Math.round(late.ms / 60_000);
  const h = Math.round(late.ms / 3_600_000);
  const d = Math.round(late.ms / 86_400_000);
  const en = (n: number, u: string) => `${n} ${u}${n === 1 ? "" : "s"}`;
  const size = m < 120
    ? (zh ? `${m} 分钟` : en(m, "minute"))
    : h < 48
    ? (zh ? `${h} 小时` : en(h, "hour"))
    : (zh ? `${d} 天` : en(d, "day"));
  if (zh) {
    return late.while === "busy"
      ? `晚了 ${size}送达：等上一轮回复结束后才送出`
      : `晚了 ${size}送达：到时间时会话未打开`;
  }
  return late.while === "busy"
    ? `Delivered ${size} late, after the turn that was running`
    : `Delivered ${size} late, while the session was closed`;
}

/** The series strings, by language. */
export const SERIES_TEXT = {
  en: {
    paused: "Paused",
    pause: "Pause",
    resume: "Resume",
    skipNext: "Skip next",
    edit: "Edit",
    editTitle: "Edit reminder",
    text: "Text",
    date: "Date",
    time: "Time",
    zone: (zone: string) => `Time zone: ${zone}`,
    repeat: "Repeat",
    rules: {
      none: "Does not repeat",
      daily: "Every day",
      weekdays: "Every weekday (Mon–Fri)",
      weekly: "Every week",
      monthly: "Every month",
      yearly: "Every year",
      custom: "Custom (RRULE below)",
    },
    rrule: "RRULE (advanced, used when Repeat is Custom)",
    save: "Save",
    cancel: "Cancel",
    tomorrowMorning: "Tomorrow morning",
    pickTime: "Pick a time",
    snoozeUntil: "Snooze until",
    pausedDone: "Paused",
    resumedDone: "Resumed",
    skippedDone: "Skipped the next occurrence",
    changedDone: "Saved",
    previewTitle: (zone: string) => `Next occurrences (${zone})`,
    skippedItem: "skipped",
    gap: (moved: string, missing: string) =>
      `moved to ${moved}, ${missing} does not exist that day`,
    overlap: (time: string) => `the earlier ${time}`,
    noOccurrence: (n: number, freq?: string) => `no occurrence in ${periods(n, freq, false)}`,
    history: "History",
    historyLoading: "Loading…",
    historyEmpty: "Nothing recorded yet",
    kinds: {
      created: "Created",
      changed: "Changed",
      delivered: "Delivered",
      skipped: "Skipped (missed)",
      snoozed: "Snoozed",
      paused: "Paused",
      resumed: "Resumed",
      excluded: "Skipped",
      stopped: "Stopped",
      deleted: "Deleted",
    },
    late: (ms: number): string => (ms < 1000 ? "on time" : `${lateness(ms, false)} late`),
    missedN: (n: number) => `${n} missed`,
    next: "next",
    until: "until",
    occurrence: "for",
  },
  zh: {
    paused: "已暂停",
    pause: "暂停",
    resume: "恢复",
    skipNext: "跳过下一次",
    edit: "编辑",
    editTitle: "编辑提醒",
    text: "内容",
    date: "日期",
    time: "时间",
    zone: (zone: string) => `时区：${zone}`,
    repeat: "重复",
    rules: {
      none: "不重复",
      daily: "每天",
      weekdays: "每个工作日（周一至周五）",
      weekly: "每周",
      monthly: "每月",
      yearly: "每年",
      custom: "自定义（使用下方 RRULE）",
    },
    rrule: "RRULE（高级，重复选“自定义”时使用）",
    save: "保存",
    cancel: "取消",
    tomorrowMorning: "明天早上",
    pickTime: "选择时间",
    snoozeUntil: "推迟到",
    pausedDone: "已暂停",
    resumedDone: "已恢复",
    skippedDone: "已跳过下一次",
    changedDone: "已保存",
    previewTitle: (zone: string) => `接下来的提醒（${zone}）`,
    skippedItem: "已跳过",
    gap: (moved: string, missing: string) => `改到 ${moved}：当天没有 ${missing}`,
    overlap: (time: string) => `两次 ${time} 中较早的一次`,
    noOccurrence: (n: number, freq?: string) => `${periods(n, freq, true)}内没有符合的日期`,
    history: "历史",
    historyLoading: "加载中…",
    historyEmpty: "暂无记录",
    kinds: {
      created: "已创建",
      changed: "已修改",
      delivered: "已送达",
      skipped: "已跳过（错过）",
      snoozed: "已推迟",
      paused: "已暂停",
      resumed: "已恢复",
      excluded: "已跳过",
      stopped: "已停止",
      deleted: "已删除",
    },
    late: (ms: number): string => (ms < 1000 ? "准时" : `晚了 ${lateness(ms, true)}`),
    missedN: (n: number) => `错过 ${n} 次`,
    next: "下次",
    until: "至",
    occurrence: "对应",
  },
} as const;
