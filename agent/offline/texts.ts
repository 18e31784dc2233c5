/**
 * Fixed texts of the offline model: help, a missing time, missing tools, the current time, and
 * the "which reminder?" question of a cancel by words.
 *
 * @module
 */
import { listLines, type ReplyContext, type ScheduleView } from "./reply.ts";

/**
 * What the offline model can do, for anything it does not understand.
 *
 * @param zh reply in Chinese
 * @returns the help text
 */
export function helpText(zh: boolean): string {
  return zh
    ? "我是 chime 的离线模型（无需 API key）。我可以设置提醒，例如“20分钟后提醒我喝水”“明天上午9点提醒我开会”“remind me in 20 minutes to stretch”；也可以列出提醒（“我有哪些提醒”）和取消提醒（“取消提醒 sch_…”）。如需自由对话，请设置 DEEPSEEK_API_KEY 或 CHIME_MODEL_* 以使用真实模型。"
    : 'I\'m chime\'s offline model (no API key needed). I can set reminders — e.g. "remind me in 20 minutes to stretch", "remind me tomorrow at 9 to join the meeting", "20分钟后提醒我喝水" — list them ("what reminders do I have") and cancel them ("cancel reminder sch_…"). For open-ended chat, set DEEPSEEK_API_KEY or CHIME_MODEL_* to use a real model.';
}

/**
 * Asks for the time of a reminder request that named none.
 *
 * @param zh reply in Chinese
 * @returns the question
 */
export function missingTimeText(zh: boolean): string {
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

/**
 * Asks which reminder to cancel when words matched none or several.
 *
 * @param schedules the active schedules
 * @param words the words the user gave
 * @param ctx language, clock and zone
 * @returns the question
 */
export function askWhichText(
  schedules: readonly ScheduleView[],
  words: readonly string[],
  ctx: ReplyContext,
): string {
  if (schedules.length === 0) {
    return ctx.zh ? "本会话没有可以取消的提醒。" : "You have no active reminders to cancel.";
  }
  const said = words.join(" ");
  const head = ctx.zh
    ? `要取消哪一个提醒${said ? `（“${said}”）` : ""}？请告诉我 id：`
    : `Which reminder should I cancel${said ? ` ("${said}")` : ""}? Tell me its id:`;
  return `${head}\n${listLines(schedules, ctx)}`;
}
