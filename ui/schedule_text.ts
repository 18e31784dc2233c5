/**
 * Reminder wording of `@chime/ui/schedule`, in English and Chinese: the fixed session-local
 * label, occurrences in the viewer's zone and UTC, and how a recurring reminder repeats
 * ("repeats daily at 09:00 (Asia/Shanghai) · next …", docs/recurring.md "Host and page").
 *
 * @module
 */
import { type Lang, localeOf } from "./i18n.ts";
import type { RenderContext } from "./registry.ts";

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

const DAYS: Readonly<Record<Lang, Readonly<Record<string, string>>>> = {
  en: { MO: "Mon", TU: "Tue", WE: "Wed", TH: "Thu", FR: "Fri", SA: "Sat", SU: "Sun" },
  zh: { MO: "一", TU: "二", WE: "三", TH: "四", FR: "五", SA: "六", SU: "日" },
};

const pad = (n: string | undefined) => (n ?? "0").padStart(2, "0");

/**
 * Describes an RRULE (the subset of docs/recurring.md) in words, for rows whose event carries
 * only the rule; the host's `text` wins where it is given.
 *
 * @param rrule an RFC 5545 RRULE value, e.g. `FREQ=DAILY;BYHOUR=9;BYMINUTE=0`
 * @param lang the UI language
 * @returns e.g. `daily at 09:00` / `每天 09:00`; the rule itself when it is not understood
 * @example
 * ```ts
 * import { describeRule } from "@chime/ui/schedule";
 * console.assert(describeRule("FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "en") === "daily at 09:00");
 * ```
 */
export function describeRule(rrule: string, lang: Lang): string {
  const p = new Map(
    rrule.split(";").map((part) => part.split("=") as [string, string | undefined]),
  );
  const n = Number(p.get("INTERVAL") ?? "1");
  const hour = p.get("BYHOUR");
  const minute = p.get("BYMINUTE");
  const zh = lang === "zh";
  const time = hour !== undefined && !hour.includes(",")
    ? (zh ? ` ${pad(hour)}:${pad(minute)}` : ` at ${pad(hour)}:${pad(minute)}`)
    : "";
  const days = (p.get("BYDAY") ?? "").split(",").filter(Boolean);
  const dayNames = days.map((d) => DAYS[lang][d.replace(/^[+-]?\d+/, "")] ?? d);
  const weekdays = days.length === 5 &&
    ["MO", "TU", "WE", "TH", "FR"].every((d) => days.includes(d));
  switch (p.get("FREQ")) {
    case "MINUTELY":
      return zh
        ? (n === 1 ? "每分钟" : `每 ${n} 分钟`)
        : (n === 1 ? "every minute" : `every ${n} minutes`);
    case "HOURLY":
      return zh ? (n === 1 ? "每小时" : `每 ${n} 小时`) : (n === 1 ? "hourly" : `every ${n} hours`);
    case "DAILY":
      if (weekdays) return zh ? `工作日${time}` : `on weekdays${time}`;
      return (zh ? (n === 1 ? "每天" : `每 ${n} 天`) : (n === 1 ? "daily" : `every ${n} days`)) +
        time;
    case "WEEKLY": {
      if (weekdays) return zh ? `工作日${time}` : `on weekdays${time}`;
      const on = dayNames.length
        ? (zh ? `周${dayNames.join("、")}` : ` on ${dayNames.join(", ")}`)
        : "";
      return (zh
        ? (n === 1 ? `每${on || "周"}` : `每 ${n} 周${on}`)
        : (n === 1 ? `weekly${on}` : `every ${n} weeks${on}`)) + time;
    }
    case "MONTHLY": {
      const day = p.get("BYMONTHDAY");
      const on = day === "-1"
        ? (zh ? "最后一天" : " on the last day")
        : day
        ? (zh ? `${day} 日` : ` on day ${day}`)
        : "";
      return (zh ? `每月${on}` : `monthly${on}`) + time;
    }
    default:
      return rrule;
  }
}

/** How a recurring reminder repeats, as the renderer reads it. */
export interface RepeatInfo {
  /** RFC 5545 RRULE value. */
  readonly rrule: string;
  /** IANA zone of the rule. */
  readonly timeZone: string;
  /** The host's wording per language, if given. */
  readonly text?: { readonly en: string; readonly zh: string } | undefined;
}

/**
 * The repeat line of a card or panel row: "repeats daily at 09:00 (Asia/Shanghai) · next …".
 * The zone is named once: the host's wording already names it for rules with a time of day
 * (`daily at 09:00 (Asia/Shanghai), 5 times`), so it is added only when the words lack it.
 *
 * @param repeat the rule, its zone and the host's wording
 * @param nextAt the next target (UTC), `null` when the series is exhausted, `undefined` unknown
 * @param ctx the viewer's language and zone (the next time is shown in the viewer's zone)
 * @returns the line
 */
export function repeatLine(
  repeat: RepeatInfo,
  nextAt: string | null | undefined,
  ctx: RenderContext,
): string {
  const zh = ctx.lang === "zh";
  const words = repeat.text?.[ctx.lang] || describeRule(repeat.rrule, ctx.lang);
  const lead = zh
    ? (words.startsWith("重复") ? words : `重复：${words}`)
    : (/^repeats\b/i.test(words) ? words : `repeats ${words}`);
  const zone = words.includes(repeat.timeZone)
    ? ""
    : zh
    ? `（${repeat.timeZone}）`
    : ` (${repeat.timeZone})`;
  if (nextAt === undefined) return `${lead}${zone}`;
  const next = nextAt === null
    ? (zh ? "已是最后一次" : "no further occurrences")
    : `${zh ? "下次" : "next"} ${formatOccurrence(nextAt, ctx).local}`;
  return `${lead}${zone}${zh ? "· " : " · "}${next}`;
}
