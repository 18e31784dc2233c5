/**
 * The offline model's answer to reminder frames (seed §"固定 framing"; docs/recurring.md
 * "Delivery"): the prompt, how late an overdue one is, and for a repeating one its rule, its next
 * occurrence, how many occurrences were missed and whether the hourly budget coalesced some.
 *
 * @module
 */
import type { ReminderFrame } from "./frame.ts";
import { formatWhen, type ReplyContext, ruleWords, span } from "./reply.ts";

function series(f: ReminderFrame, c: ReplyContext): string {
  const parts: string[] = [];
  const { zh } = c;
  if (f.missed > 0) {
    parts.push(
      zh
        ? `错过的 ${f.missed} 次不再补发`
        : `${f.missed} earlier occurrence${
          f.missed === 1 ? " was" : "s were"
        } missed and not replayed`,
    );
  }
  if (f.coalesced) {
    parts.push(
      zh
        ? "已达到每小时提醒上限，部分提醒被合并"
        : "the hourly reminder limit was reached, so some occurrences were combined",
    );
  }
  if (f.recurring) {
    const zone = { ...c, timeZone: f.recurring.timeZone || c.timeZone };
    const next = f.recurring.nextAt === null
      ? (zh ? "这是最后一次" : "this was the last one")
      : `${zh ? "下次：" : "next: "}${formatWhen(f.recurring.nextAt, zone)}`;
    parts.unshift(
      `${zh ? "重复：" : "repeats "}${ruleWords(f.recurring, zh)}${zh ? "，" : ", "}${next}`,
    );
  }
  if (parts.length === 0) return "";
  return zh ? `（${parts.join("；")}）` : ` (${parts.join("; ")})`;
} // deno-fmt-ignore

/**
 * The reminder text for follow-up frames; overdue frames say when they were due and how late,
 * repeating ones their rule and next occurrence, missed and coalesced occurrences, and a
 * snoozed one that it was snoozed.
 *
 * @param frames the frames
 * @param ctx clock and zone (`zh` is decided per frame from the prompt)
 * @returns the reply text
 */
export function frameText(frames: readonly ReminderFrame[], ctx: ReplyContext): string {
  return frames.map((f) => {
    const zh = ctx.zh || /[\u3400-\u9fff]/.test(f.prompt);
    const c = { ...ctx, zh };
    const snoozed = f.snoozeOf ? (zh ? "（推迟后）" : " (snoozed)") : "";
    const head = zh ? `提醒${snoozed}：${f.prompt}` : `Reminder${snoozed}: ${f.prompt}`;
    const more = series(f, c);
    if (f.status !== "overdue") return head + more;
    const when = formatWhen(f.occurrenceAt ?? f.scheduledAt, c);
    const late = zh
      ? `（原定于 ${when}，已晚了 ${span(f.lateBySeconds, true)}，当时会话处于关闭状态）`
      : ` (this was due at ${when} — ${span(f.lateBySeconds, false)} ago, while the session was closed)`;
    return head + late + more;
  }).join("\n");
}
