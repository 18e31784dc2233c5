/**
 * What the offline model does for a series request (`series_words.ts`): `schedule_pause`,
 * `schedule_resume`, `schedule_skip { id, occurrence_at? }` and `schedule_update { id, prompt }`
 * (a new text). The reminder is found as a move finds it (`plan.ts`, `refer.ts`): by id, by words
 * of its prompt after this turn's `schedule_list`, or the latest the conversation named. Pause,
 * resume and skip mean a repeating reminder: words that match only a one-off are answered, never
 * sent. A skip that names a day resolves the occurrence on that day in the series' zone from
 * the listed `preview` (else computed from its rule), and says so when the series has none there.
 *
 * @module
 */
import { nextOccurrence } from "@chime/schedule/recurrence";
import { type ScheduleView, TOOL } from "./contract.ts";
import type { OfflineIntent } from "./parse.ts";
import type { Call, Draft, PlanContext } from "./plan.ts";
import { knownReminders, latestReminder } from "./refer.ts";
import type { SeriesIntent, SkipDay } from "./series_words.ts";
import { noOccurrenceText, notSeriesText } from "./series_texts.ts";
import { askWhichText, notEnabledText, unavailableText } from "./texts.ts";

const text = (t: string): Draft => ({ text: t, calls: [] });
const EMPTY: ScheduleView = { id: "", prompt: "", scheduledAt: "", status: "", kind: "" };
const CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/**
 * Whether an intent is a series request.
 *
 * @param intent any intent
 * @returns `true` for pause, resume, skip and a new text
 */
export function isSeries(intent: OfflineIntent): intent is SeriesIntent {
  return ["pause", "resume", "skip", "rename"].includes(intent.kind);
}

function toolOf(kind: SeriesIntent["kind"]) {
  return kind === "rename" ? TOOL.update : TOOL[kind];
}

/** Whether the reminder is known not to repeat (a one-off the conversation showed). */
function oneOff(view: ScheduleView): boolean {
  return view.repeat === undefined && (view.kind !== "" || view.prompt !== "");
}

/** The local date window a skip's day names, in the series' zone. */
function window(day: SkipDay, today: Temporal.PlainDate) {
  if (day.kind === "days") {
    const d = today.add({ days: day.days });
    return { from: d, to: d, code: undefined };
  }
  if (day.week) {
    const monday = today.subtract({ days: today.dayOfWeek - 1 });
    const d = monday.add({ days: (day.week === "next" ? 7 : 0) + CODES.indexOf(day.code) });
    return { from: d, to: d, code: day.code };
  }
  const from = day.notToday ? today.add({ days: 1 }) : today;
  return { from, to: today.add({ days: 7 }), code: day.code };
}

/**
 * Upcoming occurrences (UTC ms, ascending, with the instant as the tool wrote it): the listed
 * preview, then the rule's own.
 */
function* occurrences(
  view: ScheduleView,
  zone: string,
  now: number,
): Generator<readonly [number, string]> {
  let last = now;
  for (const p of view.preview ?? []) {
    const at = Date.parse(p.at);
    if (!Number.isFinite(at) || at <= last) continue;
    last = at;
    yield [at, p.at];
  }
  const repeat = view.repeat;
  if (repeat?.dtstart) {
    const series = { rrule: repeat.rrule, dtstart: repeat.dtstart, timeZone: zone };
    for (let i = 0; i < 500; i++) {
      let next: number | undefined;
      try {
        next = nextOccurrence(series, last);
      } catch {
        return; // a rule this engine does not read: the preview is all there is
      }
      if (next === undefined) return;
      last = next;
      yield [next, new Date(next).toISOString()];
    }
  } else if (!view.preview) {
    const at = Date.parse(view.scheduledAt);
    if (Number.isFinite(at) && at > now) yield [at, view.scheduledAt];
  }
}

/**
 * The occurrence of `view` on the day a skip names, as an RFC 3339 UTC instant.
 *
 * @param view the series as listed (`repeat`, `preview`, `scheduledAt`)
 * @param day the day named
 * @param now wall clock, epoch ms
 * @param sessionZone the session zone (when the series names none)
 * @returns the instant, or `undefined` when the series has no occurrence that day
 */
export function occurrenceOn(
  view: ScheduleView,
  day: SkipDay,
  now: number,
  sessionZone?: string,
): string | undefined {
  const zone = view.repeat?.timeZone || sessionZone || "UTC";
  const today = Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(zone).toPlainDate();
  const { from, to, code } = window(day, today);
  for (const [at, iso] of occurrences(view, zone, now)) {
    const date = Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(zone).toPlainDate();
    if (Temporal.PlainDate.compare(date, to) > 0) return undefined;
    if (Temporal.PlainDate.compare(date, from) < 0) continue;
    if (code === undefined || CODES[date.dayOfWeek - 1] === code) return iso;
  }
  return undefined;
}

/** The call for `view`, or the answer when it cannot be made. */
function act(intent: SeriesIntent, view: ScheduleView, pc: PlanContext): Draft {
  const zh = pc.reply.zh;
  if (intent.kind === "rename") {
    return {
      text: "",
      calls: [{ name: TOOL.update, args: { id: view.id, prompt: intent.prompt } }],
    };
  }
  if (oneOff(view)) return text(notSeriesText(intent.kind, zh));
  if (intent.kind !== "skip") {
    return { text: "", calls: [{ name: TOOL[intent.kind], args: { id: view.id } }] };
  }
  let call: Call = { name: TOOL.skip, args: { id: view.id } };
  if (intent.day) {
    const at = occurrenceOn(view, intent.day, pc.reply.now, pc.reply.timeZone);
    if (at === undefined) return text(noOccurrenceText(view, intent.day, pc.reply));
    call = { name: TOOL.skip, args: { id: view.id, occurrence_at: at } };
  }
  return { text: "", calls: [call] };
} // deno-fmt-ignore

function listFirst(pc: PlanContext): Draft {
  return pc.tools.has(TOOL.list)
    ? { text: "", calls: [{ name: TOOL.list, args: {} }] }
    : text(notEnabledText(pc.reply.zh));
}

/**
 * The first step's draft for a series request.
 *
 * @param intent the request
 * @param pc the plan context
 * @returns the call, a `schedule_list` first when the reminder is named by words (or a skip's
 *   day needs the listed occurrences), or the answer
 */
export function forSeries(intent: SeriesIntent, pc: PlanContext): Draft {
  if (!pc.tools.has(toolOf(intent.kind))) {
    return text(unavailableText(intent.kind, pc.reply.zh));
  }
  const t = intent.target;
  const known = (id: string) => knownReminders(pc.messages).find((k) => k.view.id === id)?.view;
  const view = t.kind === "id"
    ? known(t.id) ?? { ...EMPTY, id: t.id }
    : t.kind === "latest"
    ? latestReminder(pc.messages, intent.kind === "skip" ? "frame" : "any")
    : undefined;
  // A skip on a named day needs the series' occurrences, which the list gives.
  const needsList = intent.kind === "skip" && intent.day !== undefined && !view?.preview;
  if (view && !(needsList && pc.tools.has(TOOL.list))) return act(intent, view, pc);
  return listFirst(pc);
} // deno-fmt-ignore

function matching(schedules: readonly ScheduleView[], words: readonly string[]): ScheduleView[] {
  const lower = words.map((w) => w.toLowerCase());
  return schedules.filter((s) => lower.every((w) => s.prompt.toLowerCase().includes(w)));
}

/**
 * After this turn's `schedule_list`: the call a series request now makes on its single match, or
 * the question which one (or that the match does not repeat).
 *
 * @param intent the request
 * @param schedules the listed reminders
 * @param pc the plan context
 * @returns the draft
 */
export function afterListSeries(
  intent: SeriesIntent,
  schedules: readonly ScheduleView[],
  pc: PlanContext,
): Draft {
  const t = intent.target;
  if (t.kind === "id") {
    return act(
      intent,
      schedules.find((s) => s.id === t.id) ?? { ...EMPTY, id: t.id },
      pc,
    );
  }
  const words = t.kind === "words" ? t.words : [];
  const own = schedules.filter((s) => s.snoozeOf === undefined);
  const pool = intent.kind === "rename" ? own : own.filter((s) => s.repeat);
  let found = matching(pool, words);
  if (found.length === 0 && intent.kind !== "rename" && matching(own, words).length > 0) {
    return text(notSeriesText(intent.kind, pc.reply.zh));
  }
  // "resume it" means the paused one, "pause it" one that runs.
  const state = found.filter((s) => intent.kind === "resume" ? s.paused : !s.paused);
  if (found.length > 1 && state.length === 1 && intent.kind !== "rename") found = state;
  if (found.length === 1) return act(intent, found[0]!, pc);
  const action = intent.kind === "rename" ? "update" : intent.kind;
  return text(askWhichText(found.length > 1 ? found : pool, words, pc.reply, action));
} // deno-fmt-ignore
