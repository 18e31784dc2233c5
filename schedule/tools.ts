/**
 * The three Agent-scoped management tools `schedule_create`, `schedule_list` and
 * `schedule_delete` (seed §"Session 日志权威与工具"; ARCHITECTURE.md §5 flow 1 and §6 "Tools").
 *
 * Shape-only failures are answered before the FIFO. Every admitted transaction runs alone in the
 * agent's {@linkcode ScheduleFifo}: a `flush` preflight before any fold read, the decision, an
 * optional append and then a second barrier. A failed barrier answers `persistence_uncertain`
 * instead of guessing whether the eager write committed; each successful preflight (and each
 * confirmed append) asks the live owner to recompute.
 *
 * @module
 */
import type { AgentHandle, ToolContext, ToolDefinition } from "@chime/agent";
import type { Clock } from "@chime/session";
import { CREATE_SPEC, DELETE_SPEC, LIST_SPEC } from "./_specs.ts";
import { barrier, foldLive } from "./_tx.ts";
import { turnProvenance } from "./_turn_zones.ts";
import { createChange, deleteChange } from "./decoder.ts";
import { toolError, type ToolFailure } from "./errors.ts";
import type { ScheduleFifo } from "./fifo.ts";
import { makeScheduleId, type RandomBytes, SCHEDULE_CHANGE } from "./protocol.ts";
import {
  DELIVERY_MODE,
  resolveCreate,
  type ScheduleValue,
  scheduleValue,
  toScheduleRecord,
  validateCreateArgs,
  validateDeleteArgs,
  validateListArgs,
} from "./rules.ts";

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

/** Success value of `schedule_create`: the new record's tool value. */
export type CreateResult = { readonly ok: true } & ScheduleValue;
/** Success value of `schedule_list`: the active records in create order. */
export interface ListResult {
  /** Always `true`. */
  readonly ok: true;
  /** Active records. */
  readonly schedules: readonly ScheduleValue[];
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
}
/** Success value of `schedule_delete`: the record as it was when deleted. */
export interface DeleteResult {
  /** Always `true`. */
  readonly ok: true;
  /** The deleted record's last tool value. */
  readonly deleted: ScheduleValue;
  /** Always `session-local`. */
  readonly deliveryMode: typeof DELIVERY_MODE;
}

function uncertain(action: string, cause: unknown): ToolFailure {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return toolError(
    "persistence_uncertain",
    `Cannot ${action}: the session log could not be confirmed durable (${reason}); ` +
      "list the schedules before retrying",
  );
}

function defaultRandom(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

/**
 * Builds the three tools for one root agent. Register each in the agent's scope and dispose the
 * handles to revoke them; the plugin does both.
 *
 * @param options the shared FIFO, the owner's recompute hook, clock and id randomness
 * @returns `[schedule_create, schedule_list, schedule_delete]`
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
  const { fifo } = options;
  const confirmed = options.onConfirmed ?? (() => {});
  const random = options.random ?? defaultRandom;
  const now = (agent: AgentHandle) => Math.floor((options.clock ?? agent.clock).now());

  const create: ToolDefinition = {
    ...CREATE_SPEC,
    execute(args: unknown, ctx: ToolContext): Promise<CreateResult | ToolFailure> {
      const shape = validateCreateArgs(args);
      if (!shape.ok) return Promise.resolve(shape);
      return fifo.run(async () => {
        const { agent } = ctx;
        const preflight = await barrier(agent);
        // A turn that ended (cancel, dispose) while this waited records nothing more: no create
        // may land after its `turn/end` (the thrown reason becomes the unrecorded tool error).
        ctx.signal.throwIfAborted();
        if (!preflight.ok) return uncertain("create schedule", preflight.cause);
        confirmed();
        const state = foldLive(agent);
        const decisionNow = now(agent);
        const resolved = resolveCreate(shape.value, {
          now: decisionNow,
          ...turnProvenance(agent.session, ctx.turnId),
        });
        if (!resolved.ok) return resolved;
        const record = toScheduleRecord(makeScheduleId(random, { avoid: state.seen }), resolved);
        agent.append(SCHEDULE_CHANGE, createChange(record));
        const after = await barrier(agent);
        if (!after.ok) return uncertain("confirm the new schedule", after.cause);
        confirmed();
        return { ok: true, ...scheduleValue(record, decisionNow) };
      });
    },
  };

  const list: ToolDefinition = {
    ...LIST_SPEC,
    execute(args: unknown, ctx: ToolContext): Promise<ListResult | ToolFailure> {
      const shape = validateListArgs(args);
      if (!shape.ok) return Promise.resolve(shape);
      return fifo.run(async () => {
        const preflight = await barrier(ctx.agent);
        if (!preflight.ok) return uncertain("list schedules", preflight.cause);
        confirmed();
        const decisionNow = now(ctx.agent);
        const schedules = [...foldLive(ctx.agent).active.values()]
          .map((record) => scheduleValue(record, decisionNow));
        return { ok: true, schedules, deliveryMode: DELIVERY_MODE };
      });
    },
  };

  const remove: ToolDefinition = {
    ...DELETE_SPEC,
    execute(args: unknown, ctx: ToolContext): Promise<DeleteResult | ToolFailure> {
      const shape = validateDeleteArgs(args);
      if (!shape.ok) return Promise.resolve(shape);
      const { id } = shape.value;
      return fifo.run(async () => {
        const { agent } = ctx;
        const preflight = await barrier(agent);
        ctx.signal.throwIfAborted(); // as for create: nothing lands after the turn ended
        if (!preflight.ok) return uncertain("delete schedule", preflight.cause);
        confirmed();
        const state = foldLive(agent);
        const record = state.active.get(id);
        if (record === undefined) {
          return state.seen.has(id)
            ? toolError("schedule_not_active", `Cannot delete schedule: ${id} already ended`, {
              id,
            })
            : toolError("schedule_not_found", `Cannot delete schedule: no schedule ${id}`, { id });
        }
        const decisionNow = now(agent);
        agent.append(SCHEDULE_CHANGE, deleteChange(id));
        const after = await barrier(agent);
        if (!after.ok) return uncertain("confirm the deletion", after.cause);
        confirmed();
        const deleted = scheduleValue(record, decisionNow);
        return { ok: true, deleted, deliveryMode: DELIVERY_MODE };
      });
    },
  };

  return [create, list, remove];
}
