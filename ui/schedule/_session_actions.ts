/**
 * The reminder actions of one session, through that session's own routes
 * (`POST /api/sessions/:id/reminders/:scheduleId/{snooze,stop,pause,resume,skip,update}`,
 * docs/recurring.md "Host and page"), and the outcome of each click by the key of the card or row
 * that shows it. The reminders panel (the open session) and the Upcoming view (any listed
 * session) both act through it: one piece of action code.
 *
 * @module
 */
import { signal } from "@preact/signals";
import type { Readable } from "../window_types.ts";
import type { PanelHost } from "../client_renderer.ts";
import type { LocalParts } from "./_local_time.ts";
import type { ReminderOutcome, ScheduleServices } from "./_services.ts";
import type { ReminderAction } from "./_strings.ts";
import type { ActiveReminderWire, ReminderUpdateBody } from "../wire.ts";

/** The host's error code of a failed request (`failed` when it has none). */
export function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "failed";
}

/** What {@linkcode sessionActions} needs. */
export interface SessionActionsHost {
  /** Calls the host below one session (`PanelHost.request`). */
  readonly request: PanelHost["request"];
  /**
   * The durable bound of the session's window when a click is made (a later durable outcome
   * wins over the click's answer); absent: none.
   */
  since?(sessionId: string): number | undefined;
  /**
   * Runs after each action, done or refused (refresh the list, a shown history).
   *
   * @param sessionId the session acted on
   * @param scheduleId the reminder
   */
  after(sessionId: string, scheduleId: string): void;
}

/** The actions of {@linkcode sessionActions}; each names its session. */
export interface SessionActions {
  /** What each click led to, by the key of its card or row. */
  readonly outcomes: Readable<ReadonlyMap<string, ReminderOutcome>>;
  /** Snoozes a reminder by `seconds` (60 … 604800). */
  snooze(sessionId: string, scheduleId: string, seconds: number, key: string): Promise<void>;
  /** Snoozes a reminder until a local date and time in the session's zone. */
  snoozeUntil(sessionId: string, scheduleId: string, until: LocalParts, key: string): Promise<void>;
  /** Stops a recurring reminder. */
  stopRepeating(sessionId: string, scheduleId: string, key: string): Promise<void>;
  /** Pauses, resumes or skips the next occurrence of a series. */
  series(
    sessionId: string,
    scheduleId: string,
    action: "pause" | "resume" | "skip",
    key: string,
  ): Promise<void>;
  /**
   * Changes a reminder's text, time or rule.
   *
   * @returns whether the host accepted it
   */
  update(
    sessionId: string,
    scheduleId: string,
    body: ReminderUpdateBody,
    key: string,
  ): Promise<boolean>;
  /** Forgets every outcome. */
  clear(): void;
}

const DONE = { pause: "paused", resume: "resumed", skip: "skipped" } as const;

/**
 * The reminder actions, through each session's own routes.
 *
 * @param host the request function and what runs after an action
 * @returns the actions and their outcomes
 */
export function sessionActions(host: SessionActionsHost): SessionActions {
  const outcomes = signal<ReadonlyMap<string, ReminderOutcome>>(new Map());
  const setOutcome = (key: string, outcome: ReminderOutcome): void => {
    outcomes.value = new Map(outcomes.peek()).set(key, outcome);
  };
  /** Runs an action; `key` shows its outcome (`since`: the durable bound at the click). */
  const act = async (
    id: string,
    scheduleId: string,
    key: string,
    action: ReminderAction,
    run: () => Promise<ReminderOutcome>,
  ): Promise<boolean> => {
    const since = host.since?.(id);
    setOutcome(key, { state: "pending" });
    let ok = false;
    try {
      setOutcome(key, { ...await run(), ...(since === undefined ? {} : { since }) });
      ok = true;
    } catch (err) {
      setOutcome(key, { state: "failed", code: codeOf(err), action });
    }
    host.after(id, scheduleId);
    return ok;
  };
  const path = (scheduleId: string, action: string) =>
    `/reminders/${encodeURIComponent(scheduleId)}/${action}`;
  const post = (id: string, scheduleId: string, action: string, body?: unknown) =>
    host.request<{ reminder: ActiveReminderWire }>(id, path(scheduleId, action), {
      method: "POST",
      ...(body === undefined ? {} : { body }),
    });
  const snoozeWith = (id: string, scheduleId: string, key: string, body: unknown) =>
    act(id, scheduleId, key, "snooze", async () => {
      const r = await post(id, scheduleId, "snooze", body);
      return { state: "snoozed", until: r.reminder.scheduledAt };
    });
  return {
    outcomes,
    snooze: async (id, scheduleId, seconds, key) =>
      void await snoozeWith(id, scheduleId, key, { seconds }),
    snoozeUntil: async (id, scheduleId, until, key) =>
      void await snoozeWith(id, scheduleId, key, { until }),
    stopRepeating: async (id, scheduleId, key) =>
      void await act(id, scheduleId, key, "stop", async () => {
        await host.request(id, path(scheduleId, "stop"), { method: "POST" });
        return { state: "stopped" };
      }),
    series: async (id, scheduleId, action, key) =>
      void await act(id, scheduleId, key, action, async () => {
        await post(id, scheduleId, action, action === "skip" ? {} : undefined);
        return { state: DONE[action] };
      }),
    update: (id, scheduleId, body, key) =>
      act(id, scheduleId, key, "edit", async () => {
        await post(id, scheduleId, "update", body);
        return { state: "changed" };
      }),
    clear() {
      outcomes.value = new Map();
    },
  };
}

/**
 * The part of {@linkcode ScheduleServices} that acts on one session's listed reminders: what the
 * host's list says of them (active series, prompts, rows) and the actions, bound to that session.
 *
 * @param actions the actions
 * @param sessionId the session they act on
 * @param list the session's active reminders as the host listed them
 * @param outcomes the outcomes as last read (`actions.outcomes.value`)
 * @returns the services (without a card's durable state or histories)
 */
export function listServices(
  actions: SessionActions,
  sessionId: string,
  list: readonly ActiveReminderWire[],
  outcomes: ReadonlyMap<string, ReminderOutcome>,
): ScheduleServices {
  return {
    activeRecurring: new Set(list.filter((r) => r.kind === "recurring").map((r) => r.id)),
    promptOf: (id) => list.find((r) => r.id === id)?.prompt,
    outcome: (key) => outcomes.get(key),
    snooze: (id, seconds, key) => void actions.snooze(sessionId, id, seconds, key),
    stop: (id, key) => void actions.stopRepeating(sessionId, id, key),
    reminder: (id) => list.find((r) => r.id === id),
    now: () => new Date(),
    snoozeUntil: (id, until, key) => void actions.snoozeUntil(sessionId, id, until, key),
    pause: (id, key) => void actions.series(sessionId, id, "pause", key),
    resume: (id, key) => void actions.series(sessionId, id, "resume", key),
    skip: (id, key) => void actions.series(sessionId, id, "skip", key),
    update: (id, body, key) => actions.update(sessionId, id, body, key),
  };
}
