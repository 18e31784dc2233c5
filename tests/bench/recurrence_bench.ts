/**
 * The recurrence benchmark (README "Performance"): the worst-case CPU of one `nextOccurrence`
 * and one `catchUp` over the accepted rule space (random rules from
 * `schedule/_rrule_arbitrary_test.ts`, 10 zones, a fresh compile per rule so the probe is counted
 * too), and the owner's due-to-dispatch lateness with 1,000 live recurring series falling due in
 * the same minute (libSQL file). Prints figures; never asserts timings.
 *
 * Run: `deno run -A tests/bench/recurrence_bench.ts` (≈ 1.5 minutes: it waits for a whole minute).
 *
 * @module
 */
import fc from "fast-check";
import { Agent, ScriptedModel } from "@chime/agent";
import { LibsqlBackend, type Session, SessionStore } from "@chime/session";
import { ruleArb, ZONES } from "../../schedule/_rrule_arbitrary_test.ts";
import { formatRule, parseRule } from "../../schedule/_rrule_parse.ts";
import { ScheduleFifo } from "../../schedule/fifo.ts";
import { ScheduleOwner } from "../../schedule/owner.ts";
import { catchUp, nextOccurrence, validateSeries } from "../../schedule/recurrence.ts";

const RULES = 4_000;
const SERIES = 1_000;
const silent = { warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function stats(samples: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1)! };
}

const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

/** Steady-state CPU of one call: the fastest of three (JIT and GC pauses are not the rule's). */
function best(call: () => void): number {
  let min = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    call();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

function cpu(): void {
  const rules = fc.sample(ruleArb, { numRuns: RULES, seed: 21 });
  const zones = fc.sample(fc.constantFrom(...ZONES), { numRuns: RULES, seed: 5 });
  const next: number[] = [];
  const caught: number[] = [];
  const accept: number[] = [];
  const refuse: number[] = [];
  let worst = { ms: 0, rule: "" };
  const base = Date.parse("2027-01-01T00:00:00Z");
  rules.forEach((raw, i) => {
    let rrule: string;
    try {
      rrule = formatRule(parseRule(formatRule(raw)));
    } catch {
      return;
    }
    const dtstart = new Date(base + i * 7_919_000).toISOString().slice(0, 19);
    // The zone spelled three ways: three cache keys, so every timing run compiles and probes.
    const zone = zones[i]!;
    const spellings = [zone.toLowerCase(), zone.toUpperCase(), zone];
    let run = 0;
    let ok = true;
    const ms = best(() => {
      try {
        validateSeries({ rrule, dtstart, timeZone: spellings[run++ % 3]! });
      } catch {
        ok = false;
      }
    });
    (ok ? accept : refuse).push(ms);
    if (!ok) return;
    const series = { rrule, dtstart, timeZone: zones[i]! };
    const after = base + (i % 400) * 86_400_000 + 12_345;
    const n = best(() => nextOccurrence(series, after));
    next.push(n);
    if (n > worst.ms) worst = { ms: n, rule: `${rrule} ${dtstart} ${series.timeZone}` };
    caught.push(best(() => catchUp(series, after, after + 86_400_000)));
  });
  const [a, r, n, c] = [stats(accept), stats(refuse), stats(next), stats(caught)];
  console.log(
    `rules: ${accept.length} accepted, ${refuse.length} refused as rule_never_occurs (of ${RULES} drawn)`,
  );
  console.log(
    `validateSeries of an accepted rule (compile + probe) p50 / p99 / max: ${us(a.p50)} / ${
      us(a.p99)
    } / ${us(a.max)}`,
  );
  console.log(
    `validateSeries of a refused rule p50 / p99 / max: ${us(r.p50)} / ${us(r.p99)} / ${us(r.max)}`,
  );
  console.log(`nextOccurrence p50 / p99 / max: ${us(n.p50)} / ${us(n.p99)} / ${us(n.max)}`);
  console.log(`  worst: ${worst.rule}`);
  console.log(`catchUp over one day p50 / p99 / max: ${us(c.p50)} / ${us(c.p99)} / ${us(c.max)}`);
}

async function owners(): Promise<void> {
  const dir = await Deno.makeTempDir();
  const store = new SessionStore({
    backend: await LibsqlBackend.open({ url: `file:${dir}/b.db` }),
  });
  // The first whole minute at least 8 s away: every series' first occurrence.
  const due = Math.ceil((Date.now() + 8_000) / 60_000) * 60_000;
  const dtstart = new Date(due).toISOString().slice(0, 19);
  const lateness: number[] = [];
  const live: { agent: Agent; owner: ScheduleOwner }[] = [];
  const sessions: Session[] = [];
  for (let i = 0; i < SERIES; i++) {
    const session = await store.create({ cwd: "/bench", timeZone: "UTC" });
    session.append("schedule/change", {
      version: 2,
      op: "create",
      record: {
        id: `sch_series${String(i).padStart(8, "0")}`,
        kind: "recurring",
        prompt: `r${i}`,
        rrule: "FREQ=MINUTELY",
        dtstart,
        timeZone: "UTC",
        scheduledAt: new Date(due).toISOString(),
      },
    });
    session.subscribe((event) => {
      const data = event.data as { op?: string; occurrenceAt?: string };
      if (data.op === "dispatch" && data.occurrenceAt !== undefined) {
        lateness.push(Date.now() - Date.parse(data.occurrenceAt));
      }
    });
    const agent = new Agent({ session, store, model: new ScriptedModel(() => ({ text: "ok" })) });
    live.push({
      agent,
      owner: new ScheduleOwner(agent, { fifo: new ScheduleFifo(), logger: silent }),
    });
    sessions.push(session);
  }
  await Promise.all(sessions.map((s) => store.flush(s)));
  for (const { owner } of live) owner.start();
  if (Date.now() >= due) throw new Error("arming took too long");
  while (lateness.length < SERIES && Date.now() < due + 30_000) await sleep(50);
  const s = stats(lateness);
  console.log(
    `${SERIES} live series due in the same minute, due → dispatch p50 / p99 / max: ` +
      `${s.p50} / ${s.p99} / ${s.max} ms (${lateness.length} delivered)`,
  );
  for (const { owner, agent } of live) {
    await owner[Symbol.asyncDispose]();
    await agent[Symbol.asyncDispose]();
  }
  await store[Symbol.asyncDispose]();
  await Deno.remove(dir, { recursive: true });
}

cpu();
await owners();
