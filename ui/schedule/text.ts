/**
 * Reminder wording of `@chime/ui/schedule`, in English and Chinese: the fixed session-local
 * label, occurrences in the viewer's zone and UTC, and how a recurring reminder repeats
 * ("repeats daily at 09:00 (Asia/Shanghai) · next …", docs/recurring.md "Host and page"). A series
 * is named in the server's words only (`@chime/schedule/describe`): the page has no describer
 * of its own.
 *
 * @module
 */
import { describeRule } from "@chime/schedule/describe";
import { HOUR_CYCLE, type Lang, localeOf } from "../i18n.ts";
import type { RenderContext } from "../registry.ts";

/** The fixed session-local label, per language. */
export const SESSION_LOCAL_LABEL: Readonly<Record<Lang, string>> = {
  en: "Session-local reminder — fires only while this session is open",
  zh: "仅限本会话的提醒 —— 仅在本会话打开时触发",
};

/** An occurrence formatted for the viewer. */
export interface FormattedOccurrence {
  /** In the viewer's zone, e.g. `Jan 1, 2030, 9:20 AM`. */
  readonly local: string;
  /** The viewer's zone used (falls back to `UTC` when the given zone is not accepted). */
  readonly zone: string;
  /** In UTC, e.g. `2030-01-01 08:20 UTC` (`08:20:15` when off the whole minute). */
  readonly utc: string;
}

/**
 * Formats a UTC instant in the viewer's zone and in UTC, to the minute, or to the second when
 * the instant is not on a whole minute (a relative delay such as "in 20 minutes").
 *
 * @param iso a UTC RFC 3339 instant (`occurrenceAt` / `scheduledAt`)
 * @param ctx the viewer's language and IANA zone
 * @returns both renderings
 * @example Format in Berlin
 * ```ts
 * import { formatOccurrence } from "@chime/ui/schedule";
 * const f = formatOccurrence("2030-01-01T08:20:00.000Z", { lang: "en", timeZone: "Europe/Berlin" });
 * console.assert(f.utc === "2030-01-01 08:20 UTC");
 * ```
 */
export function formatOccurrence(iso: string, ctx: RenderContext): FormattedOccurrence {
  const date = new Date(iso);
  // "in 1 minute" said at 03:12:58 is due at 03:13:58: a time off the whole minute shows its
  // seconds, so the card never names a minute the reminder has not reached.
  const seconds = date.getUTCSeconds() !== 0 || date.getUTCMilliseconds() !== 0;
  let zone = ctx.timeZone;
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat(localeOf(ctx.lang), {
      dateStyle: "medium",
      timeStyle: seconds ? "medium" : "short",
      hourCycle: HOUR_CYCLE,
      timeZone,
    });
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = format(zone);
  } catch {
    zone = "UTC";
    fmt = format(zone);
  }
  const utc = Number.isNaN(date.getTime())
    ? iso
    : `${date.toISOString().slice(0, seconds ? 19 : 16).replace("T", " ")} UTC`;
  return { local: Number.isNaN(date.getTime()) ? iso : fmt.format(date), zone, utc };
}

/**
 * A series in the server's words (`schedule/_describe.ts` `describeRule`, the same words the
 * host sends with a card or the reminders panel; docs/recurring.md "Host and page"). Falls back to
 * the rule itself when there is no DTSTART or the rule is outside the subset.
 *
 * @param repeat the rule, its zone and DTSTART
 * @param lang the UI language
 * @returns e.g. `monthly on the first Monday at 10:00 (Europe/Berlin), 3 times`
 */
function seriesWords(repeat: RepeatInfo, lang: Lang): string {
  if (repeat.dtstart === undefined) return repeat.rrule;
  try {
    return describeRule(
      { rrule: repeat.rrule, dtstart: repeat.dtstart, timeZone: repeat.timeZone },
      lang,
    );
  } catch {
    return repeat.rrule;
  }
}

/** How a recurring reminder repeats, as the renderer reads it. */
export interface RepeatInfo {
  /** RFC 5545 RRULE value. */
  readonly rrule: string;
  /** IANA zone of the rule. */
  readonly timeZone: string;
  /** Local DTSTART of the series, when known (the server's words need it). */
  readonly dtstart?: string | undefined;
  /** The host's wording per language, if given. */
  readonly text?: { readonly en: string; readonly zh: string } | undefined;
}

/**
 * The repeat line of a card, transcript row or panel row: "repeats daily at 09:00
 * (Asia/Shanghai) · next …". The words are the host's `text` when given, else the server's
 * `describeRule` of the rule (so a row, its card and the panel say the same).
 * The zone is named once: the host's wording already names it for rules with a time of day
 * (`daily at 09:00 (Asia/Shanghai), 5 times`), so it is added only when the words lack it.
 *
 * @param repeat the rule, its zone and the host's wording
 * @param nextAt the next target (UTC), `null` when the series is exhausted, `"ended"` when it was
 *   stopped or deleted, `undefined` unknown
 * @param ctx the viewer's language and zone (the next time is shown in the viewer's zone)
 * @returns the line
 * @example A transcript row's words are the server's
 * ```ts
 * import { repeatLine } from "@chime/ui/schedule";
 * const repeat = {
 *   rrule: "FREQ=MONTHLY;BYDAY=1MO;BYHOUR=10;BYMINUTE=0;COUNT=3",
 *   dtstart: "2026-12-07T10:00:00",
 *   timeZone: "Europe/Berlin",
 * };
 * const line = repeatLine(repeat, undefined, { lang: "en", timeZone: "UTC" });
 * console.assert(line === "repeats monthly on the first Monday at 10:00 (Europe/Berlin), 3 times");
 * ```
 */
export function repeatLine(
  repeat: RepeatInfo,
  nextAt: string | null | undefined | "ended",
  ctx: RenderContext,
): string {
  const zh = ctx.lang === "zh";
  const words = repeat.text?.[ctx.lang] || seriesWords(repeat, ctx.lang);
  const lead = zh
    ? (words.startsWith("重复") ? words : `重复：${words}`)
    : (/^repeats\b/i.test(words) ? words : `repeats ${words}`);
  const zone = words.includes(repeat.timeZone)
    ? ""
    : zh
    ? `（${repeat.timeZone}）`
    : ` (${repeat.timeZone})`;
  if (nextAt === undefined) return `${lead}${zone}`;
  const next = nextAt === "ended"
    ? (zh ? "已停止，不再重复" : "stopped, no further occurrences")
    : nextAt === null
    ? (zh ? "已是最后一次" : "no further occurrences")
    : `${zh ? "下次" : "next"} ${formatOccurrence(nextAt, ctx).local}`;
  return `${lead}${zone}${zh ? "· " : " · "}${next}`;
}
