// Private: a recurring series in words, English and Chinese (docs/recurring.md "Host and page":
// "repeats daily at 09:00 (Asia/Shanghai)", "每天 09:00（Asia/Shanghai）").
import { type ByDay, parseRule, type Rule } from "./_rrule_parse.ts";

/** The languages {@linkcode describeRule} speaks. */
export type RuleLanguage = "en" | "zh";

const EN_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const ZH_DAYS = ["一", "二", "三", "四", "五", "六", "日"];
const EN_ORDINALS = ["first", "second", "third", "fourth", "fifth"];
const ZH_ORDINALS = ["第一个", "第二个", "第三个", "第四个", "第五个"];
const EN_MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "first" … "fifth", then "6th", "21st", "53rd". */
function enOrdinal(n: number): string {
  if (n <= 5) return EN_ORDINALS[n - 1]!;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th";
  return `${n}${suffix}`;
}

function zhOrdinal(n: number): string {
  return n <= 5 ? ZH_ORDINALS[n - 1]! : `第${n}个`;
}

/** A BYSETPOS position: "the last", "the second-to-last", "the first". */
function enPosition(p: number): string {
  return p === -1 ? "the last" : p > 0 ? `the ${enOrdinal(p)}` : `the ${enOrdinal(-p)}-to-last`;
}

function zhPosition(p: number): string {
  return p === -1 ? "最后一个" : p > 0 ? zhOrdinal(p) : `倒数${zhOrdinal(-p)}`;
}

const two = (n: number) => String(n).padStart(2, "0");

function clockTimes(rule: Rule, start: Temporal.PlainDateTime): string[] {
  const seconds = start.second === 0 ? "" : `:${two(start.second)}`;
  return (rule.byHour ?? [start.hour]).flatMap((h) =>
    (rule.byMinute ?? [start.minute]).map((m) => `${two(h)}:${two(m)}${seconds}`)
  );
}

function isWeekdays(days: readonly ByDay[]): boolean {
  return days.length === 5 && days.every((d, i) => d.ordinal === undefined && d.weekday === i + 1);
}

function enList(items: readonly string[]): string {
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

// Days of the month as a limit of a daily or shorter rule: "day 1 and 15 of the month", "the last
// day of the month" (-1, RFC 5545), never "day -1".
function enMonthDays(days: readonly number[]): string {
  if (days.every((d) => d > 0)) return `day ${enList(days.map(String))} of the month`;
  const words = days.map((
    d,
  ) => (d === -1 ? "the last day" : d < 0 ? `day ${-d} from the end` : `day ${d}`));
  return `${enList(words)} of the month`;
}

function zhMonthDays(days: readonly number[]): string {
  if (days.every((d) => d > 0)) return `每月${days.join("、")}日`;
  return `每月${
    days.map((d) => (d === -1 ? "最后一天" : d < 0 ? `倒数第${-d}天` : `${d}日`)).join("、")
  }`;
}

function enDay(day: ByDay): string {
  const name = EN_DAYS[day.weekday - 1]!;
  if (day.ordinal === undefined) return name;
  return `${enPosition(day.ordinal)} ${name}`;
}

function zhDay(day: ByDay, prefix: string): string {
  const name = `${prefix}${ZH_DAYS[day.weekday - 1]}`;
  if (day.ordinal === undefined) return name;
  return `${zhPosition(day.ordinal)}${name}`;
}

function english(rule: Rule, start: Temporal.PlainDateTime): string {
  const n = rule.interval;
  const at = ` at ${enList(clockTimes(rule, start))}`;
  const every = (unit: string) => (n === 1 ? `every ${unit}` : `every ${n} ${unit}s`);
  const limits: string[] = [];
  const days = rule.byDay ?? [];
  switch (rule.freq) {
    case "MINUTELY":
    case "HOURLY": {
      let text = every(rule.freq === "MINUTELY" ? "minute" : "hour");
      if (rule.freq === "HOURLY" && rule.byMinute !== undefined) {
        text += ` at ${enList(rule.byMinute.map((m) => `:${two(m)}`))}`;
      }
      if (rule.freq === "MINUTELY" && rule.byMinute !== undefined) {
        limits.push(`at minute ${enList(rule.byMinute.map(String))}`);
      }
      if (rule.byHour !== undefined) limits.push(`during hour ${enList(rule.byHour.map(String))}`);
      if (days.length > 0) {
        limits.push(isWeekdays(days) ? "on weekdays" : `on ${enList(days.map(enDay))}`);
      }
      if (rule.byMonthDay !== undefined) limits.push(`on ${enMonthDays(rule.byMonthDay)}`);
      return [text, ...limits].join(" ");
    }
    case "DAILY":
    case "WEEKLY": {
      const weekly = rule.freq === "WEEKLY" || days.length > 0;
      const list = days.length > 0 ? days : [{ weekday: start.dayOfWeek }];
      let text: string;
      if (!weekly) text = n === 1 ? "daily" : `every ${n} days`;
      else if (isWeekdays(list) && n === 1) text = "every weekday";
      else if (n === 1 || rule.freq === "DAILY") text = `every ${enList(list.map(enDay))}`;
      else text = `every ${n} weeks on ${enList(list.map(enDay))}`;
      if (rule.freq === "DAILY" && days.length > 0 && n > 1) text += ` (every ${n} days)`;
      if (rule.byMonthDay !== undefined) text += ` on ${enMonthDays(rule.byMonthDay)}`;
      return text + at;
    }
    case "MONTHLY": {
      const monthDays = (rule.byMonthDay ?? (days.length > 0 ? [] : [start.day]))
        .map((d) => (d === -1 ? "the last day" : d < 0 ? `day ${-d} from the end` : `day ${d}`));
      const on = enSetPos(rule, days) ?? enList([...monthDays, ...days.map(enDay)]);
      return `${n === 1 ? "monthly" : `every ${n} months`} on ${on}${at}`;
    }
    case "YEARLY": {
      const every = n === 1 ? "yearly" : `every ${n} years`;
      const months = rule.byMonth ??
        (rule.byMonthDay !== undefined || days.length > 0 ? [] : [start.month]);
      const names = enList(months.map((m) => EN_MONTHS[m - 1]!));
      const monthDays = rule.byMonthDay ??
        (days.length > 0 || rule.byMonth === undefined ? [] : [start.day]);
      if (rule.byMonthDay === undefined && days.length === 0 && rule.byMonth === undefined) {
        return `${every} on ${EN_MONTHS[start.month - 1]} ${start.day}${at}`;
      }
      const dayWords = enSetPos(rule, days) ??
        enList([
          ...monthDays.map((
            d,
          ) => (d === -1 ? "the last day" : d < 0 ? `day ${-d} from the end` : `day ${d}`)),
          ...days.map(enDay),
        ]);
      if (months.length === 0) {
        return `${every} on ${dayWords}${days.some((d) => d.ordinal) ? " of the year" : ""}${at}`;
      }
      if (days.length === 0 && monthDays.length === 1 && monthDays[0]! > 0) {
        return `${every} on ${
          enList(months.map((m) => `${EN_MONTHS[m - 1]} ${monthDays[0]}`))
        }${at}`;
      }
      return `${every} on ${dayWords} of ${names}${at}`;
    }
  }
}

/** BYSETPOS over weekdays in words ("the last weekday"), or undefined for other sets. */
function enSetPos(rule: Rule, days: readonly ByDay[]): string | undefined {
  if (rule.bySetPos === undefined) return undefined;
  const positions = enList(rule.bySetPos.map(enPosition));
  const of = isWeekdays(days)
    ? "weekday"
    : days.length > 0 && rule.byMonthDay === undefined
    ? `of ${enList(days.map(enDay))}`
    : "occurrence";
  return `${positions} ${of}`;
}

function zhSetPos(rule: Rule, days: readonly ByDay[]): string | undefined {
  if (rule.bySetPos === undefined) return undefined;
  const positions = rule.bySetPos.map(zhPosition).join("、");
  const of = isWeekdays(days)
    ? "工作日"
    : days.length > 0 && rule.byMonthDay === undefined
    ? `（${days.map((d) => zhDay(d, "周")).join("、")}中）`
    : "";
  return `${positions}${of}`;
}

function enMonthLimit(rule: Rule): string {
  if (rule.byMonth === undefined || rule.freq === "YEARLY") return "";
  return ` in ${enList(rule.byMonth.map((m) => EN_MONTHS[m - 1]!))}`;
}

function zhMonthLimit(rule: Rule): string {
  if (rule.byMonth === undefined || rule.freq === "YEARLY") return "";
  return `（限${rule.byMonth.map((m) => `${m}月`).join("、")}）`;
}

function chinese(rule: Rule, start: Temporal.PlainDateTime): string {
  const n = rule.interval;
  const at = ` ${clockTimes(rule, start).join("、")}`;
  const days = rule.byDay ?? [];
  const limits: string[] = [];
  switch (rule.freq) {
    case "MINUTELY":
    case "HOURLY": {
      const unit = rule.freq === "MINUTELY" ? "分钟" : "小时";
      let text = n === 1 ? `每${unit}` : `每隔${n}${unit}`;
      if (rule.freq === "HOURLY" && rule.byMinute !== undefined) {
        text += `的第${rule.byMinute.join("、")}分`;
      }
      if (rule.freq === "MINUTELY" && rule.byMinute !== undefined) {
        limits.push(`第${rule.byMinute.join("、")}分`);
      }
      if (rule.byHour !== undefined) limits.push(`${rule.byHour.join("、")}点`);
      if (days.length > 0) {
        limits.push(isWeekdays(days) ? "工作日" : days.map((d) => zhDay(d, "周")).join("、"));
      }
      if (rule.byMonthDay !== undefined) limits.push(zhMonthDays(rule.byMonthDay));
      return limits.length === 0 ? text : `${text}（限${limits.join("，")}）`;
    }
    case "DAILY":
    case "WEEKLY": {
      const weekly = rule.freq === "WEEKLY" || days.length > 0;
      const list = days.length > 0 ? days : [{ weekday: start.dayOfWeek }];
      let text: string;
      if (!weekly) text = n === 1 ? "每天" : `每隔${n}天`;
      else if (isWeekdays(list) && n === 1) text = "工作日";
      else if (n === 1) text = `每周${list.map((d) => ZH_DAYS[d.weekday - 1]).join("、")}`;
      else if (rule.freq === "DAILY") {
        text = `每隔${n}天（${list.map((d) => zhDay(d, "周")).join("、")}）`;
      } else text = `每隔${n}周的${list.map((d) => zhDay(d, "周")).join("、")}`;
      if (rule.byMonthDay !== undefined) text += `（${zhMonthDays(rule.byMonthDay)}）`;
      return text + at;
    }
    case "MONTHLY": {
      const monthDays = (rule.byMonthDay ?? (days.length > 0 ? [] : [start.day]))
        .map((d) => (d === -1 ? "最后一天" : d < 0 ? `倒数第${-d}天` : `${d}日`));
      const on = zhSetPos(rule, days) ??
        [...monthDays, ...days.map((d) => zhDay(d, "周"))].join("、");
      return `${n === 1 ? "每月" : `每隔${n}个月的`}${on}${at}`;
    }
    case "YEARLY": {
      const every = n === 1 ? "每年" : `每隔${n}年的`;
      const months = rule.byMonth ??
        (rule.byMonthDay !== undefined || days.length > 0 ? [] : [start.month]);
      const monthDays = (rule.byMonthDay ??
        (days.length > 0 || rule.byMonth === undefined ? [] : [start.day]))
        .map((d) => (d === -1 ? "最后一天" : d < 0 ? `倒数第${-d}天` : `${d}日`));
      if (rule.byMonthDay === undefined && days.length === 0 && rule.byMonth === undefined) {
        return `${every}${start.month}月${start.day}日${at}`;
      }
      const on = zhSetPos(rule, days) ??
        [...monthDays, ...days.map((d) => zhDay(d, "周"))].join("、");
      const where = months.length === 0
        ? (days.some((d) => d.ordinal) ? "全年" : "")
        : months.map((m) => `${m}月`).join("、");
      return `${every}${where}${on}${at}`;
    }
  }
}

/**
 * The end of a series in its zone: the date, with the clock time unless the end is the last
 * minute of that day (`2026-12-02` for "until the 2nd", `2026-12-02 18:00` for "until 6pm").
 */
function untilDate(until: number, timeZone: string): string {
  const local = Temporal.Instant.fromEpochMilliseconds(until).toZonedDateTimeISO(timeZone);
  const date = local.toPlainDate().toString();
  if (local.hour === 23 && local.minute === 59) return date;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date} ${pad(local.hour)}:${pad(local.minute)}`;
}

/**
 * Describes a recurring series in words, for `schedule_list`, the reminder card and the frame:
 * `"daily at 09:00 (Asia/Shanghai)"`, `"every weekday at 08:30 (Europe/Paris)"`,
 * `"every 2 hours"`, `"every Monday at 09:00 (UTC)"`, `"every minute"`; in Chinese
 * `"每天 09:00（Asia/Shanghai）"`, `"工作日 08:30（Europe/Paris）"`, `"每隔2小时"`. Rules that name a
 * time of day carry their zone; COUNT and UNTIL are added (`", 5 times"`, `"，共5次"`).
 *
 * @param series `{ rrule, dtstart, timeZone }` (see `RecurrenceSeries`)
 * @param lang `"en"` or `"zh"`
 * @returns the description
 * @throws {ScheduleError} `unsupported_rule` or `invalid_arguments` for a rule outside the subset
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeRule } from "@chime/schedule";
 * const series = { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", dtstart: "2026-12-01T09:00:00",
 *   timeZone: "Asia/Shanghai" };
 * assert.equal(describeRule(series, "en"), "daily at 09:00 (Asia/Shanghai)");
 * assert.equal(describeRule(series, "zh"), "每天 09:00（Asia/Shanghai）");
 * ```
 */
export function describeRule(
  series: { readonly rrule: string; readonly dtstart: string; readonly timeZone: string },
  lang: RuleLanguage,
): string {
  const rule = parseRule(series.rrule);
  const start = Temporal.PlainDateTime.from(series.dtstart);
  let text = lang === "en" ? english(rule, start) : chinese(rule, start);
  text += lang === "en" ? enMonthLimit(rule) : zhMonthLimit(rule);
  const clock = rule.freq !== "MINUTELY" && rule.freq !== "HOURLY";
  if (clock) text += lang === "en" ? ` (${series.timeZone})` : `（${series.timeZone}）`;
  if (rule.count !== undefined) {
    text += lang === "en"
      ? `, ${rule.count} time${rule.count === 1 ? "" : "s"}`
      : `，共${rule.count}次`;
  }
  if (rule.until !== undefined) {
    const date = untilDate(rule.until, series.timeZone);
    text += lang === "en" ? `, until ${date}` : `，直到${date}`;
  }
  return text;
}
