/**
 * Explicit time zones named in a message ("Europe/Paris", "UTC", "New York time", "北京时间").
 *
 * @module
 */

/** An explicit zone found in a text: the IANA id and where its phrase sits. */
export interface ZoneMatch {
  /** IANA zone id as Temporal reports it (case-normalized). */
  readonly zone: string;
  /** Index of the phrase in the text (UTF-16 units). */
  readonly index: number;
  /** Length of the phrase (UTF-16 units). */
  readonly length: number;
}

const CITY_ZONES: Record<string, string> = {
  "new york": "America/New_York",
  "los angeles": "America/Los_Angeles",
  "san francisco": "America/Los_Angeles",
  chicago: "America/Chicago",
  denver: "America/Denver",
  pacific: "America/Los_Angeles",
  eastern: "America/New_York",
  central: "America/Chicago",
  mountain: "America/Denver",
  london: "Europe/London",
  paris: "Europe/Paris",
  berlin: "Europe/Berlin",
  moscow: "Europe/Moscow",
  dubai: "Asia/Dubai",
  india: "Asia/Kolkata",
  beijing: "Asia/Shanghai",
  shanghai: "Asia/Shanghai",
  china: "Asia/Shanghai",
  "hong kong": "Asia/Hong_Kong",
  singapore: "Asia/Singapore",
  tokyo: "Asia/Tokyo",
  seoul: "Asia/Seoul",
  sydney: "Australia/Sydney",
};

const ZH_ZONES: Record<string, string> = {
  北京: "Asia/Shanghai",
  中国: "Asia/Shanghai",
  上海: "Asia/Shanghai",
  香港: "Asia/Hong_Kong",
  台北: "Asia/Taipei",
  新加坡: "Asia/Singapore",
  东京: "Asia/Tokyo",
  日本: "Asia/Tokyo",
  首尔: "Asia/Seoul",
  纽约: "America/New_York",
  洛杉矶: "America/Los_Angeles",
  伦敦: "Europe/London",
  巴黎: "Europe/Paris",
  柏林: "Europe/Berlin",
  莫斯科: "Europe/Moscow",
  悉尼: "Australia/Sydney",
  格林尼治: "UTC",
  协调世界: "UTC",
};

// Upper-case only (besides utc/gmt) so words like "et" or "pt" are not read as zones.
const ABBREVIATIONS: Record<string, string> = {
  UTC: "UTC",
  utc: "UTC",
  GMT: "UTC",
  gmt: "UTC",
  PST: "America/Los_Angeles",
  PDT: "America/Los_Angeles",
  PT: "America/Los_Angeles",
  EST: "America/New_York",
  EDT: "America/New_York",
  ET: "America/New_York",
  JST: "Asia/Tokyo",
};

const IANA_RE = /\b(?:[A-Za-z]+\/[A-Za-z_+-]+(?:\/[A-Za-z_+-]+)?)\b/g;
// "time zone" before "time" so the longer wording is consumed whole.
const EN_ZONE_WORD = String.raw`(?:time\s*zone|timezone|time)\b`;
const CITY_RE = new RegExp(
  String.raw`\b(${Object.keys(CITY_ZONES).join("|")})\s+${EN_ZONE_WORD}`,
  "i",
);
const ZH_RE = new RegExp(`(${Object.keys(ZH_ZONES).join("|")})(?:时间|时区)`);
// Words around a zone that belong to its phrase: "(the) Europe/Paris time (zone)", "按北京时间",
// "（UTC）". The whole phrase is blanked from the prompt, never only the zone id.
const LEAD_RE = /(?:\bthe\s+|按照?\s*)$/i;
const TAIL_RE = new RegExp(String.raw`^(?:\s+${EN_ZONE_WORD}|\s*(?:时间|时区))`, "i");
const OPEN_RE = /[(（[]\s*$/;
const CLOSE_RE = /^\s*[)）\]]/;
const ABBR_RE = new RegExp(`\\b(${Object.keys(ABBREVIATIONS).join("|")})\\b`);

/**
 * Normalizes a named IANA zone through Temporal (docs/events.md#zones: Temporal is the validator).
 *
 * @param zone candidate zone id
 * @returns the case-normalized id, or `undefined` when Temporal rejects it or it is an offset
 */
export function normalizeZone(zone: string): string | undefined {
  if (/^[+-]/.test(zone)) return undefined;
  try {
    return new Temporal.ZonedDateTime(0n, zone).timeZoneId;
  } catch {
    return undefined;
  }
}

/** Widens a zone id's span to its whole phrase: leading "the"/"按", trailing "time"/"时间", brackets. */
function widen(text: string, zone: string, index: number, length: number): ZoneMatch {
  let from = index;
  let to = index + length;
  const tail = TAIL_RE.exec(text.slice(to));
  if (tail) to += tail[0].length;
  const lead = LEAD_RE.exec(text.slice(0, from));
  if (lead) from = lead.index;
  const open = OPEN_RE.exec(text.slice(0, from));
  const close = CLOSE_RE.exec(text.slice(to));
  if (open && close) (from = open.index), (to += close[0].length);
  return { zone, index: from, length: to - from };
}

/**
 * Finds the first explicit zone a message names: an IANA id, "<city> time", "<城市>时间", or a
 * common abbreviation ("UTC", "PST"). The match spans the whole zone phrase ("Europe/Paris time",
 * "the Paris time zone", "(UTC)", "按北京时间"), so blanking it leaves only the task text.
 *
 * @param text the user's message
 * @returns the zone and its phrase, or `undefined`
 */
export function findExplicitZone(text: string): ZoneMatch | undefined {
  for (const m of text.matchAll(IANA_RE)) {
    const zone = normalizeZone(m[0]);
    if (zone) return widen(text, zone, m.index, m[0].length);
  }
  const found = [
    [CITY_RE.exec(text), CITY_ZONES, true],
    [ZH_RE.exec(text), ZH_ZONES, false],
    [ABBR_RE.exec(text), ABBREVIATIONS, false],
  ] as const;
  for (const [m, table, lower] of found) {
    const key = m?.[1] ?? "";
    const zone = m && table[lower ? key.toLowerCase() : key];
    if (m && zone) return widen(text, zone, m.index, m[0].length);
  }
  return undefined;
}
