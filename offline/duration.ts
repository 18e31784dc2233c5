/**
 * Relative delays ("in 20 minutes", "20分钟后", "十分钟后") for the offline model. chrono-node's
 * zh parser resolves relative phrases against the process zone, so delays are parsed here.
 *
 * @module
 */

/** A delay found in a text: its length in seconds and where its phrase sits. */
export interface DurationMatch {
  /** Delay in seconds (rounded to whole seconds). */
  readonly seconds: number;
  /** Index of the phrase in the text (UTF-16 units). */
  readonly index: number;
  /** Length of the phrase (UTF-16 units). */
  readonly length: number;
}

const EN_ONES = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
]; // deno-fmt-ignore
const EN_TENS: Record<string, number> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
}; // deno-fmt-ignore

const EN_WORD = `(?:(?:${Object.keys(EN_TENS).join("|")})(?:[- ](?:${
  EN_ONES.slice(1, 10).join("|")
}))?|${[...EN_ONES].sort((a, b) => b.length - a.length).join("|")}|an?)`;
const EN_UNIT = "(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?)(?![a-z])";
// Single-letter units ("1h30m") only right after digits, so "and" never reads as "an d".
const EN_NUM_UNIT =
  `(?:\\d+(?:\\.\\d+)?\\s*(?:${EN_UNIT}|[smhd](?![a-z]))|${EN_WORD}[\\s-]+${EN_UNIT})`;
const EN_QTY = `(?:half\\s+an?\\s+(?:hour|minute)|${EN_NUM_UNIT}(?:\\s+and\\s+a\\s+half)?)`;
const EN_SEQ = `${EN_QTY}(?:\\s*(?:,|and)?\\s*${EN_QTY})*`;
const EN_RE = new RegExp(
  `\\b(?:in|after|within)\\s+(${EN_SEQ})(?:\\s+from\\s+now)?|\\b(${EN_SEQ})\\s+(?:from\\s+now|later)\\b`,
  "i",
);
const EN_QTY_G = new RegExp(
  `half\\s+an?\\s+(hour|minute)|(\\d+(?:\\.\\d+)?|${EN_WORD})[\\s-]*(${EN_UNIT}|(?<=\\d\\s*)[smhd](?![a-z]))` +
    `(\\s+and\\s+a\\s+half)?`,
  "gi",
);

const ZH_NUM = "(?:[0-9０-９]+(?:\\.[0-9]+)?|[零一二两三四五六七八九十百]+)";
const ZH_UNIT = "(?:秒钟?|分钟|分|刻钟|个?小时|个?钟头|天|个?星期|周)";
const ZH_QTY = `(?:${ZH_NUM}个?半?${ZH_UNIT}半?|半个?(?:小时|钟头|分钟)|一刻钟)`;
const ZH_RE = new RegExp(
  `过\\s*((?:${ZH_QTY}\\s*)+)(?:之后|以后|后)?|((?:${ZH_QTY}\\s*)+)(?:之后|以后|后)`,
);
const ZH_QTY_G = new RegExp(`(${ZH_NUM})?(个)?(半)?(${ZH_UNIT})(半)?`, "g");

function enUnitSeconds(unit: string): number {
  const u = unit.toLowerCase();
  if (u.startsWith("w")) return 604800;
  if (u.startsWith("d")) return 86400;
  if (u.startsWith("h")) return 3600;
  if (u.startsWith("m")) return 60;
  return 1;
}

function zhUnitSeconds(unit: string): number {
  if (unit.includes("秒")) return 1;
  if (unit === "刻钟") return 900;
  if (unit.includes("分")) return 60;
  if (unit.includes("时") || unit.includes("钟头")) return 3600;
  if (unit === "天") return 86400;
  return 604800;
}

/**
 * Reads an English count: digits, a number word up to ninety-nine ("twenty-five"), "a"/"an".
 *
 * @param word the count
 * @returns its value, `-1` (or `NaN` for malformed digits) when it is not a count
 */
export function enNumber(word: string): number {
  if (/^\d/.test(word)) return Number(word);
  const w = word.toLowerCase();
  if (w === "a" || w === "an") return 1;
  const parts = w.split(/[- ]/);
  const tens = EN_TENS[parts[0] ?? ""];
  if (tens !== undefined) return tens + (parts[1] ? EN_ONES.indexOf(parts[1]) : 0);
  return EN_ONES.indexOf(w);
}

/**
 * Reads a Chinese or Arabic numeral ("十" = 10, "二十五" = 25, "两" = 2, "１２" = 12).
 *
 * @param text the numeral
 * @returns its value, or `NaN` when it is not a numeral
 */
export function zhNumber(text: string): number {
  const ascii = text.replace(/[０-９]/g, (c) => String(c.charCodeAt(0) - 0xff10));
  if (/^\d+(?:\.\d+)?$/.test(ascii)) return Number(ascii);
  const digits = "零一二三四五六七八九";
  let total = 0;
  let current = 0;
  for (const ch of text) {
    if (ch === "两") current = 2;
    else if (digits.includes(ch)) current = digits.indexOf(ch);
    else if (ch === "十") (total += (current || 1) * 10), (current = 0);
    else if (ch === "百") (total += (current || 1) * 100), (current = 0);
    else return Number.NaN;
  }
  return total + current;
}

function sumEnglish(seq: string): number {
  let seconds = 0;
  for (const m of seq.matchAll(EN_QTY_G)) {
    if (m[1]) seconds += enUnitSeconds(m[1]) / 2;
    else seconds += enNumber(m[2] ?? "") * enUnitSeconds(m[3] ?? "") * (m[4] ? 1.5 : 1);
  }
  return seconds;
}

function sumChinese(seq: string): number {
  let seconds = 0;
  for (const m of seq.matchAll(ZH_QTY_G)) {
    const unit = zhUnitSeconds(m[4] ?? "");
    const n = m[1] === undefined ? (m[3] || m[4] === "刻钟" ? 0 : 1) : zhNumber(m[1]);
    seconds += n * unit + (m[3] || m[5] ? unit / 2 : 0);
  }
  return seconds;
}

/**
 * Finds a relative delay in English ("in 20 minutes", "in an hour and a half", "10 minutes from
 * now") or Chinese ("20分钟后", "一个半小时后", "过十分钟").
 *
 * @param text the user's message
 * @returns the first delay found, or `undefined`
 */
export function parseDuration(text: string): DurationMatch | undefined {
  const en = EN_RE.exec(text);
  if (en) {
    const seconds = Math.round(sumEnglish(en[1] ?? en[2] ?? ""));
    return { seconds, index: en.index, length: en[0].length };
  }
  const zh = ZH_RE.exec(text);
  if (zh) {
    const seconds = Math.round(sumChinese(zh[1] ?? zh[2] ?? ""));
    return { seconds, index: zh.index, length: zh[0].length };
  }
  return undefined;
}

const EN_BARE_RE = new RegExp(EN_SEQ, "i");
const ZH_BARE_RE = new RegExp(`(?:${ZH_QTY}\\s*)+`);

/**
 * Finds a bare length of time ("10 minutes", "an hour", "10分钟", "半小时") with no "in" or
 * "后" around it, as in "snooze it 10 minutes" or "推迟10分钟".
 *
 * @param text the user's message
 * @returns the first length found, or `undefined`
 */
export function findLength(text: string): DurationMatch | undefined {
  const en = EN_BARE_RE.exec(text);
  if (en) return { seconds: Math.round(sumEnglish(en[0])), index: en.index, length: en[0].length };
  const zh = ZH_BARE_RE.exec(text);
  if (zh) return { seconds: Math.round(sumChinese(zh[0])), index: zh.index, length: zh[0].length };
  return undefined;
}
