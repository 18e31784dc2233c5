/**
 * An in-memory stand-in for the schedule tools in the shapes of docs/recurring.md ("Tools"):
 * `schedule_create` (with `repeat`), `schedule_list`, `schedule_update`, `schedule_delete` and
 * `schedule_snooze`, every value with `deliveryMode: 'session-local'`. Offline-model tests use
 * it to drive the model through the real loop and read every call back. Not published; it
 * checks shapes only as far as the tests need.
 *
 * @module
 */
import type { AgentHandle, ToolDefinition } from "@chime/agent";
import {
  REMINDER_FRAME_TAG,
  REMINDER_INSTRUCTION,
  SCHEDULE_TOOL_NAMES as TOOL,
} from "@chime/schedule";

/** A record as the fake keeps it. */
export interface FakeRecord {
  readonly id: string;
  readonly kind: "after" | "at" | "recurring";
  readonly prompt: string;
  readonly scheduledAt: string;
  readonly repeat?: {
    readonly rrule: string;
    readonly timeZone: string;
    readonly dtstart: string;
    readonly text: { readonly en: string; readonly zh: string };
  };
  readonly snoozeOf?: { readonly id: string; readonly occurrenceAt: string };
}

type Args = Record<string, unknown>;

const fail = (code: string, message: string) => ({ ok: false, error: { code, message } });

/** The fake tools over one map of active records; `ended` holds deleted or fired ids. */
export class ScheduleFake {
  /** Active records by id, in create order. */
  readonly active: Map<string, FakeRecord> = new Map();
  /** Ids that ended (deleted, or fired one-shots). */
  readonly ended: Set<string> = new Set();
  /** Every call, in order: tool name and arguments. */
  readonly calls: { name: string; args: Args }[] = [];
  readonly #all = new Map<string, FakeRecord>();
  #next = 0;
  readonly #zone: string;
  readonly #now: () => number;

  constructor(options: { readonly timeZone: string; readonly now: () => number }) {
    this.#zone = options.timeZone;
    this.#now = options.now;
  }

  /** Marks a one-shot as delivered (it leaves the active set) and returns its frame text. */
  fire(id: string): string {
    const record = this.active.get(id);
    if (record === undefined) throw new RangeError(`no active ${id}`);
    if (record.kind !== "recurring") {
      this.active.delete(id);
      this.ended.add(id);
    }
    const json = JSON.stringify({
      id,
      prompt: record.prompt,
      scheduledAt: record.scheduledAt,
      status: "due",
      lateBySeconds: 0,
      occurrenceAt: record.scheduledAt,
      missed: 0,
      ...(record.repeat ? { recurring: { ...record.repeat, nextAt: record.scheduledAt } } : {}),
    });
    return `<${REMINDER_FRAME_TAG}>\n${json}\n</${REMINDER_FRAME_TAG}>\n${REMINDER_INSTRUCTION}`;
  }

  #value(record: FakeRecord) {
    const status = Date.parse(record.scheduledAt) <= this.#now() ? "overdue" : "scheduled";
    return { ...record, status, deliveryMode: "session-local" as const };
  }

  #when(args: Args): Omit<FakeRecord, "id" | "prompt"> | { error: unknown } {
    const now = this.#now();
    if (typeof args.after_seconds === "number") {
      const at = new Date(now + args.after_seconds * 1000).toISOString();
      return { kind: "after", scheduledAt: at };
    }
    const local = (v: { date: string; time: string; time_zone?: string }) =>
      Temporal.PlainDateTime.from(`${v.date}T${v.time}`).toZonedDateTime(
        v.time_zone ?? this.#zone,
      );
    if (typeof args.at === "object" && args.at !== null) {
      const at = local(args.at as { date: string; time: string; time_zone?: string });
      return { kind: "at", scheduledAt: at.toInstant().toString() };
    }
    if (typeof args.at === "string") {
      return { kind: "at", scheduledAt: Temporal.Instant.from(args.at).toString() };
    }
    const repeat = args.repeat as
      | { rrule: string; start?: { date: string; time: string }; time_zone?: string }
      | undefined;
    if (repeat === undefined) return { error: fail("invalid_arguments", "no selector") };
    if (!/^FREQ=(?:MINUTELY|HOURLY|DAILY|WEEKLY|MONTHLY)\b/.test(repeat.rrule)) {
      return { error: fail("unsupported_rule", "Cannot create: rule") };
    }
    const zone = repeat.time_zone ?? this.#zone;
    const start = repeat.start
      ? local({ ...repeat.start, time_zone: zone })
      : Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(zone);
    const words = repeat.rrule.toLowerCase().replace(/^freq=/, "");
    return {
      kind: "recurring",
      scheduledAt: start.toInstant().toString(),
      repeat: {
        rrule: repeat.rrule,
        timeZone: zone,
        dtstart: start.toPlainDateTime().toString(),
        text: { en: `${words} (${zone})`, zh: `${words}（${zone}）` },
      },
    };
  }

  #find(id: unknown): FakeRecord | { error: unknown } {
    const record = typeof id === "string" ? this.active.get(id) : undefined;
    if (record !== undefined) return record;
    return typeof id === "string" && this.ended.has(id)
      ? { error: fail("schedule_not_active", `Cannot change: ${id} ended`) }
      : { error: fail("schedule_not_found", `Cannot change: no ${String(id)}`) };
  }

  /** The five tools; register each on the agent. */
  tools(): ToolDefinition[] {
    const tool = (
      name: string,
      properties: Record<string, unknown>,
      run: (args: Args, agent: AgentHandle) => unknown,
    ): ToolDefinition => ({
      name,
      description: name,
      parameters: { type: "object", properties },
      execute: (args, ctx) => {
        this.calls.push({ name, args: args as Args });
        return Promise.resolve(run(args as Args, ctx.agent));
      },
    });
    const selectors = { after_seconds: {}, at: {}, repeat: {} };
    return [
      tool(TOOL.create, { prompt: {}, ...selectors }, (args) => {
        const when = this.#when(args);
        if ("error" in when) return when.error;
        const record = { id: `sch_${++this.#next}`, prompt: String(args.prompt), ...when };
        this.active.set(record.id, record);
        this.#all.set(record.id, record);
        return { ok: true, ...this.#value(record) };
      }),
      tool(TOOL.list, {}, () => ({
        ok: true,
        schedules: [...this.active.values()].map((r) => this.#value(r)),
        deliveryMode: "session-local",
      })),
      tool(TOOL.update, { id: {}, prompt: {}, ...selectors }, (args) => {
        const found = this.#find(args.id);
        if ("error" in found) return found.error;
        const when = "after_seconds" in args || "at" in args || "repeat" in args
          ? this.#when(args)
          : found;
        if ("error" in when) return when.error;
        const { repeat: _drop, ...base } = found;
        const record: FakeRecord = {
          ...base,
          ...when,
          id: found.id,
          prompt: typeof args.prompt === "string" ? args.prompt : found.prompt,
        };
        this.active.set(record.id, record);
        return { ok: true, ...this.#value(record) };
      }),
      tool(TOOL.delete, { id: {} }, (args) => {
        const found = this.#find(args.id);
        if ("error" in found) return found.error;
        this.active.delete(found.id);
        this.ended.add(found.id);
        return { ok: true, deleted: this.#value(found), deliveryMode: "session-local" };
      }),
      tool(TOOL.snooze, { id: {}, after_seconds: {} }, (args) => {
        const id = String(args.id);
        const base = this.#all.get(id);
        if (base === undefined) return fail("schedule_not_found", `Cannot snooze: no ${id}`);
        const at = new Date(this.#now() + Number(args.after_seconds) * 1000).toISOString();
        const record: FakeRecord = {
          id: `sch_${++this.#next}`,
          kind: "at",
          prompt: base.prompt,
          scheduledAt: at,
          snoozeOf: { id, occurrenceAt: base.scheduledAt },
        };
        this.active.set(record.id, record);
        this.#all.set(record.id, record);
        return { ok: true, ...this.#value(record) };
      }),
    ];
  }
}
