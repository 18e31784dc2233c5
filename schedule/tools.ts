/**
 * The Agent-scoped management tools `schedule_create`, `schedule_list`, `schedule_delete`,
 * `schedule_update`, `schedule_snooze`, `schedule_pause`, `schedule_resume` and `schedule_skip` (docs/design.md#fifo-preflight-barrier;
 * docs/flows.md#create; docs/architecture.md#tools; docs/recurring.md "Tools").
 *
 * Shape-only failures are answered before the FIFO. Every admitted transaction runs alone in the
 * agent's {@linkcode ScheduleFifo} through one skeleton: a `flush` preflight before any fold
 * read, the decision, an optional append and then a second barrier. A failed barrier answers
 * `persistence_uncertain` instead of guessing whether the eager write committed; each successful
 * preflight (and each confirmed append) asks the live owner to recompute.
 *
 * @module
 */
import type { AgentHandle, ModelToolSpec, ToolContext, ToolDefinition } from "@chime/contract";
import type { Clock } from "@chime/session";
import {
  decideCreate,
  decideDelete,
  decideSnooze,
  decideUpdate,
  type EndAnswer,
} from "./_decide.ts";
import {
  decidePause,
  decideResume,
  decideSkip,
  validateSeriesArgs,
  validateSkipArgs,
} from "./_series.ts";
import {
  CREATE_SPEC,
  DELETE_SPEC,
  LIST_SPEC,
  PAUSE_SPEC,
  RESUME_SPEC,
  SKIP_SPEC,
  SNOOZE_SPEC,
  UPDATE_SPEC,
} from "./_specs.ts";
import { type Decision, transact, type Tx } from "./_tx.ts";
import { turnProvenance } from "./_turn_zones.ts";
import type { ToolFailure } from "./errors.ts";
import type { ScheduleFifo } from "./fifo.ts";
import type { ScheduleState } from "./fold.ts";
import type { RandomBytes } from "./protocol.ts";
import {
  validateCreateArgs,
  type Validated,
  validateDeleteArgs,
  validateListArgs,
  validateSnoozeArgs,
  validateUpdateArgs,
  type ZoneProvenance,
} from "./rules.ts";
import { DELIVERY_MODE, type RecordResult, type ScheduleValue, scheduleValue } from "./value.ts";

/** Options of {@linkcode scheduleTools}. */
export interface ScheduleToolsOptions {
  /** The agent's FIFO, shared with its owner. */
  readonly fifo: ScheduleFifo;
  /**
   * Called after every successful management preflight and every confirmed append, inside the
   * FIFO, so the live owner recomputes its target from the durable fold.
   * @default a no-op
   */
  readonly onConfirmed?: () => void;
  /** Decision clock (`now()` in epoch ms, UTC). @default the agent's clock */
  readonly clock?: Pick<Clock, "now">;
  /** Random bytes for new ids. @default `crypto.getRandomValues` */
  readonly random?: RandomBytes;
}

/** Success value of `schedule_create`, `schedule_update` and `schedule_snooze`. */
export type CreateResult = RecordResult;
/** Success value of `schedule_list`: the active records in create order. */
export interface ListResult {
  /** Always `true`. */
  readonly ok: true;
  /** Active records (a series shows its rule in words and its next occurrence). */
  readonly schedules: readonly ScheduleValue[];
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
}
/** Success value of `schedule_delete`: the record as it was when deleted. */
export type DeleteResult = EndAnswer;

/** The default id randomness. */
export function defaultRandom(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

/**
 * Builds the eight tools for one root agent. Register each in the agent's scope and dispose the
 * handles to revoke them; the plugin does both.
 *
 * @param options the shared FIFO, the owner's recompute hook, clock and id randomness
 * @returns `[schedule_create, schedule_list, schedule_delete, schedule_update, schedule_snooze,
 *   schedule_pause, schedule_resume, schedule_skip]`
 *
 * @example Register the tools on an agent scope
 * ```ts ignore
 * import { ScheduleFifo } from "@chime/schedule";
 * import { scheduleTools } from "@chime/schedule";
 * const tools = scheduleTools({ fifo: new ScheduleFifo() });
 * const handles = tools.map((tool) => scope.registerTool(tool));
 * ```
 */
export function scheduleTools(options: ScheduleToolsOptions): readonly ToolDefinition[] {
  const confirmed = options.onConfirmed ?? (() => {});
  const random = options.random ?? defaultRandom;
  const now = (agent: AgentHandle) => Math.floor((options.clock ?? agent.clock).now());
  /** A tool: shape check before the FIFO, then one transaction deciding over the state. */
  function tool<A, R, P = undefined>(
    spec: ModelToolSpec,
    validate: (args: unknown) => Validated<A>,
    names: { readonly action: string; readonly confirm: string; readonly abortable: boolean },
    decide: (state: ScheduleState, value: A, ctx: ToolContext, facts: P) => Decision<R>,
    // Facts of the request read before the FIFO (the turn's zones: fixed once the turn runs).
    prepare: (ctx: ToolContext) => P | Promise<P> = () => undefined as P,
  ): ToolDefinition {
    return {
      ...spec,
      execute(args: unknown, ctx: ToolContext): Promise<R | ToolFailure> {
        const shape = validate(args);
        if (!shape.ok) return Promise.resolve(shape);
        const tx: Tx = { fifo: options.fifo, agent: ctx.agent, confirmed };
        // A change never lands after its turn ended; a read (list) has nothing to hold back.
        const signal = names.abortable ? { signal: ctx.signal } : {};
        const run = (facts: P) =>
          transact(tx, { ...names, ...signal }, (state) => decide(state, shape.value, ctx, facts));
        const facts = prepare(ctx);
        return facts instanceof Promise ? facts.then(run) : run(facts);
      },
    };
  }
  const zones = (ctx: ToolContext) => turnProvenance(ctx.agent, ctx.turnId);
  const context = (ctx: ToolContext, provenance: ZoneProvenance) => ({
    now: now(ctx.agent),
    ...provenance,
  });
  const change = (action: string, confirm: string) => ({ action, confirm, abortable: true });

  return [
    tool(
      CREATE_SPEC,
      validateCreateArgs,
      change("create schedule", "confirm the new schedule"),
      (state, request, ctx, provenance) =>
        decideCreate(state, request, context(ctx, provenance), random),
      zones,
    ),
    tool(
      LIST_SPEC,
      validateListArgs,
      { action: "list schedules", confirm: "list schedules", abortable: false },
      (state, _, ctx): Decision<ListResult> => {
        const decisionNow = now(ctx.agent);
        const schedules = [...state.active.values()].map((r) => scheduleValue(r, decisionNow));
        return { ok: true, answer: { ok: true, schedules, deliveryMode: DELIVERY_MODE } };
      },
    ),
    tool(
      DELETE_SPEC,
      validateDeleteArgs,
      change("delete schedule", "confirm the deletion"),
      (state, { id }, ctx) => decideDelete(state, id, now(ctx.agent)),
    ),
    tool(
      UPDATE_SPEC,
      validateUpdateArgs,
      change("update schedule", "confirm the update"),
      (state, request, ctx, provenance) => decideUpdate(state, request, context(ctx, provenance)),
      zones,
    ),
    tool(
      SNOOZE_SPEC,
      validateSnoozeArgs,
      change("snooze schedule", "confirm the snooze"),
      (state, request, ctx) => decideSnooze(state, request, now(ctx.agent), random),
    ),
    tool(
      PAUSE_SPEC,
      validateSeriesArgs("pause schedule"),
      change("pause schedule", "confirm the pause"),
      (state, { id }, ctx) => decidePause(state, id, now(ctx.agent)),
    ),
    tool(
      RESUME_SPEC,
      validateSeriesArgs("resume schedule"),
      change("resume schedule", "confirm the resume"),
      (state, { id }, ctx) => decideResume(state, id, now(ctx.agent)),
    ),
    tool(
      SKIP_SPEC,
      validateSkipArgs,
      change("skip occurrence", "confirm the skip"),
      (state, request, ctx) => decideSkip(state, request, now(ctx.agent)),
    ),
  ];
}
