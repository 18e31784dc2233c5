/**
 * Words of the repeat reader (`_recurring_read.ts`): days of the month in English ("1st",
 * "fifteenth", "twenty-first", "last") and frequency adverbs that are adjectives of the task
 * text ("the daily report"). Private to the offline model.
 *
 * @module
 */

// "first".."twentieth"; "twenty-first".."thirty-first" are built from the first nine.
const EN_ORDINALS = (
  "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth " +
  "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split(" ");

/** A day of the month in words: "first".."thirty-first" ("twenty-first", "twenty first"). */
export const EN_ORDINAL_WORD = `(?:twenty|thirty)[\\s-]?(?:${EN_ORDINALS.slice(0, 9).join("|")})|` +
  `${EN_ORDINALS.join("|")}|thirtieth`;
/** A day of the month: "1st", "15th", "15", or in words. */
export const EN_ORDINAL = `\\d{1,2}(?:st|nd|rd|th)?|${EN_ORDINAL_WORD}`;

/** "1st", "15", "first", "twenty-first", "thirtieth", "last" (-1); `NaN` for anything else. */
export function ordinalDay(word: string): number {
  const w = word.toLowerCase().replace(/[\s-]+/g, " ").trim();
  if (w === "last") return -1;
  if (/^\d/.test(w)) return Number.parseInt(w, 10);
  if (w === "twentieth") return 20;
  if (w === "thirtieth") return 30;
  const [tens, ones] = w.includes(" ") ? w.split(" ") : ["", w];
  const unit = EN_ORDINALS.indexOf(ones ?? "") + 1;
  if (unit === 0) return Number.NaN;
  return tens === "" ? unit : unit <= 9 ? (tens === "twenty" ? 20 : 30) + unit : Number.NaN;
}

// Before an adjective: "the daily report", "my weekly review", "for daily standup".
const DETERMINER_RE =
  /\b(?:the|a|an|my|our|your|his|her|their|its|this|that|these|those|for|of|each)\s+$/i;
// Words an adverb is followed by ("daily at 9", "weekly on Friday", "monthly to pay rent").
const AFTER_ADVERB =
  /^\s+(?:at|on|in|to|from|starting|until|till|for|and|or|please|pls|remind|reminders?|except|around|by|between|with|then|so|if|when|but|before|after|during|me|us|about|that|this|beginning)\b/i;

/**
 * Whether "daily" (any frequency adverb) is an adjective of the task text ("read the daily
 * report"), not a schedule word ("remind me daily at 9", "water the plants daily").
 */
export function isAdjective(m: RegExpExecArray): boolean {
  const before = m.input.slice(0, m.index);
  const after = m.input.slice(m.index + m[0].length);
  if (DETERMINER_RE.test(before)) return true;
  return /^\s+[a-z]/i.test(after) && !AFTER_ADVERB.test(after);
}
