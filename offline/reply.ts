/**
 * Reply texts of the offline model (English and Chinese): tool results, reminder frames, help.
 * Times are shown in the session zone (UTC without one), never in the process locale.
 *
 * @module
 */
import { ruleWords } from "./rule_words.ts";
import { seriesErrorText, seriesResultText } from "./series_texts.ts";
import {
  type Obj,
  obj,
  readJson,
  readResultSchedule,
  readSchedules,
  type RepeatView,
  type ScheduleView,
  str,
  TOOL,
} from "./contract.ts";

export { readJson, readSchedules, type ScheduleView } from "./contract.ts";
export { ruleWords } from "./rule_words.ts";

/** What a reply is written for: the user's language, the clock and the session zone. */
export interface ReplyContext {
  /** Reply in Chinese. */
  readonly zh: boolean;
  /** Wall clock, epoch ms. */
  readonly now: number;
  /** The session's IANA zone, when it has one. */
  readonly timeZone?: string | undefined;
  /**
   * An earlier reply of this conversation already said that reminders are session-local (and
   * gave an id): confirmations then say neither again. @default false
   */
  readonly noted?: boolean | undefined;
}

/** Words every session-local note contains, per language (how {@linkcode ReplyContext.noted} is read). */
export const LOCAL_NOTE_MARKS: readonly string[] = [
  "it only fires while this session is open",
  "只有会话打开时才会触发",
];

/**
 * The person's own words turned to the agent's side for a confirmation: "take my vitamins" is
 * echoed as "take your vitamins" (English first- to second-person; the stored prompt is kept as
 * said). Chinese prompts need no change ("提醒你：吃我的维生素" reads as the person's words).
 *
 * @param prompt the reminder's prompt
 * @returns the prompt with `I/me/my/mine/myself` (and `I'm`, `I've`) in the second person
 */
export function yourWords(prompt: string): string {
  const swap: Record<string, string> = {
    i: "you",
    me: "you",
    my: "your",
    mine: "yours",
    myself: "yourself",
    "i'm": "you're",
    "i've": "you've",
    "i'll": "you'll",
    "i'd": "you'd",
  };
  return prompt.replace(/\b(?:i(?:'m|'ve|'ll|'d)?|me|my|mine|myself)\b/gi, (word) => {
    const to = swap[word.toLowerCase()] ?? word;
    // "My" opens a sentence; "I" is upper case anywhere and says nothing of position.
    return word[0] === "M" ? to[0]!.toUpperCase() + to.slice(1) : to;
  });
}

/** A tool result as the model sees it: the tool's name and the JSON text of its value. */
export interface ToolOutcome {
  /** Tool name (empty when the call could not be matched). */
  readonly name: string;
  /** JSON text of the result. */
  readonly content: string;
  /**
   * The reminder the call names as the conversation knew it before the call, when it did: an
   * update that changes whether it repeats says so.
   */
  readonly before?: ScheduleView | undefined;
  /** The call's arguments, when known (a skip names its occurrence there). */
  readonly args?: unknown;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/**
 * Formats an instant in the session zone: `HH:MM (Zone)` today, `YYYY-MM-DD HH:MM (Zone)` else;
 * `HH:MM:SS` when it is not on a whole minute (a delay counted from now).
 *
 * @param iso UTC RFC 3339 instant
 * @param ctx clock and zone
 * @returns the text, or `iso` unchanged when it is not an instant
 */
export function formatWhen(iso: string, ctx: ReplyContext): string {
  const zone = ctx.timeZone ?? "UTC";
  let at: Temporal.ZonedDateTime;
  try {
    at = Temporal.Instant.from(iso).toZonedDateTimeISO(zone);
  } catch {
    return iso;
  }
  const today = Temporal.Instant.fromEpochMilliseconds(ctx.now).toZonedDateTimeISO(zone);
  // A delay ("in 1 minute" at 03:12:58) is due to the second: said as it fires, never rounded.
  const seconds = at.second !== 0 ? `:${pad(at.second)}` : "";
  const time = `${pad(at.hour)}:${pad(at.minute)}${seconds}`;
  const text = at.toPlainDate().equals(today.toPlainDate()) ? time : `${at.toPlainDate()} ${time}`;
  return ctx.zh ? `${text}（${zone}）` : `${text} (${zone})`;
}

/**
 * A length of time in words ("35 minutes", "2小时15分钟").
 *
 * @param seconds the length in seconds
 * @param zh Chinese
 * @returns the text
 */
export function span(seconds: number, zh: boolean): string {
  const s = Math.max(0, Math.round(seconds));
  const [big, small, bu, su] = s < 60
    ? [s, 0, zh ? "秒" : "second", ""]
    : s < 3600
    ? [Math.floor(s / 60), 0, zh ? "分钟" : "minute", ""]
    : s < 86400
    ? [
      Math.floor(s / 3600),
      Math.floor(s % 3600 / 60),
      zh ? "小时" : "hour",
      zh ? "分钟" : "minute",
    ]
    : [
      Math.floor(s / 86400),
      Math.floor(s % 86400 / 3600),
      zh ? "天" : "day",
      zh ? "小时" : "hour",
    ];
  if (zh) return `${big}${bu}${small ? `${small}${su}` : ""}`;
  const unit = (n: number, u: string) => `${n} ${u}${n === 1 ? "" : "s"}`;
  return small ? `${unit(big, bu)} ${unit(small, su)}` : unit(big, bu);
}

const ERRORS: Record<string, readonly [string, string]> = {
  not_in_future: [
    "That time has already passed — please give a time in the future.",
    "这个时间已经过去了，请给一个将来的时间。",
  ],
  invalid_time_zone: [
    "I don't recognise that time zone; please use an IANA name such as Europe/Berlin.",
    "无法识别这个时区，请使用 IANA 时区名，例如 Asia/Shanghai。",
  ],
  nonexistent_local_time: [
    "That local time doesn't exist in that zone (a daylight-saving gap); please pick another time.",
    "该时区不存在这个本地时间（夏令时跳变），请换一个时间。",
  ],
  unsupported_rule: [
    "The reminder tool can't repeat that way, so I set nothing. Repeats can be every N minutes (at least one), hours, days, weeks on chosen weekdays, months on a day of the month or a weekday such as the last Friday, or years on a date.",
    "提醒工具不支持这种重复方式，所以我没有设置任何提醒。可以按每 N 分钟（至少 1 分钟）、小时、天、每周指定星期几、每月某一天或某个星期几（如最后一个周五）、每年某一天重复。",
  ],
  rule_never_occurs: [
    "That repeat can never happen (its times and days never line up), so I set nothing. Please pick other minutes, hours or days.",
    "这个重复规则永远不会触发（时间和日期永远对不上），所以我没有设置任何提醒。请换一组分钟、小时或日期。",
  ],
  persistence_uncertain: [
    "I couldn't confirm the change was saved; please check your reminders list.",
    "无法确认这次修改已保存，请查看提醒列表确认。",
  ],
  schedule_not_found: [
    "I couldn't find that reminder; ask me to list your reminders to see their ids.",
    "找不到这个提醒；可以让我列出提醒查看 id。",
  ],
  schedule_not_active: [
    "That reminder is no longer active (it already fired or was cancelled).",
    "这个提醒已不再有效（已触发或已取消）。",
  ],
}; // deno-fmt-ignore

const NOT_REPEATING = [
  'That reminder doesn\'t repeat, so there\'s no repeat to stop; say "cancel it" to remove it.',
  "这个提醒不是重复提醒，没有可停止的重复；要删除它可以说“取消这个提醒”。",
] as const; // deno-fmt-ignore

// `schedule_not_active` covers more than an ended reminder; its message says which
// (schedule/_decide.ts): a series that has not fired has no occurrence to snooze.
const NOT_ACTIVE: readonly (readonly [RegExp, string, string])[] = [
  [
    /has not fired yet/i,
    'That repeating reminder hasn\'t fired yet, so there\'s nothing to snooze; it still repeats as before. To change when it fires, say e.g. "move it to 8am".',
    "这个重复提醒还没有触发过，没有可以推迟的那一次；它仍按原来的时间重复。要改时间，可以说“改到早上8点”。",
  ],
  [/does not repeat/i, ...NOT_REPEATING],
]; // deno-fmt-ignore

/**
 * Says a reminder is already gone, and when: "“take my vitamins” is already gone: it fired at
 * 09:01 (Europe/Berlin), so there is nothing to cancel."
 *
 * @param gone the ended reminder (`goneReminders` of `./refer.ts`)
 * @param ctx language, clock and zone
 * @returns the text
 */
export function goneText(
  gone: { readonly view: ScheduleView; readonly how: "fired" | "cancelled"; readonly at?: string },
  ctx: ReplyContext,
): string {
  const what = gone.view.prompt;
  if (gone.how === "fired" && gone.at) {
    const when = formatWhen(gone.at, ctx);
    return ctx.zh
      ? `“${what}”这个提醒已经没有了：它已在 ${when} 触发，所以没有可取消的。`
      : `The “${what}” reminder is already gone: it fired at ${when}, so there is nothing to cancel.`;
  }
  return ctx.zh
    ? `“${what}”这个提醒已经没有了：之前在本对话中已取消。`
    : `The “${what}” reminder is already gone: it was cancelled earlier in this conversation.`;
}

/**
 * Says a reminder does not repeat, so a "stop repeating" request has nothing to stop.
 *
 * @param zh reply in Chinese
 * @returns the text
 */
export function notRepeatingText(zh: boolean): string {
  return zh ? NOT_REPEATING[1] : NOT_REPEATING[0];
}

function errorText(name: string, error: Obj | undefined, ctx: ReplyContext): string {
  const code = str(error?.code);
  const message = str(error?.message);
  if (code === "timezone_confirmation_required") {
    const known = Array.isArray(error?.knownTimeZones) ? error.knownTimeZones.map(str) : [];
    const list = known.filter(Boolean).join(", ");
    return ctx.zh
      ? `设置按钟点的提醒前，我需要确认你的时区${
        list ? `（已知：${list}）` : ""
      }。请告诉我是哪个时区，例如“明天上午9点 Asia/Shanghai 提醒我开会”。`
      : `Before I set a reminder at a clock time I need to confirm your time zone${
        list ? ` (known: ${list})` : ""
      }. Which zone do you mean? For example: "remind me tomorrow at 9:00 Europe/Berlin to join the meeting".`;
  }
  const why = code === "schedule_not_active"
    ? NOT_ACTIVE.find(([re]) => re.test(message))
    : undefined;
  if (why) return ctx.zh ? why[2] : why[1];
  const series = seriesErrorText(name, error, ctx.zh);
  if (series) return series;
  const fixed = ERRORS[code];
  if (fixed) return ctx.zh ? fixed[1] : fixed[0];
  const detail = message || code || "unknown error";
  return ctx.zh
    ? `工具 ${name || "调用"} 失败：${detail}`
    : `The ${name || "tool"} call failed: ${detail}`;
} // deno-fmt-ignore

/**
 * How a reminder repeats, in words: `repeating daily at 09:00 (Zone); next: …` / `重复：…，下次：…`;
 * a series just created says its `first` reminder instead (`; first at …` / `，首次：…`).
 */
function repeatText(
  s: ScheduleView & { repeat: RepeatView },
  ctx: ReplyContext,
  first = false,
): string {
  const next = formatWhen(s.scheduledAt, { ...ctx, timeZone: s.repeat.timeZone || ctx.timeZone });
  const rule = ruleWords(s.repeat, ctx.zh);
  if (ctx.zh) return `重复：${rule}，${first ? "首次" : "下次"}：${next}`;
  return `repeating ${rule}; ${first ? "first at" : "next:"} ${next}`;
}

/**
 * Lists schedules as lines `- prompt — when, status [id]`; a recurring one shows its rule in
 * words and its next occurrence.
 *
 * @param schedules the schedules
 * @param ctx language, clock and zone
 * @returns one line per schedule
 */
export function listLines(schedules: readonly ScheduleView[], ctx: ReplyContext): string {
  return schedules.map((s) => {
    const status = s.status === "overdue"
      ? (ctx.zh ? "已逾期，会话打开时送达" : "overdue, fires while the session is open")
      : s.paused
      ? (ctx.zh ? "已暂停" : "paused")
      : (ctx.zh ? "已计划" : s.status || "scheduled");
    const when = s.repeat
      ? repeatText({ ...s, repeat: s.repeat }, ctx)
      : formatWhen(s.scheduledAt, ctx);
    return `- ${s.prompt} — ${when}${ctx.zh ? "，" : ", "}${status} [${s.id}]`;
  }).join("\n");
} // deno-fmt-ignore

const ORDINAL_SUFFIX = (n: number) => (n === 31 ? "st" : "th");

/**
 * A monthly rule on the 29th–31st skips the months without that day (RFC 5545, docs/recurring.md
 * "Records"): said, with the phrase that reaches every month; a yearly one on February 29 skips
 * the years without one.
 */
function skippedMonthsText(repeat: RepeatView, zh: boolean): string {
  const rule = repeat.rrule.toUpperCase();
  if (/(?:^|;)FREQ=YEARLY;(?:INTERVAL=\d+;)?BYMONTH=2;BYMONTHDAY=29(?:;|$)/.test(rule)) {
    return zh ? "没有2月29日的年份会跳过。" : " Years without a February 29 are skipped.";
  }
  if (!/(?:^|;)FREQ=MONTHLY(?:;|$)/.test(rule)) return "";
  const days = /(?:^|;)BYMONTHDAY=([^;]+)/.exec(rule)?.[1]?.split(",").map(Number) ?? [];
  const day = Math.min(...days.filter((d) => d >= 29 && d <= 31));
  if (!Number.isFinite(day)) return "";
  return zh
    ? `没有${day}号的月份会跳过；想每个月都提醒，可以说“每月最后一天”。`
    : ` Months without a ${day}${
      ORDINAL_SUFFIX(day)
    } are skipped; say "on the last day of every month" to be reminded every month.`;
}

/**
 * `OK — I'll remind you to X at …` / `…, repeating …` with the session-local note and id;
 * `created`: a new series says its first reminder.
 */
function remindText(
  s: ScheduleView,
  head: readonly [string, string],
  ctx: ReplyContext,
  created = false,
): string {
  const late = s.status === "overdue" && !s.repeat;
  const skips = s.repeat ? skippedMonthsText(s.repeat, ctx.zh) : "";
  // The note and the id once per conversation: later confirmations only say what changed.
  const local = ctx.noted
    ? ""
    : ctx.zh
    ? `这个提醒仅在本会话内有效：只有会话打开时才会触发。（id：${s.id}）`
    : ` This reminder is session-local: it only fires while this session is open. (id: ${s.id})`;
  const due = late
    ? (ctx.zh ? "它已到期，会尽快送达。" : " It is already due and will fire shortly.")
    : "";
  if (ctx.zh) {
    const body = s.repeat
      ? `我会提醒你：${s.prompt}（${repeatText({ ...s, repeat: s.repeat }, ctx, created)}）。`
      : `我会在 ${formatWhen(s.scheduledAt, ctx)} 提醒你：${s.prompt}。`;
    return `${head[1]}${body}${due}${skips}${local}`;
  }
  const when = s.repeat
    ? `, ${repeatText({ ...s, repeat: s.repeat }, ctx, created)}`
    : ` at ${formatWhen(s.scheduledAt, ctx)}`;
  return `${head[0]}I'll remind you to ${yourWords(s.prompt)}${when}.${due}${skips}${local}`;
} // deno-fmt-ignore

function createdText(created: ScheduleView | undefined, ctx: ReplyContext): string {
  if (!created) {
    return ctx.zh ? "好的，提醒已设置（仅限本会话）。" : "OK — the reminder is set (session-local).";
  }
  return remindText(created, ["OK — ", "好的——"], ctx, true);
}

/** The head of an update's answer: whether the reminder repeats, when that is known to change. */
function updatedHead(
  before: ScheduleView | undefined,
  after: ScheduleView,
): readonly [string, string] {
  if (before?.repeat && after.repeat) return ["Updated — it still repeats: ", "已更新——仍会重复："];
  if (before?.repeat) return ["Updated — it no longer repeats: ", "已更新——不再重复："];
  if (before && after.repeat) return ["Updated — it now repeats: ", "已更新——改为重复："];
  return ["Updated — ", "已更新——"];
}

function changedText(
  name: string,
  view: ScheduleView | undefined,
  before: ScheduleView | undefined,
  ctx: ReplyContext,
): string {
  if (!view) return ctx.zh ? "好的，提醒已更新。" : "OK — the reminder is updated.";
  return name === TOOL.snooze
    ? remindText(view, ["Snoozed — ", "已推迟——"], ctx)
    : remindText(view, updatedHead(before, view), ctx);
}

function deletedText(value: Obj, ctx: ReplyContext): string {
  // `deleted` is the record's last value ({ id, prompt, … }) or, tolerated, a bare id.
  const view = readResultSchedule(value);
  const id = view?.id || str(value.id);
  const what = view?.prompt ? (ctx.zh ? `“${view.prompt}”` : `"${view.prompt}" `) : "";
  const series = view?.repeat ? (ctx.zh ? "（重复提醒已停止）" : " (the repeats are stopped)") : "";
  return ctx.zh
    ? `好的，已取消提醒${what}（${id}）${series}。`
    : `Done — reminder ${what}(${id}) is cancelled${series}.`;
}

function successText(outcome: ToolOutcome, value: Obj, ctx: ReplyContext): string {
  const { name } = outcome;
  const known = (Object.values(TOOL) as string[]).includes(name);
  if (name === TOOL.list || (!known && Array.isArray(value.schedules))) {
    const schedules = readSchedules(value);
    if (schedules.length === 0) {
      return ctx.zh
        ? "本会话目前没有有效的提醒。"
        : "You have no active reminders in this session.";
    }
    const head = ctx.zh ? "你当前的提醒（仅限本会话）：" : "Your reminders (session-local):";
    return `${head}\n${listLines(schedules, ctx)}`;
  }
  if (name === TOOL.delete || (!known && value.deleted !== undefined)) {
    return deletedText(value, ctx);
  }
  if (name === TOOL.pause || name === TOOL.resume || name === TOOL.skip) {
    return seriesResultText(name, value, obj(outcome.args), ctx);
  }
  if (name === TOOL.update || name === TOOL.snooze) {
    return changedText(name, readResultSchedule(value), outcome.before, ctx);
  }
  const created = readResultSchedule(value);
  if (name === TOOL.create || created?.scheduledAt) return createdText(created, ctx);
  return ctx.zh ? "完成。" : "Done.";
}

/**
 * Describes one tool result for the user.
 *
 * @param outcome tool name and JSON content
 * @param ctx language, clock and zone
 * @returns the reply text
 */
export function describeResult(outcome: ToolOutcome, ctx: ReplyContext): string {
  const value = obj(readJson(outcome.content));
  if (!value) return errorText(outcome.name, { message: outcome.content }, ctx);
  if (value.ok === false || value.error !== undefined) {
    return errorText(outcome.name, obj(value.error), ctx);
  }
  return successText(outcome, value, ctx);
}
