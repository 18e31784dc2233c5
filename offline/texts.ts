/**
 * Fixed texts of the offline model: help, a missing time, missing tools, the current time, and
 * the "which reminder?" question of a cancel by words.
 *
 * @module
 */
import { type RepeatView, TOOL } from "./contract.ts";
import type { CannotReason } from "./recurring.ts";
import { listLines, type ReplyContext, ruleWords, type ScheduleView } from "./reply.ts";
import { weekday } from "./rule_words.ts";
import type { SeriesMoveRefusal } from "./series_move.ts";

/** What the help text may offer: the registered tools (as in `PlanContext`). */
export interface HelpAbilities {
  /** Registered tool names. */
  readonly tools: ReadonlySet<string>;
  /** `schedule_create` takes `repeat` (docs/recurring.md). */
  readonly canRepeat: boolean;
}

const INTRO = {
  en: "I'm chime's offline model (no API key needed).",
  zh: "我是 chime 的离线模型（无需 API key）。",
} as const;

const REAL_MODEL = {
  en: "For open-ended chat, set DEEPSEEK_API_KEY or CHIME_MODEL_* to use a real model.",
  zh: "如需自由对话，请设置 DEEPSEEK_API_KEY 或 CHIME_MODEL_* 以使用真实模型。",
} as const;

const NO_REMINDERS = {
  en:
    'In this configuration I can tell you the time ("what time is it"), but reminders are not enabled (the schedule tools are not registered), so I can\'t set any.',
  zh:
    "当前配置下我可以告诉你现在的时间（“现在几点”），但未启用提醒功能（没有注册 schedule 工具），所以不能设置提醒。",
} as const;

/** Reminder examples; the repeating one only when `schedule_create` takes `repeat`. */
const EXAMPLES = {
  en: [
    '"remind me in 20 minutes to stretch"',
    '"remind me tomorrow at 9 to join the meeting"',
    '"every weekday at 8:30 remind me to stand up"',
    '"20分钟后提醒我喝水"',
  ],
  zh: [
    "“20分钟后提醒我喝水”",
    "“明天上午9点提醒我开会”",
    "“每天早上8点提醒我吃药”",
    "“remind me in 20 minutes to stretch”",
  ],
} as const;
const REPEAT_EXAMPLE = 2;

/** What the user can ask once reminders can be set, with the tools each needs (any one set). */
const ACTIONS: readonly {
  readonly needs: readonly (readonly string[])[];
  readonly en: string;
  readonly zh: string;
}[] = [
  {
    needs: [[TOOL.list]],
    en: 'list them ("what reminders do I have")',
    zh: "列出提醒（“我有哪些提醒”）",
  },
  {
    needs: [[TOOL.delete]],
    en: 'cancel them ("stop the stretch reminder")',
    zh: "取消提醒（“取消喝水提醒”）",
  },
  {
    needs: [[TOOL.snooze]],
    en: 'snooze them ("snooze it 10 minutes")',
    zh: "推迟（“推迟10分钟”）",
  },
  {
    needs: [[TOOL.update], [TOOL.delete, TOOL.create]],
    en: 'move them ("move it to 4pm")',
    zh: "改时间（“改到下午4点”）",
  },
  {
    needs: [[TOOL.pause, TOOL.resume]],
    en: 'pause and resume a repeat ("pause my standup reminder")',
    zh: "暂停和恢复重复提醒（“暂停站会提醒”）",
  },
  {
    needs: [[TOOL.skip]],
    en: 'skip one time ("skip next Monday\'s standup")',
    zh: "跳过一次（“跳过这一次”）",
  },
];

/** `a, b and c` (English) or `a、b和c` (Chinese). */
function series(items: readonly string[], zh: boolean): string {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(zh ? "、" : ", ")}${zh ? "和" : " and "}${items.at(-1)}`;
}

function reminderText(zh: boolean, abilities: HelpAbilities): string {
  const has = (names: readonly string[]) => names.every((n) => abilities.tools.has(n));
  const actions = series(
    ACTIONS.filter((a) => a.needs.some(has)).map((a) => (zh ? a.zh : a.en)),
    zh,
  );
  const examples = EXAMPLES[zh ? "zh" : "en"]
    .filter((_, i) => i !== REPEAT_EXAMPLE || abilities.canRepeat);
  return zh
    ? `我可以设置提醒，例如${examples.join("")}${actions ? `；也可以${actions}` : ""}。`
    : `I can set reminders — e.g. ${examples.join(", ")}${actions ? ` — ${actions}` : ""}.`;
}

/**
 * What the offline model can do, for anything it does not understand. It offers only what the
 * registered tools allow: without `schedule_create` it says reminders are not enabled in this
 * configuration (the default web configuration has no schedule plugin); with the schedule tools
 * it lists the reminder requests they serve (the repeating example only when `schedule_create`
 * takes `repeat`; list, cancel, snooze and move only with their tools).
 *
 * @param zh reply in Chinese
 * @param abilities the registered tools
 * @returns the help text
 */
export function helpText(zh: boolean, abilities: HelpAbilities): string {
  const lang = zh ? "zh" : "en";
  const body = abilities.tools.has(TOOL.create) ? reminderText(zh, abilities) : NO_REMINDERS[lang];
  return [INTRO[lang], body, REAL_MODEL[lang]].join(zh ? "" : " ");
}

/**
 * Asks for the time of a reminder request that named none. When it named a day without a clock
 * time ("tomorrow", "on the 15th", "2月29日"), asks for just the time of that day, naming it.
 *
 * @param zh reply in Chinese
 * @param day the local day `YYYY-MM-DD` the request named and the words that named it
 * @returns the question
 */
export function missingTimeText(
  zh: boolean,
  day?: { readonly date: string; readonly phrase: string },
): string {
  if (day) {
    const date = Temporal.PlainDate.from(day.date);
    const week = weekday(date, zh);
    return zh
      ? `${date.year}年${date.month}月${date.day}日（${week}）几点提醒你？例如“${day.phrase}上午9点”。`
      : `What time on ${week} ${day.date}? For example "${day.phrase} at 9:00".`;
  }
  return zh
    ? "要在什么时候提醒你？例如“20分钟后提醒我喝水”或“明天上午9点提醒我开会”。"
    : 'When should I remind you? For example "remind me in 20 minutes to stretch" or "remind me tomorrow at 9:00 to join the meeting".';
}

/**
 * Says reminders are not available because the schedule tools are not registered.
 *
 * @param zh reply in Chinese
 * @returns the text
 */
export function notEnabledText(zh: boolean): string {
  return zh
    ? "当前配置未启用提醒功能（没有注册 schedule 工具）。"
    : "Reminders aren't enabled in this configuration (the schedule tools are not registered).";
}

/**
 * The current time in the session zone (UTC without one).
 *
 * @param ctx language, clock and zone
 * @returns the text
 */
export function timeText(ctx: ReplyContext): string {
  const zone = ctx.timeZone ?? "UTC";
  const at = Temporal.Instant.fromEpochMilliseconds(ctx.now).toZonedDateTimeISO(zone);
  const hm = `${String(at.hour).padStart(2, "0")}:${String(at.minute).padStart(2, "0")}`;
  return ctx.zh
    ? `现在是 ${at.toPlainDate()} ${hm}（${zone}）。`
    : `It's ${hm} on ${at.toPlainDate()} (${zone}).`;
}

/** What a "which one?" question is about. */
export type AskAction = "cancel" | "snooze" | "update" | "pause" | "resume" | "skip";

/** Each action's verb, English and Chinese ("Which reminder should I pause?"). */
export const ASK_VERBS: Readonly<Record<AskAction, readonly [string, string]>> = {
  cancel: ["cancel", "取消"],
  snooze: ["snooze", "推迟"],
  update: ["change", "修改"],
  pause: ["pause", "暂停"],
  resume: ["resume", "恢复"],
  skip: ["skip", "跳过"],
};

/**
 * Asks which reminder is meant when words matched none or several.
 *
 * @param schedules the active schedules
 * @param words the words the user gave
 * @param ctx language, clock and zone
 * @param action what the user wants to do with it @default "cancel"
 * @returns the question
 */
export function askWhichText(
  schedules: readonly ScheduleView[],
  words: readonly string[],
  ctx: ReplyContext,
  action: AskAction = "cancel",
): string {
  if (schedules.length === 0) {
    return ctx.zh
      ? `本会话没有可以${ASK_VERBS[action][1]}的提醒。`
      : `You have no active reminders to ${ASK_VERBS[action][0]}.`;
  }
  const said = words.join(" ");
  const head = ctx.zh
    ? `要${ASK_VERBS[action][1]}哪一个提醒${said ? `（“${said}”）` : ""}？请告诉我 id：`
    : `Which reminder should I ${ASK_VERBS[action][0]}${
      said ? ` ("${said}")` : ""
    }? Tell me its id:`;
  return `${head}\n${listLines(schedules, ctx)}`;
}

/** How to give a repeat an end the model reads. */
const END_HINT = [
  'Give the end as a day or a count, e.g. "until Friday", "until the end of the month", "for 3 days" or "5 times" — or leave it out and cancel the reminder when you\'re done.',
  "请用日期或次数说结束，例如“直到周五”“到月底为止”“连续3天”或“共5次”；也可以不说结束，不需要时再取消。",
] as const; // deno-fmt-ignore

/** Why, and (when the request can be said another way) how to say it instead. */
const CANNOT: Record<
  CannotReason,
  { readonly en: string; readonly zh: string; readonly hint?: readonly [string, string] }
> = {
  seconds: {
    en:
      "repeats go in whole minutes, hours or days, not seconds (say every 1 or every 2 minutes instead)",
    zh: "重复的间隔只能是整分钟、整小时或整天，不能按秒计（可以改成每1分钟或每2分钟）",
  },
  yearly: {
    en: "it doesn't say which day of the year (and leap-year rules aren't supported)",
    zh: "没有说是一年中的哪一天（也不支持按闰年重复）",
    hint: [
      'Name the date, e.g. "every year on March 3" or "every year on the last Sunday of March".',
      "请说出具体日期，例如“每年3月3日提醒我交税”或“每年三月的最后一个周日”。",
    ],
  },
  "which-days": {
    en: "it doesn't say which days of the week",
    zh: "没有说是星期几",
    hint: [
      'Name the days, e.g. "every Monday and Thursday at 9".',
      "请说出具体是星期几，例如“每周一和周四早上9点提醒我游泳”。",
    ],
  },
  "which-times": {
    en: "it doesn't say at what times of day",
    zh: "没有说是几点",
    hint: [
      'Set one reminder for each time, e.g. "every day at 8" and "every day at 20:00".',
      "请每个时间各设一个，例如“每天早上8点提醒我吃药”和“每天晚上8点提醒我吃药”。",
    ],
  },
  unreadable: { en: "I couldn't tell how often it should repeat", zh: "我没看懂要多久重复一次" },
  end: { en: "I couldn't tell when it should stop repeating", zh: "我没看懂什么时候停止重复", hint: END_HINT },
  "end-count": {
    en: "that length doesn't hold a whole number of its repeats, so I can't end it exactly there",
    zh: "这段时间内的重复次数不是整数，没法恰好在那时结束",
    hint: END_HINT,
  },
  "end-before": { en: "it would end before its first reminder", zh: "结束时间在第一次提醒之前", hint: END_HINT },
}; // deno-fmt-ignore

/**
 * Says a repeating request cannot be set, and why; nothing was set (never a one-off instead).
 * A request that only lacks its days or times ("twice a week") says what to name instead.
 *
 * @param reason why
 * @param zh reply in Chinese
 * @returns the text
 */
export function cannotRepeatText(reason: CannotReason, zh: boolean): string {
  const { en, zh: cn, hint } = CANNOT[reason];
  if (zh) {
    const how = hint?.[1] ??
      "可以这样说：“每天早上8点提醒我吃药”“每隔2小时提醒我喝水”“工作日早上9点提醒我打卡”“每周一提醒我交周报”“每月最后一个周五提醒我交报销”“每年3月3日提醒我交税”。";
    return `抱歉，我不能设置这个重复提醒：${cn}，所以没有设置任何提醒。${how}`;
  }
  const how = hint?.[0] ??
    'I can repeat every N minutes (at least one), hours, days, weeks on chosen weekdays, months on a day of the month or a weekday, or years on a date — e.g. "every day at 9", "every 2 hours", "every weekday at 8:30", "every Monday", "last Friday of every month", "every year on March 3".';
  return `Sorry, I can't set that repeating reminder: ${en}, so I haven't set anything. ${how}`;
}

/** What {@linkcode unavailableText} says is missing, in English and Chinese. */
const UNAVAILABLE = {
  repeat: ["Repeating reminders", "重复提醒"],
  snooze: ["Snoozing", "推迟提醒"],
  update: ["Moving a reminder", "修改提醒时间"],
  pause: ["Pausing a repeating reminder", "暂停重复提醒"],
  resume: ["Resuming a paused reminder", "恢复已暂停的提醒"],
  skip: ["Skipping one time of a repeating reminder", "跳过重复提醒的某一次"],
  rename: ["Changing a reminder's text", "修改提醒内容"],
} as const;

/**
 * Says repeating reminders (or snooze, moving, pause, resume, skip, a new text) are not
 * available: the registered schedule tools lack them.
 *
 * @param what `repeat`, `snooze`, `update`, `pause`, `resume`, `skip` or `rename`
 * @param zh reply in Chinese
 * @returns the text, which says nothing was set
 */
export function unavailableText(what: keyof typeof UNAVAILABLE, zh: boolean): string {
  const [en, cn] = UNAVAILABLE[what];
  return zh
    ? `当前配置的提醒工具不支持${cn}，所以我没有做任何更改。`
    : `${en} isn't available with the reminder tools in this configuration, so I haven't changed anything.`;
}

const MOVE_REFUSED: Record<SeriesMoveRefusal, readonly [string, string]> = {
  days: [
    'I can\'t tell which of its days to move. To change its time, say e.g. "move it to 8am"; to change its days, say the whole repeat, e.g. "change it to every Friday at 10".',
    "不确定要把哪一天改到这个日期。改时间可以说“改到早上8点”；改重复的日子请说完整的重复方式，例如“改成每周五上午10点”。",
  ],
  times: [
    'it repeats at several times of day and I can\'t tell which one to move. Say the whole repeat instead, e.g. "change it to every day at 8".',
    "它在一天中的几个时间重复，不确定要改哪一个。请说完整的重复方式，例如“改成每天早上8点”。",
  ],
  rule: [
    'I can\'t work out its rule. Say the whole repeat instead, e.g. "change it to every day at 8".',
    "我读不懂它的重复规则。请说完整的重复方式，例如“改成每天早上8点”。",
  ],
}; // deno-fmt-ignore

/**
 * Says a move of a repeating reminder was not made, and how to ask for it; the reminder still
 * repeats as before (a series is never turned into a one-off by a move).
 *
 * @param reason why the move cannot be said for this series
 * @param repeat the series' rule (its words when the tool gave them)
 * @param zh reply in Chinese
 * @returns the text
 */
export function seriesMoveText(reason: SeriesMoveRefusal, repeat: RepeatView, zh: boolean): string {
  const [en, cn] = MOVE_REFUSED[reason];
  return zh
    ? `这个提醒按“${ruleWords(repeat, true)}”重复，我没有修改：${cn}`
    : `That reminder repeats ${ruleWords(repeat, false)}, so I haven't changed it: ${en}`;
}

/** "March" for 3: the English month name from `Intl`. */
const enMonthName = (month: number) =>
  new Intl.DateTimeFormat("en", { month: "long", timeZone: "UTC" }).format(
    Date.UTC(2000, month - 1),
  );

/**
 * Says a date does not exist ("Feb 30", "2月30日", "Feb 29 2027"), so nothing was set.
 *
 * @param date month 1..12, day, and the year when one was said
 * @param zh reply in Chinese
 * @returns the text
 */
export function noSuchDateText(
  date: { readonly month: number; readonly day: number; readonly year?: number | undefined },
  zh: boolean,
): string {
  const { month, day, year } = date;
  const leap = year !== undefined && month === 2 && day === 29;
  if (zh) {
    const why = leap ? `（${year}年不是闰年）` : "";
    return `没有${
      year ? `${year}年` : ""
    }${month}月${day}日这个日期${why}，所以我没有设置任何提醒。请换一个存在的日期。`;
  }
  const name = `${enMonthName(month)} ${day}${year ? `, ${year}` : ""}`;
  const why = leap ? ` (${year} is not a leap year)` : "";
  return `${name} doesn't exist${why}, so I haven't set anything. Please give a date that does.`;
}
