/**
 * Reply texts of the offline model's series requests (English and Chinese): what `schedule_pause`,
 * `schedule_resume` and `schedule_skip` did ("Paused “standup” …", "已暂停“站会”…"), why one was
 * not made (the reminder does not repeat, the series has no occurrence on the day named, the
 * tools lack it) and the tools' refusals in words.
 *
 * @module
 */
import { type Obj, readResultSchedule, type ScheduleView, str, TOOL } from "./contract.ts";
import { formatWhen, type ReplyContext, ruleWords } from "./reply.ts";
import { weekday } from "./rule_words.ts";
import { ASK_VERBS } from "./texts.ts";
import type { SeriesIntent, SkipDay } from "./series_words.ts";

type Kind = SeriesIntent["kind"];
type SeriesKind = Exclude<Kind, "rename">;

/**
 * Says a pause, resume or skip was not made because the reminder does not repeat.
 *
 * @param kind the request
 * @param zh reply in Chinese
 * @returns the text
 */
export function notSeriesText(kind: SeriesKind, zh: boolean): string {
  const [en, cn] = ASK_VERBS[kind];
  return zh
    ? `这个提醒不是重复提醒，没有可以${cn}的重复；要删除它可以说“取消这个提醒”，要改时间可以说“改到下午4点”。`
    : `That reminder doesn't repeat, so there's nothing to ${en}; say "cancel it" to remove it or "move it to 4pm" to change its time.`;
}

function dayWords(day: SkipDay, ctx: ReplyContext): string {
  if (day.kind === "days") {
    return ctx.zh
      ? ["今天", "明天", "后天"][day.days] ?? ""
      : ["today", "tomorrow", "the day after tomorrow"][day.days] ?? "";
  }
  const i = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"].indexOf(day.code);
  const date = Temporal.PlainDate.from({ year: 2024, month: 1, day: 1 + i }); // a Monday first
  const name = weekday(date, ctx.zh);
  if (ctx.zh) return `在${day.week === "next" ? "下" : day.week === "this" ? "这" : ""}${name}`;
  const full = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][i]!;
  return day.week === "this"
    ? `this ${full}`
    : day.week === "next"
    ? `on next week's ${full}`
    : `on ${full} in the coming week`;
} // deno-fmt-ignore

/**
 * Says a skip was not made: the series has no occurrence on the day named.
 *
 * @param view the series as listed
 * @param day the day named
 * @param ctx language, clock and zone
 * @returns the text
 */
export function noOccurrenceText(view: ScheduleView, day: SkipDay, ctx: ReplyContext): string {
  const rule = view.repeat ? ruleWords(view.repeat, ctx.zh) : "";
  const when = dayWords(day, ctx);
  return ctx.zh
    ? `“${view.prompt}”${when}没有要提醒的那一次${rule ? `（重复：${rule}）` : ""}，所以我没有跳过任何一次。`
    : `"${view.prompt}" doesn't fire ${when}${rule ? ` (it repeats ${rule})` : ""}, so I haven't skipped anything.`;
} // deno-fmt-ignore

function next(view: ScheduleView, ctx: ReplyContext): string {
  const zoned = { ...ctx, timeZone: view.repeat?.timeZone || ctx.timeZone };
  return view.scheduledAt ? formatWhen(view.scheduledAt, zoned) : "";
}

/**
 * Describes a successful pause, resume or skip.
 *
 * @param name the tool
 * @param value the tool's value
 * @param args the call's arguments (the skipped occurrence, when it named one)
 * @param ctx language, clock and zone
 * @returns the text
 */
export function seriesResultText(
  name: string,
  value: Obj,
  args: Obj | undefined,
  ctx: ReplyContext,
): string {
  const view = readResultSchedule(value);
  const id = view?.id || str(args?.id);
  const what = view?.prompt ? `“${view.prompt}”` : (ctx.zh ? "这个提醒" : "the reminder");
  // The id only where it is the one name the reply has (no prompt to say).
  const tail = view?.prompt ? "" : ctx.zh ? `（id：${id}）` : ` (id: ${id})`;
  const rule = view?.repeat ? ruleWords(view.repeat, ctx.zh) : "";
  const upcoming = view ? next(view, ctx) : "";
  const later = upcoming ? (ctx.zh ? `，下次：${upcoming}` : `; next: ${upcoming}`) : "";
  if (name === TOOL.pause) {
    return ctx.zh
      ? `已暂停${what}：在你恢复之前不会再提醒（要恢复可以说“恢复这个提醒”）。${tail}`
      : `Paused ${what} — it won't fire until you resume it (say "resume it").${tail}`;
  }
  if (name === TOOL.resume) {
    const repeats = rule ? (ctx.zh ? `，重复：${rule}` : `, repeating ${rule}`) : "";
    return ctx.zh
      ? `已恢复${what}${repeats}${later}；暂停期间错过的不会补发。${tail}`
      : `Resumed ${what}${repeats}${later}. Times missed while it was paused are not sent.${tail}`;
  }
  const at = str(args?.occurrence_at) || str(value.occurrenceAt) || str(value.skippedAt);
  const zone = view?.repeat?.timeZone || ctx.timeZone;
  const skipped = at ? formatWhen(at, { ...ctx, timeZone: zone }) : "";
  if (ctx.zh) {
    const which = skipped ? `在 ${skipped} 的那一次` : "的下一次";
    return `已跳过${what}${which}提醒，之后照常重复${later}。${tail}`;
  }
  const which = skipped ? ` on ${skipped}` : " the next time";
  return `Skipped ${what}${which} — it still repeats${later}.${tail}`;
}

const REFUSALS: readonly (readonly [RegExp, string, string])[] = [
  [/already[_\s]paused|is paused/i, "That reminder is already paused.", "这个提醒已经是暂停状态。"],
  [
    /not[_\s]paused|is not paused|isn't paused/i,
    "That reminder isn't paused, so there's nothing to resume; it still repeats.",
    "这个提醒没有暂停，无需恢复；它仍在按原来的时间重复。",
  ],
  [
    /already ended|no occurrence left/i,
    "That reminder has ended: no occurrence is left, so there's nothing to skip, pause or resume.",
    "这个提醒已经结束：没有剩下的次数，无需跳过、暂停或恢复。",
  ],
  [
    /not_an_occurrence|not a coming occurrence/i,
    "That time isn't one of the reminder's occurrences (or it's already skipped), so I haven't skipped anything. Ask me to list your reminders to see its next times.",
    "这个时间不是该提醒的某一次（或已经跳过），所以我没有跳过任何一次。可以让我列出提醒查看接下来的时间。",
  ],
  [
    /does not repeat|not recurring|one-?off/i,
    "That reminder doesn't repeat, so it can't be paused or skipped; say \"cancel it\" to remove it.",
    "这个提醒不是重复提醒，不能暂停或跳过；要删除它可以说“取消这个提醒”。",
  ],
]; // deno-fmt-ignore

/**
 * A pause, resume or skip refusal in words, read from its code and message; `undefined` for the
 * codes every tool shares (said by `reply.ts`).
 *
 * @param name the tool
 * @param error the tool's error (`code`, `message`)
 * @param zh reply in Chinese
 * @returns the text, or `undefined`
 */
export function seriesErrorText(name: string, error: Obj | undefined, zh: boolean): string | undefined {
  if (name !== TOOL.pause && name !== TOOL.resume && name !== TOOL.skip) return undefined;
  const said = `${str(error?.code)} ${str(error?.message)}`;
  const found = REFUSALS.find(([re]) => re.test(said));
  return found ? (zh ? found[2] : found[1]) : undefined;
}
