/**
 * Page actions on reminders (docs/recurring.md "Host and page"): snooze and "stop repeating"
 * from the reminder card, with no model call. They run the same transaction as the tools (the
 * agent's FIFO, preflight, second barrier, `persistence_uncertain`) and are recorded in the log;
 * the model hears of them at its next turn through a `[schedule-activity]` note (see
 * {@linkcode scheduleActivityNote}).
 *
 * @module
 */
import type { AgentHandle } from "@chime/contract";
import type { Clock } from "@chime/session";
import { decideSnooze, decideStop, decideUpdate } from "./_decide.ts";
import { decideImport, type ImportResult } from "./_import.ts";
import { type PageFailure, pageZone, untilInstant, zonedEdit } from "./_page.ts";
import { decidePause, decideResume, decideSkip, type SkipResult } from "./_series.ts";
import { type Decision, transact, type Tx } from "./_tx.ts";
import type { LocalDateTime } from "./calendar.ts";
import { toolError, type ToolFailure } from "./errors.ts";
import type { ScheduleFifo } from "./fifo.ts";
import type { ScheduleState } from "./fold.ts";
import type { ImportedEvent, ImportFailure } from "./ics_import.ts";
import { MAX_SNOOZE_SECONDS, MIN_SNOOZE_SECONDS } from "./_args.ts";
import { isScheduleId, type RandomBytes, type ScheduleId } from "./protocol.ts";
import type { CreateContext, UpdateRequest } from "./rules.ts";
import { parseStrictInstant } from "./rfc3339.ts";
import type { RecordResult, ScheduleValue } from "./value.ts";

export { checkEditBody, checkUntil, type PageFailure } from "./_page.ts";
export type { SkipResult } from "./_series.ts";
export type { ImportResult } from "./_import.ts";

export { scheduleActivityNote } from "./_activity.ts";

/** Options of {@linkcode ScheduleActions}. */
export interface ScheduleActionsOptions {
  /** The agent's FIFO, shared with its tools and owner. */
  readonly fifo: ScheduleFifo;
  /** Called after every successful preflight and confirmed append. @default a no-op */
  readonly onConfirmed?: () => void;
  /** Decision clock. @default the agent's clock */
  readonly clock?: Pick<Clock, "now">;
  /** Random bytes for new ids. */
  readonly random: RandomBytes;
}

/** Answer of {@linkcode ScheduleActions.stop}. */
export interface StopResult {
  /** Always `true`. */
  readonly ok: true;
  /** The series as it was when stopped. */
  readonly stopped: ScheduleValue;
}

function badId(action: string): Promise<ToolFailure> {
  return Promise.resolve(toolError("invalid_arguments", `Cannot ${action}: bad id`));
}

/** The snooze, stop, pause, resume, skip and edit actions of one root agent's reminders. */
export class ScheduleActions {
  readonly #tx: Tx;
  readonly #now: () => number;
  readonly #random: RandomBytes;

  /**
   * Binds the actions to an agent.
   *
   * @param agent the live root agent
   * @param options its FIFO, the owner's recompute hook, clock and id randomness
   */
  constructor(agent: AgentHandle, options: ScheduleActionsOptions) {
    this.#tx = { fifo: options.fifo, agent, confirmed: options.onConfirmed ?? (() => {}) };
    this.#now = () => Math.floor((options.clock ?? agent.clock).now());
    this.#random = options.random;
  }

  /**
   * Snoozes a reminder for `seconds` (60..604800): the latest delivered occurrence gets a new
   * one-shot `at` record with `snoozeOf` (a series' cadence never shifts), or, when that
   * occurrence already has an active snooze record (Snooze 10 min, then Snooze 1 h), that record
   * is moved (an `update`); an active one-shot that has not fired is moved too, never earlier: it
   * lands at `max(current target, now) + seconds` (docs/recurring.md "Tools").
   *
   * @param id the reminder id
   * @param seconds the delay, whole seconds: from now for a snooze record (new or moved), from the
   *   later of the current target and now for a one-shot that has not fired
   * @returns the new (or moved) record's value, or a failure `invalid_arguments`,
   *   `schedule_not_found`, `schedule_not_active` or `persistence_uncertain`
   */
  snooze(id: string, seconds: number): Promise<RecordResult | ToolFailure> {
    const refused = checkSnoozeSeconds(seconds);
    if (refused !== undefined) return Promise.resolve(refused);
    if (!isScheduleId(id)) {
      return Promise.resolve(toolError("invalid_arguments", "Cannot snooze schedule: bad id"));
    }
    const names = { action: "snooze schedule", confirm: "confirm the snooze" };
    return transact(
      this.#tx,
      names,
      (state) => decideSnooze(state, { id, afterSeconds: seconds }, this.#now(), this.#random),
    );
  }

  /**
   * "Stop repeating": ends an active recurring record with a `stop` change.
   *
   * @param id the reminder id
   * @returns the stopped series' value, or a failure `invalid_arguments`, `schedule_not_found`,
   *   `schedule_not_active` (ended, or not recurring) or `persistence_uncertain`
   */
  stop(id: string): Promise<StopResult | ToolFailure> {
    if (!isScheduleId(id)) {
      return Promise.resolve(toolError("invalid_arguments", "Cannot stop schedule: bad id"));
    }
    const names = { action: "stop schedule", confirm: "confirm the stop" };
    return transact(this.#tx, names, (state) => decideStop(state, id, this.#now()));
  }

  /**
   * Snoozes a reminder until a chosen local time (the page's "tomorrow morning" and "a chosen
   * time"), read in the reminder's own zone (a series' `timeZone`) or else the session's; it
   * must be in the future and at most 7 days ahead (`invalid_arguments` naming `until`).
   *
   * @param id the reminder id
   * @param until the local date and time, already shape-checked (`checkUntil`)
   * @returns as {@linkcode ScheduleActions.snooze}, or also `not_in_future`,
   *   `nonexistent_local_time`, `timezone_confirmation_required`
   */
  snoozeUntil(id: string, until: LocalDateTime): Promise<RecordResult | PageFailure> {
    if (!isScheduleId(id)) return badId("snooze schedule");
    const names = { action: "snooze schedule", confirm: "confirm the snooze" };
    return transact(this.#tx, names, (state): Decision<RecordResult> => {
      const now = this.#now();
      const zone = pageZone(state, id, this.#sessionZone());
      if (typeof zone !== "string") return zone;
      const untilMs = untilInstant(until, zone);
      if (typeof untilMs !== "number") return untilMs;
      if (untilMs > now + MAX_SNOOZE_SECONDS * 1000) {
        return {
          ...toolError(
            "invalid_arguments",
            "Cannot snooze schedule: until is more than 7 days ahead",
          ),
          field: "until",
        } as PageFailure;
      }
      return decideSnooze(state, { id, untilMs }, now, this.#random);
    });
  }

  /**
   * Pauses a series (`pause`): it never fires until resumed.
   *
   * @param id the series id
   * @returns the paused series' value, or `invalid_arguments`, `schedule_not_found`,
   *   `schedule_not_active` (a one-shot, ended or already paused), `persistence_uncertain`
   */
  pause(id: string): Promise<RecordResult | ToolFailure> {
    return this.#series(id, "pause", decidePause);
  }

  /**
   * Resumes a paused series (`resume`) at its first occurrence after now: no catch-up burst.
   *
   * @param id the series id
   * @returns the series' value, or `invalid_arguments`, `schedule_not_found`,
   *   `schedule_not_active` (not paused, or no occurrence left), `persistence_uncertain`
   */
  resume(id: string): Promise<RecordResult | ToolFailure> {
    return this.#series(id, "resume", decideResume);
  }

  /**
   * Skips one occurrence of a series (`exclude`): the next one, or `occurrenceAt`.
   *
   * @param id the series id
   * @param occurrenceAt an RFC 3339 instant of a coming occurrence (shape-checked by the route)
   * @returns the series after the exclusion with `skipped` (and `ended` when it was the last),
   *   or `invalid_arguments`, `not_an_occurrence`, `schedule_not_found`, `schedule_not_active`,
   *   `persistence_uncertain`
   */
  skip(id: string, occurrenceAt?: string): Promise<SkipResult | ToolFailure> {
    if (!isScheduleId(id)) return badId("skip occurrence");
    const at = occurrenceAt === undefined ? {} : { occurrenceAt: parseStrictInstant(occurrenceAt) };
    const names = { action: "skip occurrence", confirm: "confirm the skip" };
    return transact(this.#tx, names, (state) => decideSkip(state, { id, ...at }, this.#now()));
  }

  /**
   * The page's edit control: the same `update` transaction as `schedule_update` (same id). A
   * local `at` or a `repeat` resolves in the reminder's own zone (a series' `timeZone`) or
   * else the session's; a series stays paused.
   *
   * @param request the checked edit (`checkEditBody`), its selector without a zone
   * @returns the updated value, or the failures of `schedule_update`
   */
  update(request: UpdateRequest): Promise<RecordResult | ToolFailure> {
    const names = { action: "update schedule", confirm: "confirm the update" };
    return transact(this.#tx, names, (state) => {
      const context = this.#pageContext();
      // An unknown or ended id is answered as such, whatever the zone.
      const { selector } = request;
      if (selector === undefined || !state.active.has(request.id)) {
        return decideUpdate(state, request, context);
      }
      const zone = pageZone(state, request.id, this.#sessionZone());
      if (typeof zone !== "string") return zone;
      return decideUpdate(state, zonedEdit({ ...request, selector }, zone), context);
    });
  }

  /**
   * Import from a calendar (docs/upcoming.md "Import from a calendar"): one transaction that
   * creates a reminder per event with a coming occurrence, each decided as `schedule_create`
   * (a floating time in the session's zone). An event already past is listed in `past`; any
   * other refusal writes nothing.
   *
   * @param events the checked events (`icsCreateRequests`, `./ics_import.ts`)
   * @returns the created reminders and the past events, or the refusal with the event's `index`
   *   (`timezone_confirmation_required` for a floating time in a session with no zone, the
   *   create codes) or `persistence_uncertain`
   */
  importEvents(events: readonly ImportedEvent[]): Promise<ImportResult | ImportFailure> {
    const names = { action: "import calendar", confirm: "confirm the import" };
    return transact(this.#tx, names, (state) => {
      const context = this.#pageContext();
      return decideImport(state, events, context, this.#sessionZone(), this.#random);
    });
  }

  /** A page decision's context: now, and no client zones (the page sends none). */
  #pageContext(): CreateContext {
    return { now: this.#now(), clientTimeZones: "missing", hasTimeContextMarker: false };
  }

  #sessionZone(): string | undefined {
    return this.#tx.agent.session.header.timeZone;
  }

  #series(
    id: string,
    op: "pause" | "resume",
    decide: (state: ScheduleState, id: ScheduleId, now: number) => Decision<RecordResult>,
  ): Promise<RecordResult | ToolFailure> {
    if (!isScheduleId(id)) return badId(`${op} schedule`);
    const names = { action: `${op} schedule`, confirm: `confirm the ${op}` };
    return transact(this.#tx, names, (state) => decide(state, id, this.#now()));
  }
}

/**
 * The page snooze's delay check, naming the page's argument `seconds` (the tool's is
 * `after_seconds`, checked by its own schema).
 *
 * @param seconds the requested delay (any JSON value)
 * @returns `invalid_arguments` unless `seconds` is an integer in 60..604800, else `undefined`
 */
export function checkSnoozeSeconds(seconds: unknown): ToolFailure | undefined {
  if (
    typeof seconds === "number" && Number.isSafeInteger(seconds) &&
    seconds >= MIN_SNOOZE_SECONDS && seconds <= MAX_SNOOZE_SECONDS
  ) return undefined;
  return toolError(
    "invalid_arguments",
    `Cannot snooze schedule: seconds must be an integer in ${MIN_SNOOZE_SECONDS}..${MAX_SNOOZE_SECONDS}`,
  );
}

const bound = new WeakMap<object, ScheduleActions>();

/**
 * The actions the schedule plugin installed for a live root agent.
 *
 * @param agent the agent (the host's agent object)
 * @returns the actions, or `undefined` when the schedule plugin is not active for it
 *
 * @example
 * ```ts ignore
 * const actions = scheduleActions(agent);
 * const result = await actions?.snooze("sch_AbCd1234", 600);
 * ```
 */
export function scheduleActions(agent: object): ScheduleActions | undefined {
  return bound.get(agent);
}

/**
 * Publishes actions for an agent until the returned handle is disposed (the plugin does this).
 *
 * @param agent the agent
 * @param actions its actions
 * @returns a handle that unpublishes them
 */
export function bindScheduleActions(agent: object, actions: ScheduleActions): Disposable {
  bound.set(agent, actions);
  return {
    [Symbol.dispose]() {
      if (bound.get(agent) === actions) bound.delete(agent);
    },
  };
}
