/**
 * A repeating reminder's rule in words for the offline model's replies: the schedule tool's own
 * words, each end day with its weekday ("until Fri 2026-12-04", "直到2026-12-04（周五）") and,
 * when the end has a clock time, that time in the rule's zone ("until Tue 2026-12-01 17:00").
 *
 * @module
 */
import type { RepeatView } from "./contract.ts";

const EN_WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const ZH_WEEKDAYS = "一二三四五六日";

/**
 * A date's weekday, short.
 *
 * @param date the date
 * @param zh Chinese
 * @returns e.g. `Tue`, or `周二`
 */
export function weekday(date: Temporal.PlainDate, zh: boolean): string {
  const i = date.dayOfWeek - 1;
  return zh ? `周${ZH_WEEKDAYS[i]}` : EN_WEEKDAYS[i]!;
}

/**
 * A rule in words: the tool's own words when it gave them, else the RRULE text.
 *
 * @param repeat the recurrence
 * @param zh Chinese
 * @returns e.g. `daily at 09:00 (Asia/Shanghai)`, or `FREQ=DAILY;BYHOUR=9;BYMINUTE=0`
 */
export function ruleWords(repeat: RepeatView, zh: boolean): string {
  const words = repeat.text?.[zh ? "zh" : "en"].replace(
    /^(?:repeats|repeating)\s+|^重复[：:]\s*/i,
    "",
  );
  if (words) return withWeekday(words, zh, untilClock(repeat));
  const zone = repeat.timeZone ? (zh ? `（${repeat.timeZone}）` : ` (${repeat.timeZone})`) : "";
  return `${repeat.rrule}${zone}`;
}

/**
 * The local date and clock time of a rule's `UNTIL` in its zone, when that end is no day's last
 * second ("until 5pm" is 17:00; "until Friday" ends at 23:59:59 and names the day alone).
 */
function untilClock(repeat: RepeatView): { date: string; time: string } | undefined {
  const m = /;UNTIL=(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(`;${repeat.rrule}`);
  if (!m || !repeat.timeZone) return undefined;
  let local: Temporal.PlainDateTime;
  try {
    const [, y, mo, d, h, mi, s] = m;
    local = Temporal.Instant.from(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`)
      .toZonedDateTimeISO(repeat.timeZone).toPlainDateTime();
  } catch {
    return undefined;
  }
  if (local.hour === 23 && local.minute === 59 && local.second === 59) return undefined;
  return { date: local.toPlainDate().toString(), time: local.toString().slice(11, 16) };
}

/**
 * "until 2026-12-04" → "until Fri 2026-12-04", "直到2026-12-04" → "直到2026-12-04（周五）"; with
 * the end's clock time when it has one ("until Fri 2026-12-04 17:00", "直到2026-12-04（周五）17:00").
 */
function withWeekday(
  words: string,
  zh: boolean,
  clock?: { readonly date: string; readonly time: string },
): string {
  // The tool's words carry the end's clock time when it has one ("until 2026-12-04 17:00").
  const re = zh
    ? /(直到\s*)(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}))?/
    : /(\buntil\s+)(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}))?/;
  return words.replace(re, (all, lead: string, iso: string, said: string | undefined) => {
    let day: string;
    try {
      day = weekday(Temporal.PlainDate.from(iso), zh);
    } catch {
      return all;
    }
    const time = said ?? (clock?.date === iso ? clock.time : "");
    return zh ? `${lead}${iso}（${day}）${time}` : `${lead}${day} ${iso}${time && ` ${time}`}`;
  });
}
