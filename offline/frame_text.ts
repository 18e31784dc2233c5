/**
 * The offline model's answer to reminder frames (docs/events.md#followup;
 * docs/recurring.md "Delivery"): the prompt, how late an overdue one is, and for a repeating one
 * its rule, its next occurrence, how many occurrences were missed, and why: the hourly budget only
 * when the frame says `coalesced` (else downtime).
 *
 * @module
 */
import type { ReminderFrame } from "./frame.ts";
import { formatWhen, type ReplyContext, ruleWords, span } from "./reply.ts";

/** Why occurrences were not delivered: the hourly limit only when the frame says `coalesced`. */
function missedText(f: ReminderFrame, zh: boolean): string | undefined {
  const n = f.missed;
  const earlier = `${n} earlier occurrence${n === 1 ? " was" : "s were"}`;
  if (f.coalesced) {
    if (n === 0) {
      return zh ? "因每小时提醒上限而推迟发送" : "the hourly reminder limit held it back";
    }
    return zh
      ? `已达到每小时提醒上限，之前的 ${n} 次合并为这一次`
      : `the hourly reminder limit held it back, so ${earlier} combined into this one`;
  }
  if (n === 0) return undefined;
  return zh ? `错过的 ${n} 次不再补发` : `${earlier} missed and not replayed`;
}

function series(f: ReminderFrame, c: ReplyContext): string {
  const { zh } = c;
  const missed = missedText(f, zh);
  const parts: string[] = missed === undefined ? [] : [missed];
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
 * repeating ones their rule and next occurrence, missed occurrences and whether the hourly limit
 * (not downtime) held it back, and a snoozed one that it was snoozed.
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
    // Late for the hourly limit (`series` says so), else because the session was closed.
    const closed = f.coalesced ? "" : zh ? "，当时会话处于关闭状态" : ", while the session was closed";
    const late = zh
      ? `（原定于 ${when}，已晚了 ${span(f.lateBySeconds, true)}${closed}）`
      : ` (this was due at ${when} — ${span(f.lateBySeconds, false)} ago${closed})`;
    return head + late + more;
  }).join("\n");
}
