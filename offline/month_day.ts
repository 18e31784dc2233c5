/**
 * A day of the month said on its own ("on the 15th", "on 3rd", "on the last day", "15号",
 * "十五号", "3日", "下个月15号", "on the 15th of next month"): one time, the next such day, never
 * a repeat (a repeat needs its word: "every month on the 15th", "每月15号", `_recurring_read.ts`).
 * Read by `absolute.ts` before chrono-node, which reads no bare day of the month.
 *
 * @module
 */
import { zhNumber } from "./duration.ts";
import { EN_ORDINAL, ordinalDay } from "./_recurring_words.ts";

/** A bare day of the month found in a text. */
export interface MonthDay {
  /** Day 1..31, or -1 for the last day of the month. */
  readonly day: number;
  /** The phrase names next month ("of next month", "下个月"): no earlier month is meant. */
  readonly nextMonth: boolean;
  /** Index of the phrase (UTF-16 units). */
  readonly index: number;
  /** Length of the phrase (UTF-16 units). */
  readonly length: number;
}

// What may follow an English day of the month: the end, punctuation, or a word that is no noun
// of the task ("on the second floor", "on the first page" name no day).
const EN_AFTER =
  "(?=\\s*$|\\s*[,.;:!?]|\\s+(?:at|to|in|around|by|from|before|after|until|till|remind|please|pls|and|then|for|about|that|i|we|morning|afternoon|evening|night|noon|midnight)\\b)";
const EN_RE = new RegExp(
  `\\bon\\s+(?:the\\s+(${EN_ORDINAL}|last)(?:\\s+day)?|(\\d{1,2}(?:st|nd|rd|th)))` +
    `(?:\\s+of\\s+(this|next)\\s+month)?(?!\\s+of\\b)${EN_AFTER}`,
  "i",
);
// "15号", "十五号", "下个月3号"; not "12月15号" (chrono reads it), "3号楼", "5号线", "三日后".
const ZH_RE =
  /(?<![0-9０-９零一二两三四五六七八九十百月每第])(?:(下个?月|本月|这个?月)的?\s*)?([0-9０-９]{1,2}|[一二三四五六七八九十]{1,3})\s*[号號日](?![0-9０-９]*\s*[后後内內前以之楼樓线線房门門床位车車口桌馆厅码機机窗台柜箱店厂院室屋站道路街巷区栋棟元本语记常期历用子])/;

/**
 * Finds a day of the month said without a month or a repeat word.
 *
 * @param text the request (repeat phrases already read: "every month on the 15th" never gets
 *   here)
 * @returns the day and its phrase, or `undefined` when there is none (or no month has it:
 *   "on the 32nd")
 */
export function findMonthDay(text: string): MonthDay | undefined {
  const en = EN_RE.exec(text);
  const zh = ZH_RE.exec(text);
  const m = zh && (!en || zh.index < en.index) ? zh : en;
  if (!m) return undefined;
  const day = m === zh ? zhNumber(m[2] ?? "") : ordinalDay(m[1] ?? m[2] ?? "");
  if (!Number.isInteger(day) || day === 0 || day < -1 || day > 31) return undefined;
  const month = (m === zh ? m[1] : m[3]) ?? "";
  const nextMonth = /^(?:next|下)/i.test(month);
  return { day, nextMonth, index: m.index, length: m[0].length };
}

/**
 * The next local date-time on `day` at `hour`:`minute` after `now`, in `now`'s zone: this
 * month when that moment is still to come, else the next month that has the day ("the 31st"
 * skips 30-day months; -1 is each month's last day). With `nextMonth`, from next month on.
 *
 * @param found the day read by {@linkcode findMonthDay}
 * @param time the clock time (local hour 0–23, minute 0–59)
 * @param now the current instant in the zone the request is read in
 * @returns the local date-time (no month within a year having the day cannot happen: every
 *   day 1..31 comes back within 12 months)
 */
export function nextMonthDay(
  found: Pick<MonthDay, "day" | "nextMonth">,
  time: { readonly hour: number; readonly minute: number },
  now: Temporal.ZonedDateTime,
): Temporal.PlainDateTime {
  let month = now.toPlainDate().toPlainYearMonth();
  if (found.nextMonth) month = month.add({ months: 1 });
  for (;;) {
    const day = found.day > 0 ? found.day : month.daysInMonth;
    if (day <= month.daysInMonth) {
      const at = month.toPlainDate({ day }).toPlainDateTime(time);
      const instant = at.toZonedDateTime(now.timeZoneId).toInstant();
      if (Temporal.Instant.compare(instant, now.toInstant()) > 0) return at;
    }
    month = month.add({ months: 1 });
  }
}
