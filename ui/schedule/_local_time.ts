/**
 * Wall-clock arithmetic the page needs for a reminder's controls, with the platform's `Intl`
 * only: an instant's local date and time in a zone (the edit form's defaults, the preview's
 * skipped occurrences), a zone's offset at an instant (the preview's daylight-saving notes) and
 * tomorrow's date in a zone (the "Tomorrow morning" snooze, docs/recurring.md "Host and page").
 *
 * @module
 */

/** A wall-clock date and time, as the host's `{ date, time }` bodies carry them. */
export interface LocalParts {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  /** `HH:MM`, 24-hour. */
  readonly time: string;
}

/**
 * An instant's wall-clock date and time in a zone (UTC when the zone is not accepted).
 *
 * @param iso a UTC RFC 3339 instant
 * @param zone an IANA zone
 * @returns e.g. `{ date: "2030-01-02", time: "09:00" }`
 */
export function localParts(iso: string | Date, zone: string): LocalParts {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  let fmt: Intl.DateTimeFormat;
  const options: Intl.DateTimeFormatOptions = {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  };
  try {
    fmt = new Intl.DateTimeFormat("en-CA", { ...options, timeZone: zone });
  } catch {
    fmt = new Intl.DateTimeFormat("en-CA", { ...options, timeZone: "UTC" });
  }
  const p = Object.fromEntries(fmt.formatToParts(date).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/**
 * A zone's offset from UTC at an instant, in minutes (`+08:00` → 480).
 *
 * @param iso a UTC instant
 * @param zone an IANA zone
 * @returns the offset, `0` when the zone is not accepted
 */
export function offsetMinutes(iso: string | Date, zone: string): number {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  try {
    const name = new Intl.DateTimeFormat("en", { timeZone: zone, timeZoneName: "longOffset" })
      .formatToParts(date).find((x) => x.type === "timeZoneName")?.value ?? "GMT";
    return parseOffset(name.replace(/^GMT/, ""));
  } catch {
    return 0;
  }
}

/**
 * Parses `+08:00` / `-03:30` (empty: `0`).
 *
 * @param offset the offset text
 * @returns minutes east of UTC
 */
export function parseOffset(offset: string): number {
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(offset.trim());
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === "-" ? -minutes : minutes;
}

/**
 * Adds minutes to a wall-clock `HH:MM`, modulo a day.
 *
 * @param time `HH:MM`
 * @param minutes how many (negative: earlier)
 * @returns `HH:MM`
 */
export function addToTime(time: string, minutes: number): string {
  const [h, m] = time.split(":").map(Number);
  const total = (((h! * 60 + m! + minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${
    String(total % 60).padStart(2, "0")
  }`;
}

/**
 * Tomorrow's date in a zone, seen at `now`.
 *
 * @param now the instant the person clicked
 * @param zone an IANA zone
 * @returns `YYYY-MM-DD`
 */
export function tomorrowIn(now: Date, zone: string): string {
  const today = localParts(now, zone).date;
  const [y, m, d] = today.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + 1)).toISOString().slice(0, 10);
}

/**
 * A local `YYYY-MM-DD` and `HH:MM` as the viewer reads them, e.g. `Wed, Jan 2, 09:00` or
 * `1月2日周三 09:00` (the date's words from `Intl`, the time as given: no zone conversion).
 *
 * @param date `YYYY-MM-DD`
 * @param time `HH:MM`
 * @param locale a BCP 47 locale
 * @param withYear name the year too (a preview spanning years: "Fri, Mar 3, 2028 09:00")
 * @returns the label
 */
export function wallLabel(date: string, time: string, locale: string, withYear = false): string {
  const [y, m, d] = date.split("-").map(Number);
  const day = new Intl.DateTimeFormat(locale, {
    weekday: "short",
    ...(withYear ? { year: "numeric" } : {}),
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(y!, m! - 1, d!)));
  return `${day} ${time}`;
}
