/**
 * The reminders panel's model (the `reminders` panel of `@chime/ui/schedule`): the host's durable
 * fold of the open session (`GET /api/sessions/:id/reminders`, never the loaded window, so
 * reminders created long ago are listed too), refreshed on open, on reconnect, whenever a
 * `schedule/change` event becomes durable and after each click; the card and row actions
 * (snooze by a delay or until a local time, stop repeating, pause, resume, skip next, edit;
 * docs/recurring.md "Host and page") with their outcomes, each reminder's history as fetched (a card's
 * "Snoozed until …" and "Stopped repeating" read from the window's committed events, so they
 * survive a reload); and the {@linkcode ScheduleServices} it lends the schedule renderer. Signals only: `deno test` drives it
 * without a DOM.
 *
 * @module
 */
import { computed, createModel, effect, signal } from "@preact/signals";
import { cardFacts, cardState } from "./_outcomes.ts";
import { codeOf, listServices, sessionActions } from "./_session_actions.ts";
import type { PanelHost, PanelModel } from "../client_renderer.ts";
import type { LocalParts } from "./_local_time.ts";
import {
  type HistoryState,
  promptsById,
  type ReminderOutcome,
  SCHEDULE_SERVICES,
  type ScheduleServices,
} from "./view.ts";
import type { Readable } from "../window_types.ts";
import type {
  ActiveReminderWire,
  DamagedChangeWire,
  ReminderHistoryEntryWire,
  RemindersPage,
  ReminderUpdateBody,
  WireEvent,
} from "../wire.ts";

/**
 * The highest `seq` of a `schedule/change` event the host reported durable, or `-1`. The panel
 * refetches its reminders whenever this moves (a create, delete or dispatch was committed).
 *
 * @param events the window's events, ascending by seq
 * @param durableBefore the window's exclusive `flushed` bound
 * @returns the mark
 * @example
 * ```ts
 * import { durableScheduleMark } from "@chime/ui/schedule";
 * const at = "2030-01-01T00:00:00.000Z";
 * const events = [{ seq: 0, type: "schedule/change", at, data: {} }];
 * console.assert(durableScheduleMark(events, 0) === -1 && durableScheduleMark(events, 1) === 0);
 * ```
 */
export function durableScheduleMark(events: readonly WireEvent[], durableBefore: number): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.seq < durableBefore && e.type === "schedule/change") return e.seq;
  }
  return -1;
}

/** The reminders panel's state and actions. */
export interface ReminderPanel extends PanelModel {
  /** The host's active reminders of the open session, soonest first. */
  readonly reminders: Readable<readonly ActiveReminderWire[]>;
  /**
   * The open session's quarantined schedule changes (docs/recurring.md "Damaged changes"), in
   * log order: each reminder they name is held and never fires.
   */
  readonly damaged: Readable<readonly DamagedChangeWire[]>;
  /** What each snooze or stop click led to, by the key of its card or row. */
  readonly outcomes: Readable<ReadonlyMap<string, ReminderOutcome>>;
  /**
   * Fetches the reminders of a session (a late answer for another session is dropped).
   *
   * @param id the session id
   */
  refresh(id: string): Promise<void>;
  /**
   * Snoozes a reminder (`POST …/reminders/:scheduleId/snooze`).
   *
   * @param scheduleId the reminder
   * @param seconds 60 … 604800
   * @param key the card or row that shows the outcome
   */
  snooze(scheduleId: string, seconds: number, key: string): Promise<void>;
  /**
   * Stops a recurring reminder (`POST …/reminders/:scheduleId/stop`).
   *
   * @param scheduleId the reminder
   * @param key the card or row that shows the outcome
   */
  stopRepeating(scheduleId: string, key: string): Promise<void>;
  /** Each reminder's history as last fetched, by id. */
  readonly histories: Readable<ReadonlyMap<string, HistoryState>>;
  /**
   * Snoozes a reminder until a local date and time (`POST …/snooze { until }`).
   *
   * @param scheduleId the reminder
   * @param until the date and time in the session's zone
   * @param key the card or row that shows the outcome
   */
  snoozeUntil(scheduleId: string, until: LocalParts, key: string): Promise<void>;
  /**
   * Pauses, resumes or skips the next occurrence of a series (`POST …/pause`, `…/resume`,
   * `…/skip`).
   *
   * @param scheduleId the series
   * @param action which
   * @param key the card or row that shows the outcome
   */
  series(scheduleId: string, action: "pause" | "resume" | "skip", key: string): Promise<void>;
  /**
   * Changes a reminder's text, time or rule (`POST …/update`).
   *
   * @param scheduleId the reminder
   * @param body only what changes
   * @param key the card or row that shows the outcome
   * @returns whether the host accepted it
   */
  update(scheduleId: string, body: ReminderUpdateBody, key: string): Promise<boolean>;
  /**
   * Fetches a reminder's history (`GET …/history`).
   *
   * @param scheduleId the reminder
   */
  loadHistory(scheduleId: string): Promise<void>;
  /** The last calendar import's outcome, until the session changes. */
  readonly imported: Readable<ImportOutcome | undefined>;
  /**
   * Imports pasted iCalendar text (`POST …/reminders/import { ics }`, docs/upcoming.md "Import
   * from a calendar").
   *
   * @param ics the pasted text
   * @returns whether the host accepted it
   */
  importCalendar(ics: string): Promise<boolean>;
}

/**
 * What a calendar import came to: running; done with the number of reminders made and of past
 * events left out; or refused with the host's code and the 0-based event index it named.
 */
export type ImportOutcome =
  | { readonly state: "busy" }
  | { readonly state: "done"; readonly created: number; readonly past: number }
  | {
    readonly state: "failed";
    readonly code: string;
    readonly index?: number;
    readonly property?: string;
  };

/** The reminders panel model: `new ReminderPanelModel(host)`; dispose it with the page. */
export const ReminderPanelModel: new (host: PanelHost) => ReminderPanel = createModel((
  host: PanelHost,
) => {
  const reminders = signal<readonly ActiveReminderWire[]>([]);
  const damaged = signal<readonly DamagedChangeWire[]>([]);
  const histories = signal<ReadonlyMap<string, HistoryState>>(new Map());
  let asked = 0;

  const refresh = async (id: string): Promise<void> => {
    const mine = ++asked;
    try {
      const page = await host.request<RemindersPage>(id, "/reminders");
      if (mine === asked && host.current.peek() === id) {
        reminders.value = page.reminders;
        damaged.value = page.damaged ?? [];
      }
    } catch (err) {
      if (mine === asked && host.current.peek() === id) host.fail(err);
    }
  };
  const actions = sessionActions({
    request: host.request,
    since: () => host.win.peek()?.durableBefore.peek() ?? 0,
    after: (id, scheduleId) => {
      void refresh(id);
      // A history already shown follows the change.
      if (histories.peek().has(scheduleId)) void loadHistory(scheduleId);
    },
  });
  const outcomes = computed(() => actions.outcomes.value);
  /** The open session's id, or nothing to act on. */
  const inCurrent = <A extends unknown[], R>(
    run: (id: string, ...args: A) => Promise<R>,
    none: R,
  ) =>
  (...args: A): Promise<R> => {
    const id = host.current.peek();
    return id ? run(id, ...args) : Promise.resolve(none);
  };
  const snooze = inCurrent(actions.snooze, undefined);
  const snoozeUntil = inCurrent(actions.snoozeUntil, undefined);
  const stopRepeating = inCurrent(actions.stopRepeating, undefined);
  const series = inCurrent(actions.series, undefined);
  const update = inCurrent(actions.update, false);

  /** Fetches a reminder's history (a late answer for another session is dropped). */
  const loadHistory = async (scheduleId: string): Promise<void> => {
    const id = host.current.peek();
    if (!id) return;
    const set = (h: HistoryState) => {
      if (host.current.peek() === id) {
        histories.value = new Map(histories.peek()).set(scheduleId, h);
      }
    };
    const before = histories.peek().get(scheduleId);
    // A refetch keeps the entries shown until the answer comes.
    if (before?.state !== "loaded") set({ state: "loading" });
    try {
      const r = await host.request<{ history: readonly ReminderHistoryEntryWire[] }>(
        id,
        `/reminders/${encodeURIComponent(scheduleId)}/history`,
      );
      set({ state: "loaded", entries: r.history });
    } catch (err) {
      set({ state: "failed", code: codeOf(err) });
    }
  };

  const imported = signal<ImportOutcome | undefined>(undefined);
  const importCalendar = async (ics: string): Promise<boolean> => {
    const id = host.current.peek();
    if (!id) return false;
    imported.value = { state: "busy" };
    const set = (outcome: ImportOutcome) => {
      if (host.current.peek() === id) imported.value = outcome;
    };
    try {
      const r = await host.request<{ created: readonly unknown[]; past: readonly unknown[] }>(
        id,
        "/reminders/import",
        { method: "POST", body: { ics } },
      );
      set({ state: "done", created: r.created.length, past: r.past.length });
      void refresh(id);
      return true;
    } catch (err) {
      const details = (err as { details?: Record<string, unknown> } | null)?.details ?? {};
      const { index, property } = details;
      set({
        state: "failed",
        code: codeOf(err),
        ...(typeof index === "number" ? { index } : {}),
        ...(typeof property === "string" ? { property } : {}),
      });
      return false;
    }
  };

  // A create, delete or dispatch became durable: the host's fold changed.
  const mark = computed(() => {
    const w = host.win.value;
    return w ? durableScheduleMark(w.events.value, w.durableBefore.value) : -1;
  });
  effect(() => {
    const moved = mark.value;
    const id = host.current.peek();
    if (moved >= 0 && id) void refresh(id);
  });

  const prompts = computed(() => promptsById(host.win.value?.events.value ?? []));
  // What the committed log says came of each card: it survives a reload (docs/recurring.md).
  const facts = computed(() => {
    const w = host.win.value;
    return cardFacts(
      w?.events.value ?? [],
      w?.durableBefore.value ?? 0,
      host.seedLength?.value ?? 0,
    );
  });
  const services = computed<Readonly<Record<string, unknown>>>(() => {
    const list = reminders.value;
    const shown = outcomes.value;
    const known = prompts.value;
    const fetched = histories.value;
    const cards = facts.value;
    const id = host.current.value;
    const lent: ScheduleServices = {
      ...listServices(actions, id ?? "", list, shown),
      promptOf: (id) => known.get(id) ?? list.find((r) => r.id === id)?.prompt,
      card: (id, occurrenceAt, seq) => cardState(cards, id, occurrenceAt, seq),
      history: (id) => fetched.get(id),
      loadHistory: (id) => void loadHistory(id),
    };
    return { [SCHEDULE_SERVICES]: lent };
  });

  return {
    reminders,
    damaged,
    outcomes,
    count: computed(() => reminders.value.length),
    services,
    histories,
    refresh,
    snooze,
    snoozeUntil,
    stopRepeating,
    series,
    update,
    loadHistory,
    imported,
    importCalendar,

    /** A session opened or reconnected: fetch its reminders. */
    opened(id: string): void {
      void refresh(id);
    },

    /** The page left the session: its reminders and outcomes go. */
    reset(): void {
      asked++;
      reminders.value = [];
      damaged.value = [];
      actions.clear();
      histories.value = new Map();
      imported.value = undefined;
    },
  };
});
