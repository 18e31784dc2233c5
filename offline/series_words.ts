/**
 * Series requests of the offline model, English and Chinese (docs/recurring.md "Tools"): pause ("pause my
 * standup reminder", "暂停站会提醒"), resume ("resume my standup reminder", "恢复站会提醒"), skip
 * one occurrence ("skip next Monday's standup", "skip it", "跳过这一次", "跳过下周一的站会") and a
 * new text ("rename the standup reminder to daily sync", "change my standup reminder to say
 * …", "把站会提醒的内容改成每日同步"). Each names its reminder the way a snooze or a move does:
 * by id, by words of its prompt, or else the latest one. Pure functions of the text.
 *
 * @module
 */
import type { Target } from "./parse.ts";

/** The day a skip names, in the series' zone. */
export type SkipDay =
  /**
   * A weekday: `next` "下周一" (next week's), `this` "这周一", or the first upcoming one
   * (`notToday`: "next Monday" said on a Monday is a week away).
   */
  | {
    readonly kind: "weekday";
    readonly code: string;
    readonly week?: "next" | "this";
    readonly notToday?: true;
  }
  /** Today (0), tomorrow (1), the day after (2). */
  | { readonly kind: "days"; readonly days: number };

/** A series request. */
export type SeriesIntent =
  | { readonly kind: "pause" | "resume"; readonly target: Target }
  | { readonly kind: "skip"; readonly target: Target; readonly day?: SkipDay }
  | { readonly kind: "rename"; readonly target: Target; readonly prompt: string };

const CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
const ID_RE = /\bsch_[A-Za-z0-9_-]+/g;
const CREATE_RE = /\bremind\s+(?:me|us)\b|提醒(?:我|一下|下)|(?:叫|喊)我/i;
const RESUME_RE =
  /\b(?:resume|unpause|un-pause|reactivate|re-?enable|restart|turn\s+(?:it\s+)?back\s+on)\b|取消暂停|恢复|重新(?:开启|启用|打开)|继续提醒/i;
const PAUSE_RE = /\b(?:pause|suspend)\b|\bput\s+.+?\s+on\s+hold\b|暂停|暂时(?:停|关)/i;
const SKIP_RE = /\bskip\b|跳过/i;
const REMINDER_RE = /\breminders?\b|提醒/i;
const RENAME_EN: readonly RegExp[] = [
  /\b(?:rename|retitle)\s+(.+?)\s+(?:to|as)\s+(.+)$/i,
  /\b(?:change|edit|update|set)\s+(.+?)\s+(?:to\s+(?:say|read)|so\s+(?:that\s+)?it\s+(?:says|reads))\s+(.+)$/i,
  /\b(?:change|edit|update)\s+the\s+(?:text|wording|message|prompt|title)\s+of\s+(.+?)\s+to\s+(.+)$/i,
  /\b(?:change|edit|update)\s+(.+?)(?:'s)?\s+(?:text|wording|message|prompt|title)\s+to\s+(.+)$/i,
  /\b(?:change|edit|update)\s+(.+?)\s+to\s+(["“'‘].+["”'’])\s*[.!]?$/i,
];
const RENAME_ZH: readonly RegExp[] = [
  /^(.*?)的?(?:内容|文字|文本|名字|名称|标题|提醒内容)(?:改成|改为|换成|改叫)(.+)$/,
  /^(.*?)(?:改名为|改名成|改名叫|重命名为|重命名成)(.+)$/,
  /^(.*?)(?:改成|改为|换成)\s*([“"「『].+[”"」』])\s*[。！!]?$/,
];
const EN_DAY_RE =
  /\b(?:(next|this|coming)\s+)?(mon|tue|wed|thu|fri|sat|sun)(?:s|n|nes|rs|ur)?(?:day)?(?:'s)?\b|\b(today|tonight|tomorrow)(?:'s)?\b/i;
const ZH_DAY_RE = /(下|这|本)?\s*个?(?:周|星期|礼拜)([一二三四五六日天])|(今天|今晚|明天|后天)/;
const EN_FILLER =
  /\b(?:please|pls|can|could|would|you|pause|suspend|resume|unpause|un-pause|reactivate|re-?enable|restart|turn|back|on|hold|put|skip|rename|retitle|change|edit|update|set|the|text|wording|message|prompt|title|of|my|a|an|it|that|this|these|reminders?|for|one|again|and|then|me|next|occurrence|time|once|just|only|repeating|recurring|series|up|coming|instance)\b|'s\b|[,.!?]/g;
const ZH_FILLER =
  /取消暂停|暂停|暂时停|暂时关|恢复|重新开启|重新启用|重新打开|继续|跳过|请|帮我|一下|我的|我|那个|这个|那条|这条|这一次|这次|下一次|下次|一次|的|提醒|把|将|吧|了|个|条|次|[，,。.！!？?\s]/g;

function words(phrase: string, zh: boolean): string[] {
  const text = zh ? phrase.replace(ZH_FILLER, " ") : phrase.toLowerCase().replace(EN_FILLER, " ");
  return text.split(/\s+/).filter((w) => w.length > 0);
}

function target(phrase: string, ids: readonly string[], zh: boolean): Target {
  if (ids[0] !== undefined) return { kind: "id", id: ids[0] };
  const list = words(phrase.replace(ID_RE, " "), zh);
  return list.length > 0 ? { kind: "words", words: list } : { kind: "latest" };
}

function skipDay(text: string, zh: boolean): { day?: SkipDay; rest: string } {
  const m = (zh ? ZH_DAY_RE.exec(text) : null) ?? EN_DAY_RE.exec(text);
  if (!m) return { rest: text };
  const rest = text.slice(0, m.index) + " " + text.slice(m.index + m[0].length);
  if (zh && ZH_DAY_RE.test(m[0])) {
    if (m[3]) {
      return { day: { kind: "days", days: m[3] === "明天" ? 1 : m[3] === "后天" ? 2 : 0 }, rest };
    }
    const code = CODES["一二三四五六日".indexOf(m[2] === "天" ? "日" : m[2]!)]!;
    const week = m[1] === "下" ? "next" : m[1] ? "this" : undefined;
    return { day: week ? { kind: "weekday", code, week } : { kind: "weekday", code }, rest };
  }
  if (m[3]) {
    const w = m[3].toLowerCase();
    return { day: { kind: "days", days: w === "tomorrow" ? 1 : 0 }, rest };
  }
  const code =
    CODES[["mon", "tue", "wed", "thu", "fri", "sat", "sun"].indexOf(m[2]!.toLowerCase())]!;
  const next = /^next$/i.test(m[1] ?? "");
  return {
    day: next ? { kind: "weekday", code, notToday: true } : { kind: "weekday", code },
    rest,
  };
} // deno-fmt-ignore

function clean(prompt: string): string {
  return prompt.trim().replace(/^["“'‘「『]+|["”'’」』]+$|[\s.。!！]+$/g, "").trim();
}

function rename(text: string, ids: readonly string[], zh: boolean): SeriesIntent | undefined {
  for (const re of zh ? [...RENAME_ZH, ...RENAME_EN] : RENAME_EN) {
    const m = re.exec(text);
    const prompt = clean(m?.[2] ?? "");
    if (!m || !prompt) continue;
    return { kind: "rename", target: target(m[1] ?? "", ids, zh), prompt };
  }
  return undefined;
}

/**
 * Reads a series request: pause, resume, skip or a new text, or `undefined` for anything else
 * (a request to set a reminder that mentions these words, "remind me to pause the music", is a
 * create). A skip names a day ("next Monday's", "tomorrow's", "下周一的", "明天的") or none (the
 * next occurrence).
 *
 * @param text the user's message
 * @returns the series request, or `undefined`
 */
export function parseSeries(text: string): SeriesIntent | undefined {
  const zh = /[\u3400-\u9fff]/.test(text);
  const ids = [...new Set(text.match(ID_RE) ?? [])];
  const create = CREATE_RE.exec(text);
  // With "remind me" in it, a request is a new reminder ("暂停下载，10分钟后提醒我") unless the
  // series word comes first and names a reminder ("继续提醒我喝水" resumes one).
  const named = create &&
    REMINDER_RE.test(text.slice(0, create.index) + text.slice(create.index + create[0].length));
  const first = (re: RegExp) => {
    const m = re.exec(text);
    if (!m || !create) return m ?? undefined;
    return m.index < create.index && (named || m[0] === "继续提醒") ? m : undefined;
  };
  const resume = first(RESUME_RE);
  if (resume) return { kind: "resume", target: target(text.replace(RESUME_RE, " "), ids, zh) };
  if (first(PAUSE_RE)) return { kind: "pause", target: target(text, ids, zh) };
  if (first(SKIP_RE)) {
    const { day, rest } = skipDay(text, zh);
    const which = target(rest, ids, zh);
    return day ? { kind: "skip", target: which, day } : { kind: "skip", target: which };
  }
  return create ? undefined : rename(text, ids, zh);
}
