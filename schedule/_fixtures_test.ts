// Shared test fixtures and given/when/then helpers for schedule tests (not a test suite).
import type { SessionEvent, SessionHeader } from "@chime/session";
import {
  type OneShotRecord,
  SCHEDULE_CHANGE,
  type ScheduleChange,
  type ScheduleId,
  type ScheduleRecord,
} from "./protocol.ts";
import { formatInstant } from "./rfc3339.ts";
import { type CreateContext, type CreateRequest, validateCreateArgs } from "./rules.ts";

/** 2030-01-01T00:00:00.000Z in epoch ms. */
export const T0 = Date.UTC(2030, 0, 1);

/** A well-formed id from a short tag, e.g. `id("a")` → `sch_aaaaaaaa`. */
export function id(tag: string): ScheduleId {
  return `sch_${tag.repeat(8).slice(0, Math.max(8, tag.length))}` as ScheduleId;
}

/** An `at` record due `minutes` after {@linkcode T0}. */
export function atRecord(tag: string, minutes = 5, prompt = `remind ${tag}`): OneShotRecord {
  return { id: id(tag), kind: "at", prompt, scheduledAt: formatInstant(T0 + minutes * 60_000) };
}

/** An `after` record due `seconds` after {@linkcode T0}. */
export function afterRecord(tag: string, seconds = 60): OneShotRecord {
  return {
    id: id(tag),
    kind: "after",
    prompt: `remind ${tag}`,
    afterSeconds: seconds,
    scheduledAt: formatInstant(T0 + seconds * 1000),
  };
}

/** One log entry: a change, or any other event as `{ type, data }`. */
export type Entry = ScheduleChange | { readonly type: string; readonly data: unknown };

export const create = (record: ScheduleRecord): ScheduleChange => ({
  version: 1,
  op: "create",
  record,
});
export const remove = (tag: string): ScheduleChange => ({ version: 1, op: "delete", id: id(tag) });
export const dispatch = (tag: string): ScheduleChange => ({
  version: 1,
  op: "dispatch",
  id: id(tag),
});
export const other = (type = "assistant/message"): Entry => ({ type, data: { text: "hi" } });
export const endSeed = (seedLength: number): Entry => ({
  type: "session/end-seed",
  data: { seedLength },
});

/** Turns entries into a dense log starting at seq 0. */
export function given(...entries: readonly Entry[]): SessionEvent[] {
  return entries.map((entry, seq) => ({
    seq,
    at: formatInstant(T0 + seq),
    ...("version" in entry ? { type: SCHEDULE_CHANGE, data: entry } : entry),
  }));
}

/** A session header; `seedLength` makes it a fork. */
export function header(seedLength?: number, timeZone?: string): SessionHeader {
  return {
    version: 1,
    id: "s1",
    cwd: "/",
    createdAt: formatInstant(T0),
    origin: seedLength === undefined ? "test" : "fork",
    lineage: seedLength === undefined ? null : { parentId: "s0", forkedThroughSeq: seedLength - 2 },
    delegationDepth: 0,
    ...(seedLength === undefined ? {} : { seedLength }),
    ...(timeZone === undefined ? {} : { timeZone }),
  };
}

/** Asserts that `fn` throws a ScheduleError-like value with `code`; returns it. */
export function throwsCode(fn: () => unknown, code: string): { code: string; details: unknown } {
  try {
    fn();
  } catch (error) {
    const actual = (error as { code?: unknown }).code;
    if (actual !== code) {
      throw new Error(`expected code ${code}, got ${String(actual)}`, { cause: error });
    }
    return error as { code: string; details: unknown };
  }
  throw new Error(`expected code ${code}, nothing was thrown`);
}

/** A create context whose session and single client zone are both Europe/Paris, with a marker. */
export const PARIS: CreateContext = {
  now: T0,
  sessionTimeZone: "Europe/Paris",
  clientTimeZones: ["Europe/Paris"],
  hasTimeContextMarker: true,
};

/** `"ok"` or the error code of a tool result. */
export function code(result: { ok: boolean; error?: { code: string } }): string {
  return result.ok ? "ok" : result.error!.code;
}

/** A shape-checked create request for `{ prompt: "stretch", ...args }`. */
export function request(args: Record<string, unknown>): CreateRequest {
  const result = validateCreateArgs({ prompt: "stretch", ...args });
  if (!result.ok) throw new Error(`unexpected ${result.error.code}`);
  return result.value;
}

/** A recurring record (daily at 09:00 UTC from 2030-01-01), first target at {@linkcode T0} + 9 h. */
export function seriesRecord(tag: string, extra: Record<string, unknown> = {}): ScheduleRecord {
  return {
    id: id(tag),
    kind: "recurring",
    prompt: `repeat ${tag}`,
    rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
    dtstart: "2030-01-01T09:00:00",
    timeZone: "UTC",
    scheduledAt: formatInstant(T0 + 9 * 3_600_000),
    ...extra,
  } as ScheduleRecord;
}

/** Version 2 constructors for log fixtures. */
export const v2 = {
  create: (record: ScheduleRecord): ScheduleChange => ({ version: 2, op: "create", record }),
  update: (record: ScheduleRecord): ScheduleChange => ({
    version: 2,
    op: "update",
    id: record.id,
    record,
  }),
  remove: (tag: string): ScheduleChange => ({ version: 2, op: "delete", id: id(tag) }),
  stop: (tag: string): ScheduleChange => ({ version: 2, op: "stop", id: id(tag) }),
  dispatch: (tag: string): ScheduleChange => ({ version: 2, op: "dispatch", id: id(tag) }),
  pause: (tag: string): ScheduleChange => ({ version: 2, op: "pause", id: id(tag) }),
  resume: (tag: string, nextAt: string): ScheduleChange => ({
    version: 2,
    op: "resume",
    id: id(tag),
    nextAt,
  }),
  exclude: (tag: string, occurrenceAt: string, nextAt: string | null): ScheduleChange => ({
    version: 2,
    op: "exclude",
    id: id(tag),
    occurrenceAt,
    nextAt,
  }),
  occurrence: (
    op: "dispatch" | "skip",
    tag: string,
    occurrenceAt: string,
    nextAt: string | null,
    missed = 0,
  ): ScheduleChange =>
    op === "skip"
      ? { version: 2, op, id: id(tag), occurrenceAt, missed, nextAt, reason: "catch-up-window" }
      : { version: 2, op, id: id(tag), occurrenceAt, missed, nextAt },
};

/** Day `n` (0-based) of the fixture series, 09:00 UTC. */
export function day(n: number): string {
  return formatInstant(T0 + 9 * 3_600_000 + n * 86_400_000);
}
