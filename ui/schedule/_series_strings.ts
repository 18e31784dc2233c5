/**
 * The bilingual strings of a series' controls (pause, resume, skip next, edit, the snooze
 * presets), its preview (the next occurrences with their daylight-saving and skipped-period
 * notes) and its history (docs/recurring.md "Host and page").
 *
 * @module
 */
import { localParts } from "./_local_time.ts";
import type { LateWire } from "../wire.ts";

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

/** Why a delivery was late, per language: the card's clause after "Delivered … late". */
const CAUSE_TEXT = {
  en: {
    late: (size: string) => `Delivered ${size} late`,
    closed: (from: string, until: string) => `the session was closed from ${from} to ${until}`,
    "host-down": (from: string, until: string) => `the host was down from ${from} to ${until}`,
    busy: (d: string) => `the agent was busy for ${d}`,
    "hourly-limit": "the hourly limit held it",
    join: ": ",
  },
  zh: {
    late: (size: string) => `晚了 ${size}送达`,
    closed: (from: string, until: string) => `会话在 ${from} 到 ${until} 之间处于关闭状态`,
    "host-down": (from: string, until: string) => `主机在 ${from} 到 ${until} 之间停止运行`,
    busy: (d: string) => `Agent 忙碌了 ${d}`,
    "hourly-limit": "每小时提醒上限让它等待了",
    join: "：",
  },
} as const;

/**
 * A late delivery in words, for a card: how late, then why from the log's facts ("Delivered 5
 * hours late: the session was closed from 02:10 to 07:40"; README.md "Why it was late"). Times
 * are the viewer's wall clock, with the date when it is not the occurrence's day.
 *
 * @param late the presentation's lateness
 * @param lang the UI language
 * @param zone the viewer's IANA zone (UTC when not accepted)
 * @param occurrenceAt the delivered occurrence, UTC RFC 3339 (the day times are written against)
 * @returns the sentence
 */
export function lateLine(
  late: LateWire,
  lang: "en" | "zh",
  zone: string,
  occurrenceAt: string,
): string {
  const zh = lang === "zh";
  const m = Math.round(late.ms / 60_000);
  const h = Math.round(late.ms / 3_600_000);
  const d = Math.round(late.ms / 86_400_000);
  const en = (n: number, u: string) => `${n} ${u}${n === 1 ? "" : "s"}`;
  const size = m < 120
    ? (zh ? `${m} 分钟` : en(m, "minute"))
    : h < 48
    ? (zh ? `${h} 小时` : en(h, "hour"))
    : (zh ? `${d} 天` : en(d, "day"));
  const t = CAUSE_TEXT[lang];
  if (late.cause === undefined) return t.late(size);
  return `${t.late(size)}${t.join}${causeClause(late.cause, lang, zone, occurrenceAt)}`;
}

/**
 * Why a delivery was late, as a clause ("the session was closed from 02:10 to 07:40"), in the
 * viewer's zone with the date when it is not the occurrence's day: the card's and the history's.
 *
 * @param cause a `LateCause` (its kind and stretch, UTC)
 * @param lang the UI language
 * @param zone the viewer's IANA zone (UTC when not accepted)
 * @param occurrenceAt the delivered occurrence, UTC RFC 3339
 * @returns the clause
 */
export function causeClause(
  cause: NonNullable<LateWire["cause"]>,
  lang: "en" | "zh",
  zone: string,
  occurrenceAt: string,
): string {
  const t = CAUSE_TEXT[lang];
  const day = localParts(occurrenceAt, zone).date;
  const clock = (iso: string) => {
    const p = localParts(iso, zone);
    return p.date === day ? p.time : `${p.date} ${p.time}`;
  };
  return cause.kind === "busy"
    ? t.busy(lateness(cause.ms, lang === "zh"))
    : cause.kind === "hourly-limit"
    ? t["hourly-limit"]
    : t[cause.kind](clock(cause.from), clock(cause.until));
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
