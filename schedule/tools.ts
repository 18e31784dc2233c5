/**
 * The Agent-scoped management tools `schedule_create`, `schedule_list`, `schedule_delete`,
 * `schedule_update` and `schedule_snooze` (seed §"Session 日志权威与工具"; ARCHITECTURE.md §5
 * flow 1 and §6 "Tools"; docs/recurring.md "Tools").
 *
 * Shape-only failures are answered before the FIFO. Every admitted transaction runs alone in the
 * agent's {@linkcode ScheduleFifo} through one skeleton: a `flush` preflight before any fold
 * read, the decision, an optional append and then a second barrier. A failed barrier answers
 * `persistence_uncertain` instead of guessing whether the eager write committed; each successful
 * preflight (and each confirmed append) asks the live owner to recompute.
 *
 * @module
 */
import type { AgentHandle, ToolContext, ToolDefinition } from "@chime/agent";
import type { Clock } from "@chime/session";
import {
  decideCreate,
  decideDelete,
  decideSnooze,
  decideUpdate,
  type EndAnswer,
} from "./_decide.ts";
import { CREATE_SPEC, DELETE_SPEC, LIST_SPEC, SNOOZE_SPEC, UPDATE_SPEC } from "./_specs.ts";
import { transact, type Tx } from "./_tx.ts";
import { turnProvenance } from "./_turn_zones.ts";
import type { ToolFailure } from "./errors.ts";
import type { ScheduleFifo } from "./fifo.ts";
import type { RandomBytes } from "./protocol.ts";
import {
  validateCreateArgs,
  validateDeleteArgs,
  validateListArgs,
  validateSnoozeArgs,
  validateUpdateArgs,
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
 * Builds the five tools for one root agent. Register each in the agent's scope and dispose the
 * handles to revoke them; the plugin does both.
 *
 * @param options the shared FIFO, the owner's recompute hook, clock and id randomness
 * @returns `[schedule_create, schedule_list, schedule_delete, schedule_update, schedule_snooze]`
 *
 * @example Register the tools on an agent scope
 * ```ts ignore
 * import { ScheduleFifo } from "./fifo.ts";
 * import { scheduleTools } from "./tools.ts";
 * const tools = scheduleTools({ fifo: new ScheduleFifo() });
 * const handles = tools.map((tool) => scope.registerTool(tool));
 * ```
 */
export function scheduleTools(options: ScheduleToolsOptions): readonly ToolDefinition[] {
  const confirmed = options.onConfirmed ?? (() => {});
  const random = options.random ?? defaultRandom;
  const now = (agent: AgentHandle) => Math.floor((options.clock ?? agent.clock).now());
  const tx = (ctx: ToolContext): Tx => ({ fifo: options.fifo, agent: ctx.agent, confirmed });
  const context = (ctx: ToolContext) => ({
    now: now(ctx.agent),
    ...turnProvenance(ctx.agent.session, ctx.turnId),
  });

  const create: ToolDefinition = {
    ...CREATE_SPEC,
    execute(args: unknown, ctx: ToolContext): Promise<CreateResult | ToolFailure> {
      const shape = validateCreateArgs(args);
      if (!shape.ok) return Promise.resolve(shape);
      const names = {
        action: "create schedule",
        confirm: "confirm the new schedule",
        signal: ctx.signal,
      };
      return transact(
        tx(ctx),
        names,
        (state) => decideCreate(state, shape.value, context(ctx), random),
      );
    },
  };

  const list: ToolDefinition = {
    ...LIST_SPEC,
    execute(args: unknown, ctx: ToolContext): Promise<ListResult | ToolFailure> {
      const shape = validateListArgs(args);
      if (!shape.ok) return Promise.resolve(shape);
      const names = { action: "list schedules", confirm: "list schedules" };
      return transact(tx(ctx), names, (state) => {
        const decisionNow = now(ctx.agent);
        const schedules = [...state.active.values()].map((r) => scheduleValue(r, decisionNow));
        return { ok: true, answer: { ok: true, schedules, deliveryMode: DELIVERY_MODE } };
      });
    },
  };

  const remove: ToolDefinition = {
    ...DELETE_SPEC,
    execute(args: unknown, ctx: ToolContext): Promise<DeleteResult | ToolFailure> {
      const shape = validateDeleteArgs(args);
      if (!shape.ok) return Promise.resolve(shape);
      const names = {
        action: "delete schedule",
        confirm: "confirm the deletion",
        signal: ctx.signal,
      };
      return transact(
        tx(ctx),
        names,
        (state) => decideDelete(state, shape.value.id, now(ctx.agent)),
      );
    },
  };

  const update: ToolDefinition = {
    ...UPDATE_SPEC,
    execute(args: unknown, ctx: ToolContext): Promise<CreateResult | ToolFailure> {
      const shape = validateUpdateArgs(args);
      if (!shape.ok) return Promise.resolve(shape);
      const names = {
        action: "update schedule",
        confirm: "confirm the update",
        signal: ctx.signal,
      };
      return transact(tx(ctx), names, (state) => decideUpdate(state, shape.value, context(ctx)));
    },
  };

  const snooze: ToolDefinition = {
    ...SNOOZE_SPEC,
    execute(args: unknown, ctx: ToolContext): Promise<CreateResult | ToolFailure> {
      const shape = validateSnoozeArgs(args);
      if (!shape.ok) return Promise.resolve(shape);
      const names = {
        action: "snooze schedule",
        confirm: "confirm the snooze",
        signal: ctx.signal,
      };
      return transact(
        tx(ctx),
        names,
        (state) => decideSnooze(state, shape.value, now(ctx.agent), random),
      );
    },
  };

  return [create, list, remove, update, snooze];
}
