/**
 * Reply texts of the offline model (English and Chinese): tool results, reminder frames, help.
 * Times are shown in the session zone (UTC without one), never in the process locale.
 *
 * @module
 */
import type { ReminderFrame } from "./frame.ts";

/** What a reply is written for: the user's language, the clock and the session zone. */
export interface ReplyContext {
  /** Reply in Chinese. */
  readonly zh: boolean;
  /** Wall clock, epoch ms. */
  readonly now: number;
  /** The session's IANA zone, when it has one. */
  readonly timeZone?: string | undefined;
}

/** A tool result as the model sees it: the tool's name and the JSON text of its value. */
export interface ToolOutcome {
  /** Tool name (empty when the call could not be matched). */
  readonly name: string;
  /** JSON text of the result. */
  readonly content: string;
}

/** A schedule as read, defensively, from a tool value. */
export interface ScheduleView {
  /** Schedule id. */
  readonly id: string;
  /** Reminder text. */
  readonly prompt: string;
  /** Target instant, UTC RFC 3339 (may be empty). */
  readonly scheduledAt: string;
  /** `scheduled`, `overdue` or whatever the tool reported. */
  readonly status: string;
}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Obj
    : undefined;
}

function str(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

/**
 * Parses a tool message's content, tolerating non-JSON text.
 *
 * @param content the tool message content
 * @returns the parsed value, or the raw text when it is not JSON
 */
export function readJson(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function toView(value: unknown): ScheduleView | undefined {
  const o = obj(value);
  const id = str(o?.id);
  if (!o || !id) return undefined;
  return { id, prompt: str(o.prompt), scheduledAt: str(o.scheduledAt), status: str(o.status) };
}

/**
 * Reads the schedules of a `schedule_list` value (`{ ok, schedules }`; arrays and `records` too).
 *
 * @param value parsed tool value
 * @returns the schedules found (empty when none)
 */
export function readSchedules(value: unknown): ScheduleView[] {
  const o = obj(value);
  const list = Array.isArray(value) ? value : o?.schedules ?? o?.records ?? o?.items;
  return Array.isArray(list) ? list.flatMap((v) => toView(v) ?? []) : [];
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/**
 * Formats an instant in the session zone: `HH:MM (Zone)` today, `YYYY-MM-DD HH:MM (Zone)` else.
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
  const time = `${pad(at.hour)}:${pad(at.minute)}`;
  const text = at.toPlainDate().equals(today.toPlainDate()) ? time : `${at.toPlainDate()} ${time}`;
  return ctx.zh ? `${text}（${zone}）` : `${text} (${zone})`;
}

function span(seconds: number, zh: boolean): string {
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
    "Repeating reminders aren't supported; I can set one-off reminders.",
    "暂不支持重复提醒，只能设置一次性提醒。",
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

function errorText(name: string, error: Obj | undefined, ctx: ReplyContext): string {
  const code = str(error?.code);
  const message = str(error?.message);
  if (code === "timezone_confirmation_required") {
    const known = Array.isArray(error?.knownTimeZones) ? error.knownTimeZones.map(str) : [];
    const list = known.filter(Boolean).join(", ");
    return ctx.zh
      ? `设置按钟点的提醒前，我需要确认你的时区${list ? `（已知：${list}）` : ""}。请告诉我是哪个时区，例如“明天上午9点 Asia/Shanghai 提醒我开会”。`
      : `Before I set a reminder at a clock time I need to confirm your time zone${list ? ` (known: ${list})` : ""}. Which zone do you mean? For example: "remind me tomorrow at 9:00 Europe/Berlin to join the meeting".`;
  }
  const fixed = ERRORS[code];
  if (fixed) return ctx.zh ? fixed[1] : fixed[0];
  const detail = message || code || "unknown error";
  return ctx.zh ? `工具 ${name || "调用"} 失败：${detail}` : `The ${name || "tool"} call failed: ${detail}`;
}

/**
 * Lists schedules as lines `- prompt — when, status [id]`.
 *
 * @param schedules the schedules
 * @param ctx language, clock and zone
 * @returns one line per schedule
 */
export function listLines(schedules: readonly ScheduleView[], ctx: ReplyContext): string {
  return schedules.map((s) => {
    const status = s.status === "overdue"
      ? (ctx.zh ? "已逾期，会话打开时送达" : "overdue, fires while the session is open")
      : (ctx.zh ? "已计划" : s.status || "scheduled");
    return `- ${s.prompt} — ${formatWhen(s.scheduledAt, ctx)}${
      ctx.zh ? "，" : ", "
    }${status} [${s.id}]`;
  }).join("\n");
}

function createdText(created: ScheduleView | undefined, ctx: ReplyContext): string {
  if (!created) {
    return ctx.zh
      ? "好的，提醒已设置（仅限本会话）。"
      : "OK — the reminder is set (session-local).";
  }
  const when = formatWhen(created.scheduledAt, ctx);
  const late = created.status === "overdue";
  return ctx.zh
    ? `好的——我会在 ${when} 提醒你：${created.prompt}。${
      late ? "它已到期，会尽快送达。" : ""
    }这个提醒仅在本会话内有效（session-local）：只有会话打开时才会触发。（id：${created.id}）`
    : `OK — I'll remind you to ${created.prompt} at ${when}.${
      late ? " It is already due and will fire shortly." : ""
    } This reminder is session-local: it only fires while this session is open. (id: ${created.id})`;
}

function deletedText(value: Obj, ctx: ReplyContext): string {
  // `deleted` is the record's last value ({ id, prompt, … }) or, tolerated, a bare id.
  const view = toView(value.deleted);
  const id = view?.id || str(value.deleted) || str(value.id);
  const what = view?.prompt ? (ctx.zh ? `“${view.prompt}”` : `"${view.prompt}" `) : "";
  return ctx.zh
    ? `好的，已取消提醒${what}（${id}）。`
    : `Done — reminder ${what}(${id}) is cancelled.`;
}

function successText(name: string, value: Obj, ctx: ReplyContext): string {
  const known = ["schedule_create", "schedule_list", "schedule_delete"].includes(name);
  if (name === "schedule_list" || (!known && Array.isArray(value.schedules))) {
    const schedules = readSchedules(value);
    if (schedules.length === 0) {
      return ctx.zh
        ? "本会话目前没有有效的提醒。"
        : "You have no active reminders in this session.";
    }
    const head = ctx.zh ? "你当前的提醒（仅限本会话）：" : "Your reminders (session-local):";
    return `${head}\n${listLines(schedules, ctx)}`;
  }
  if (name === "schedule_delete" || (!known && value.deleted !== undefined)) {
    return deletedText(value, ctx);
  }
  // A create value is the record's fields spread flat; `schedule` / `record` wrappers tolerated.
  const created = toView(value.schedule ?? value.record ?? value);
  if (name === "schedule_create" || created?.scheduledAt) return createdText(created, ctx);
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
  return successText(outcome.name, value, ctx);
}

/**
 * The reminder text for follow-up frames; overdue frames say when they were due and how late.
 *
 * @param frames the frames
 * @param ctx clock and zone (`zh` is decided per frame from the prompt)
 * @returns the reply text
 */
export function frameText(frames: readonly ReminderFrame[], ctx: ReplyContext): string {
  return frames.map((f) => {
    const zh = ctx.zh || /[\u3400-\u9fff]/.test(f.prompt);
    const c = { ...ctx, zh };
    const head = zh ? `⏰ 提醒：${f.prompt}` : `⏰ Reminder: ${f.prompt}`;
    if (f.status !== "overdue") return head;
    const when = formatWhen(f.scheduledAt, c);
    return zh
      ? `${head}（原定于 ${when}，已晚了 ${span(f.lateBySeconds, true)}，当时会话处于关闭状态）`
      : `${head} (this was due at ${when} — ${
        span(f.lateBySeconds, false)
      } ago, while the session was closed)`;
  }).join("\n");
}
