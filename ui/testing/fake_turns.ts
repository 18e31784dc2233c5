/**
 * The scripted turns and reminder records of the fake API (`fake_api.ts`): one-shot and
 * recurring reminders in the wire shapes of docs/architecture.md#contracts and docs/recurring.md,
 * plus a Markdown answer, so browser tests exercise every renderer without a host.
 *
 * @module
 */
import type { EventView, WireEvent } from "../wire.ts";

/** The slice of a fake session a turn writes to. */
export interface TurnTarget {
  /** The log. */
  readonly events: WireEvent[];
  /** Appends an event (and streams it). */
  append(type: string, data: unknown): WireEvent;
}

/** A schedule record as the fake keeps it. */
export interface FakeRecord {
  readonly id: string;
  readonly kind: "after" | "at" | "recurring";
  readonly prompt: string;
  readonly scheduledAt: string;
  readonly afterSeconds?: number;
  readonly rrule?: string;
  readonly dtstart?: string;
  readonly timeZone?: string;
  readonly snoozeOf?: { readonly id: string; readonly occurrenceAt: string };
}

/** The Markdown the fake answers "show me markdown" with. */
export const MARKDOWN_REPLY = [
  "Here is **bold**, `code` and a list:",
  "",
  "- [chime docs](https://example.com/docs)",
  "- [a bad link](javascript:alert(1))",
  "",
  "<b>raw html stays text</b>",
].join("\n");

/** Words for the fake's rules (the host's `text` in docs/recurring.md). */
export const RULE_TEXT: Readonly<Record<string, { en: string; zh: string }>> = {
  "FREQ=MINUTELY": { en: "every minute", zh: "每分钟" },
  "FREQ=DAILY;BYHOUR=9;BYMINUTE=0": { en: "daily at 09:00", zh: "每天 09:00" },
};

/**
 * Runs one scripted turn for a prompt: "every minute" / "every day at 9" create a recurring
 * record, "fail" ends with a model error, "markdown" answers in Markdown, "hello" just answers,
 * anything else creates a 20-minute one-shot reminder.
 *
 * @param s the session
 * @param text the user's prompt
 * @param now the current instant (ms)
 * @param zone the prompt's zone
 */
export function runTurn(s: TurnTarget, text: string, now: number, zone: string): void {
  const turnId = `t${s.events.length}`;
  s.append("turn/start", { turnId });
  s.append("step/start", { turnId, step: 0, messageIds: [] });
  s.append("time-context/marker", { turnId });
  const reply = (t: string) => {
    s.append("assistant/message", { turnId, text: t });
    s.append("turn/end", { turnId, outcome: "completed" });
  };
  if (/fail/i.test(text)) {
    s.append("turn/end", { turnId, outcome: "error", error: "model endpoint returned 503" });
    return;
  }
  if (/markdown/i.test(text)) return reply(MARKDOWN_REPLY);
  if (/^(hello|hi)\b/i.test(text)) return reply("Hello! Ask me for a reminder.");
  const prompt = text.replace(/^remind me (in \d+ \w+ |every minute |every day at 9 )?to /i, "");
  const id = `sch_${s.events.length}`;
  let record: FakeRecord;
  if (/every (minute|day at 9)/i.test(text)) {
    const minute = /every minute/i.test(text);
    const rrule = minute ? "FREQ=MINUTELY" : "FREQ=DAILY;BYHOUR=9;BYMINUTE=0";
    const first = minute ? now + 60_000 : Date.parse("2030-01-02T01:00:00.000Z");
    record = {
      id,
      kind: "recurring",
      prompt,
      rrule,
      dtstart: minute ? new Date(first).toISOString().slice(0, 19) : "2030-01-02T09:00:00",
      timeZone: minute ? zone : "Asia/Shanghai",
      scheduledAt: new Date(first).toISOString(),
    };
  } else {
    const scheduledAt = new Date(now + 1_200_000).toISOString();
    record = { id, kind: "after", prompt, afterSeconds: 1200, scheduledAt };
  }
  const args = record.kind === "recurring"
    ? { prompt, repeat: { rrule: record.rrule, time_zone: record.timeZone } }
    : { prompt, after_seconds: 1200 };
  s.append("tool/call", { turnId, callId: "c1", name: "schedule_create", args });
  s.append("schedule/change", {
    version: record.kind === "recurring" ? 2 : 1,
    op: "create",
    record,
  });
  s.append("tool/result", {
    turnId,
    callId: "c1",
    result: { ok: true, id, status: "scheduled", deliveryMode: "session-local" },
  });
  reply(
    record.kind === "recurring"
      ? `Done — I'll remind you to **${prompt}** ${RULE_TEXT[record.rrule!]?.en}.`
      : `Done — I'll remind you to ${prompt} in 20 minutes.`,
  );
}

/**
 * The active records of a log (docs/recurring.md fold, as far as the fake needs it).
 *
 * @param events the log
 * @returns active records by id, recurring ones at their next target
 */
export function activeRecords(events: readonly WireEvent[]): Map<string, FakeRecord> {
  const map = new Map<string, FakeRecord>();
  for (const e of events) {
    if (e.type !== "schedule/change") continue;
    const d = e.data as { op: string; id?: string; record?: FakeRecord; nextAt?: string | null };
    if ((d.op === "create" || d.op === "update") && d.record) map.set(d.record.id, d.record);
    else if (d.op === "dispatch" && d.id && typeof d.nextAt === "string") {
      map.set(d.id, { ...map.get(d.id)!, scheduledAt: d.nextAt });
    } else if (d.id) map.delete(d.id);
  }
  return map;
}

/**
 * The view of a dispatch (docs/recurring.md "Host and page").
 *
 * @param record the dispatched record
 * @param dispatch the dispatch event's data
 * @returns the sidecar view
 */
export function dispatchView(
  record: FakeRecord,
  dispatch: { occurrenceAt?: string; nextAt?: string | null; missed?: number },
): EventView {
  const recurring = record.kind === "recurring"
    ? {
      recurring: {
        rrule: record.rrule!,
        timeZone: record.timeZone!,
        text: RULE_TEXT[record.rrule!] ?? { en: record.rrule!, zh: record.rrule! },
        nextAt: dispatch.nextAt ?? null,
      },
    }
    : {};
  return {
    type: "schedule/change",
    presentation: {
      scheduleId: record.id,
      prompt: record.prompt,
      occurrenceAt: dispatch.occurrenceAt ?? record.scheduledAt,
      ...recurring,
      ...(dispatch.missed ? { missed: dispatch.missed } : {}),
      ...(record.snoozeOf ? { snoozeOf: record.snoozeOf } : {}),
    },
  };
}
