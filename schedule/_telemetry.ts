// Private: the owner's OpenTelemetry (docs/operations.md "Reading a late reminder's trace"),
// through `@opentelemetry/api` only. Deno registers its providers behind that API under
// OTEL_DENO=true; otherwise every call here is a no-op. The schedule imports no host code.
import { metrics, SpanStatusCode, trace } from "@opentelemetry/api";
import type { AgentHandle } from "@chime/contract";
import { LiveSchedule } from "./live.ts";

const SCOPE = "chime.schedule";
const tracer = trace.getTracer(SCOPE);
const meter = metrics.getMeter(SCOPE);

/** Bucket bounds of the lateness histogram, ms: on time, a busy turn, a cold session. */
const LATENESS_BUCKETS_MS = [
  0,
  50,
  100,
  250,
  500,
  1000,
  2500,
  5000,
  10_000,
  30_000,
  60_000,
  300_000,
  900_000,
  3_600_000,
  86_400_000,
];

const lateness = meter.createHistogram("chime.reminder.lateness", {
  description: "From a reminder's due instant to its admission (dispatch decision).",
  unit: "ms",
  advice: { explicitBucketBoundaries: LATENESS_BUCKETS_MS },
});

/** The live owners' agents, for the pending gauge. */
const live = new Set<AgentHandle>();
const pending = meter.createObservableGauge("chime.reminders.pending", {
  description: "Active (not yet delivered or ended) reminders of the live sessions.",
  unit: "{reminder}",
});
pending.addCallback((result) => result.observe(pendingCount()));

/** Active records of the tracked owners' sessions (a state not loaded yet counts nothing). */
export function pendingCount(): number {
  let count = 0;
  for (const agent of live) {
    try {
      count += LiveSchedule.for(agent).state.active.size;
    } catch {
      // A state not loaded yet (or refused) counts nothing; the owner reports its own faults.
    }
  }
  return count;
}

/** Counts an owner's session in `chime.reminders.pending` until {@linkcode untrackOwner}. */
export function trackOwner(agent: AgentHandle): void {
  live.add(agent);
}

/** Stops counting an owner's session. */
export function untrackOwner(agent: AgentHandle): void {
  live.delete(agent);
}

/**
 * Why a delivery came when it did, first that applies: `budget` (the hourly budget held it),
 * `cold` (it fell due before the owner started: the session was not live), `busy` (a turn was
 * running: admission waited for `whenIdle()`), `clock` (a wall-clock step woke it), `none` (on
 * its timer).
 */
export type DeliveryCause = "budget" | "cold" | "busy" | "clock" | "none";

/** One dispatched occurrence of a pass (see `_deliver.ts`). */
export interface Delivered {
  /** The record's id. */
  readonly id: string;
  /** The occurrence's due instant, epoch ms (UTC). */
  readonly dueAt: number;
  /** Occurrences missed before it (recurring; 0 otherwise). */
  readonly missed: number;
  /** The frame said `coalesced` (it waited for the budget). */
  readonly coalesced: boolean;
  /** It came before the previous pass's budget wait ended. */
  readonly held: boolean;
}

/** What the owner knows of the pass that delivered. */
export interface PassFacts {
  /** The session. */
  readonly sessionId: string;
  /** When the owner's session went live (its `start()`), epoch ms. */
  readonly startedAt: number;
  /** When the timer, a clock step or a retry woke the pass, epoch ms. */
  readonly wokeAt: number;
  /** The decision clock sample (admission, follow-up and dispatch), epoch ms. */
  readonly decisionNow: number;
  /** When the dispatch barrier settled, epoch ms. */
  readonly durableAt: number;
  /** The dispatch barrier confirmed the appends. */
  readonly durable: boolean;
  /** A `busy` refusal came before this pass was admitted. */
  readonly busy: boolean;
  /** A wall-clock step woke it. */
  readonly stepped: boolean;
}

/** The cause of one delivery (see {@linkcode DeliveryCause}). */
export function causeOf(item: Delivered, pass: PassFacts): DeliveryCause {
  if (item.coalesced || item.held) return "budget";
  if (item.dueAt < pass.startedAt) return "cold";
  if (pass.busy) return "busy";
  if (pass.stepped) return "clock";
  return "none";
}

/**
 * One `reminder.delivery` span per dispatched occurrence, from its due instant to its durable
 * dispatch, with events `due`, `woke`, `admission`, `followup`, `dispatch` and `durable`, and
 * the lateness histogram.
 */
export function recordDeliveries(items: readonly Delivered[], pass: PassFacts): void {
  for (const item of items) {
    const attributes = deliveryAttributes(item, pass);
    lateness.record(attributes.lateness_ms, { cause: attributes.cause });
    const start = Math.min(item.dueAt, pass.decisionNow);
    const span = tracer.startSpan("reminder.delivery", { startTime: start, attributes });
    span.addEvent("due", start);
    span.addEvent("woke", Math.max(start, Math.min(pass.wokeAt, pass.decisionNow)));
    span.addEvent("admission", pass.decisionNow);
    span.addEvent("followup", pass.decisionNow);
    span.addEvent("dispatch", pass.decisionNow);
    if (pass.durable) span.addEvent("durable", pass.durableAt);
    else span.setStatus({ code: SpanStatusCode.ERROR, message: "persistence_uncertain" });
    span.end(Math.max(pass.durableAt, pass.decisionNow));
  }
}

/** The attributes of one delivery's span (docs/operations.md "Spans"). */
export function deliveryAttributes(item: Delivered, pass: PassFacts): {
  readonly "chime.session.id": string;
  readonly "chime.schedule.id": string;
  readonly lateness_ms: number;
  readonly missed: number;
  readonly coalesced: boolean;
  readonly cause: DeliveryCause;
  readonly "chime.dispatch.durable": boolean;
} {
  return {
    "chime.session.id": pass.sessionId,
    "chime.schedule.id": item.id,
    lateness_ms: Math.max(0, pass.decisionNow - item.dueAt),
    missed: item.missed,
    coalesced: item.coalesced,
    cause: causeOf(item, pass),
    "chime.dispatch.durable": pass.durable,
  };
}
