/**
 * Session persistence benchmark (a plain script, not `Deno.bench`): acknowledged events/s for one
 * session and for 100 concurrent sessions flushing after every append (libSQL file, WAL,
 * `synchronous=FULL`, group commit), flush latency p50/p99, the store against the raw
 * `@libsql/client` group-commit baseline (`_raw_baseline.ts`: same process, same file settings,
 * one multi-row INSERT per transaction, autocommit and in `BEGIN`/`COMMIT` batches, and with
 * checksums; 9 rounds in which the sides, all open at once, take turns every 10 transactions,
 * each turn started on a settled event loop and timed until the work it left to the loop is
 * done; medians, the ratio of the medians and the median of the per-round ratios), and the time
 * to read a 200-event history page from a 1,000,000-event session. Prints a markdown table.
 *
 * Run: `deno run -A tests/bench/session_bench.ts`; only the store-vs-raw rounds:
 * `deno run -A tests/bench/session_bench.ts --ratio [rounds] [--prefill N]` (N events already
 * stored in each session on both sides, 0 by default); only the checksum cost (raw with and
 * without CRC-32C, the store, the checksum alone per event):
 * `deno run -A tests/bench/session_bench.ts --checksum [rounds]`.
 *
 * @module
 */
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import { SessionStore } from "../../session/store.ts";
import type { SessionEvent } from "../../session/event.ts";
import type { Session } from "../../session/session.ts";
import { createClient } from "@libsql/client";
import { eventChecksum, verifyChecksum } from "../../session/_checksum.ts";
import { type BenchSide, openRawSide, prefillSql, settle } from "./_raw_baseline.ts";
import { upgradeWithChecksums } from "../../session/libsql/_libsql_upgrade.ts";

/** One printed figure. */
export interface Figure {
  /** What was measured. */
  readonly name: string;
  /** The value, formatted with its unit. */
  readonly value: string;
  /** The target, if any. */
  readonly target: string;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

/**
 * The live sessions `s0 …` of a bench store, stored before the timing starts: created, or
 * resumed when `prefill` events are already stored in each.
 */
async function liveSessions(
  store: SessionStore,
  sessions: number,
  prefill: number,
): Promise<Session[]> {
  const live = await Promise.all(
    Array.from(
      { length: sessions },
      (_, i) =>
        prefill > 0
          ? store.resume(`s${i}`)
          : store.create({ cwd: "/", id: `s${i}`, timeZone: "UTC" }),
    ),
  );
  await Promise.all(live.map((s) => store.flush(s)));
  return live;
}

/**
 * `sessions` sessions append and flush `perSession` events each, all at once, each flush's
 * latency recorded.
 */
async function appendFlushLoop(
  sessions: number,
  perSession: number,
  dir: string,
): Promise<{ rate: number; latencies: number[] }> {
  const url = `file:${dir}/rate-${sessions}-${crypto.randomUUID()}.db`;
  await using store = new SessionStore({ backend: await LibsqlBackend.open({ url }) });
  const live = await liveSessions(store, sessions, 0);
  const latencies: number[] = [];
  await settle();
  const start = performance.now();
  await Promise.all(live.map(async (session) => {
    for (let i = 0; i < perSession; i++) {
      store.append(session, "note", { i, text: "an ordinary event of modest size" });
      const t0 = performance.now();
      if (!await store.flush(session)) throw new Error("flush not acknowledged");
      latencies.push(performance.now() - t0);
    }
  }));
  await settle();
  const seconds = (performance.now() - start) / 1_000;
  return { rate: (sessions * perSession) / seconds, latencies: latencies.sort((a, b) => a - b) };
}

/** Stores `sessions` sessions `s0 …` of `count` events each (headers by the backend, rows in bulk). */
async function prefilled(url: string, sessions: number, count: number): Promise<void> {
  const at = new Date(0).toISOString();
  {
    await using backend = await LibsqlBackend.open({ url });
    for (let i = 0; i < sessions; i++) {
      await backend.initialize({
        version: 1,
        id: `s${i}`,
        cwd: "/",
        createdAt: at,
        origin: "bench",
        lineage: null,
        delegationDepth: 0,
        timeZone: "UTC",
      }, []);
    }
  }
  const client = createClient({ url });
  try {
    await client.execute(prefillSql(sessions, count, at));
    // Bulk SQL rows have no checksum yet: compute each once, as the v16 upgrade does.
    await upgradeWithChecksums(client, []);
  } finally {
    client.close();
  }
}

/**
 * The store's side of the store-vs-raw bench: `sessions` live sessions of one store, each
 * appending one event and flushing it per transaction of the raw side (every flush awaited).
 *
 * @param prefill events already stored in each session (bulk SQL, then resumed)
 */
async function openStoreSide(dir: string, sessions: number, prefill: number): Promise<BenchSide> {
  const url = `file:${dir}/store-${crypto.randomUUID()}.db`;
  if (prefill > 0) await prefilled(url, sessions, prefill);
  const store = new SessionStore({ backend: await LibsqlBackend.open({ url }) });
  const live = await liveSessions(store, sessions, prefill);
  let i = 0;
  return {
    async run(count) {
      await settle();
      const start = performance.now();
      await Promise.all(live.map(async (session) => {
        for (let k = 0; k < count; k++) {
          store.append(session, "note", { i: i + k, text: "an ordinary event of modest size" });
          if (!await store.flush(session)) throw new Error("flush not acknowledged");
        }
      }));
      await settle();
      i += count;
      return performance.now() - start;
    },
    [Symbol.asyncDispose]: () => store[Symbol.asyncDispose](),
  };
}

async function bigSessionPage(
  dir: string,
  events: number,
): Promise<{ buildS: number; pageMs: number[] }> {
  await using backend = await LibsqlBackend.open({ url: `file:${dir}/big.db` });
  const at = new Date(0).toISOString();
  const t0 = performance.now();
  await backend.initialize({
    version: 1,
    id: "big",
    cwd: "/",
    createdAt: at,
    origin: "bench",
    lineage: null,
    delegationDepth: 0,
  }, []);
  const chunk = 100_000;
  for (let from = 0; from < events; from += chunk) {
    const batch: SessionEvent[] = Array.from(
      { length: Math.min(chunk, events - from) },
      (_, i) => ({ seq: from + i, type: "note", at, data: { n: from + i, text: "history" } }),
    );
    await backend.append("big", batch);
  }
  const buildS = (performance.now() - t0) / 1_000;
  const pageMs: number[] = [];
  for (let i = 0; i < 200; i++) {
    const before = Math.floor(Math.random() * (events - 200)) + 200;
    const t = performance.now();
    const page = await backend.readEvents("big", { before, limit: 200 });
    pageMs.push(performance.now() - t);
    if (page.length !== 200 || page[199]!.seq !== before - 1) throw new Error("bad page");
  }
  return { buildS, pageMs: pageMs.sort((a, b) => a - b) };
}

const median = (v: readonly number[]): number =>
  v.toSorted((a, b) => a - b)[Math.floor(v.length / 2)]!;

/** The store against the raw baseline, taking turns (one process, same settings). */
export interface StoreVsRaw {
  /** Acknowledged events/s of the raw baseline (autocommit INSERT), per round. */
  readonly raws: readonly number[];
  /** Acknowledged events/s of the raw baseline in `BEGIN`/`COMMIT` batches, per round. */
  readonly batches: readonly number[];
  /** Acknowledged events/s of `SessionStore`, per round. */
  readonly stores: readonly number[];
  /** Acknowledged events/s of the raw baseline computing and inserting checksums, per round. */
  readonly rawCrcs: readonly number[];
  /** Median store / median raw with checksums. */
  readonly crcRatio: number;
  /** Median store / median raw. */
  readonly ratio: number;
  /** Median of the per-round ratios (a round's parts ran back to back). */
  readonly pairedRatio: number;
  /** Median store / median batch baseline (the first baseline, `BEGIN IMMEDIATE … COMMIT`). */
  readonly batchRatio: number;
}

/** Transactions per turn of a side in the store-vs-raw bench. */
const TURN = 10;
/** Turns per side in one round (a round: 200 transactions, 20,000 events per side). */
const TURNS = 20;

/**
 * The store against the raw baseline (both forms, and with checksums), 100 sessions each,
 * every side open at once on its own file: in each round the four sides take turns of
 * {@linkcode TURN} transactions ({@linkcode TURNS} turns each, the order rotating), so every
 * side sees the same disk; one unmeasured turn each first (JIT, caches). A round's rate is its
 * 20,000 events over the sum of its turns.
 *
 * @param dir a temporary directory for the database files
 * @param rounds how many rounds
 * @param prefill events already stored in each session on every side @default 0
 * @returns the per-round rates and the ratios
 */
export async function storeVsRaw(dir: string, rounds: number, prefill = 0): Promise<StoreVsRaw> {
  const sessions = 100;
  await using raw = await openRawSide(`${dir}/raw.db`, sessions, "execute", prefill);
  await using batch = await openRawSide(`${dir}/batch.db`, sessions, "batch", prefill);
  await using crc = await openRawSide(`${dir}/crc.db`, sessions, "execute", prefill, true);
  await using store = await openStoreSide(dir, sessions, prefill);
  const sides = [raw, batch, crc, store];
  const rates: number[][] = sides.map(() => []);
  for (const side of sides) await side.run(TURN);
  for (let round = 0; round < rounds; round++) {
    const ms = sides.map(() => 0);
    for (let turn = 0; turn < TURNS; turn++) {
      for (let k = 0; k < sides.length; k++) {
        const at = (k + turn) % sides.length;
        ms[at]! += await sides[at]!.run(TURN);
      }
    }
    ms.forEach((v, at) => rates[at]!.push((sessions * TURN * TURNS) / (v / 1_000)));
  }
  const [raws, batches, rawCrcs, stores] = rates as [number[], number[], number[], number[]];
  return {
    raws,
    batches,
    stores,
    ratio: median(stores) / median(raws),
    rawCrcs,
    crcRatio: median(stores) / median(rawCrcs),
    pairedRatio: median(stores.map((v, i) => v / raws[i]!)),
    batchRatio: median(stores) / median(batches),
  };
}

/**
 * Runs every measurement and prints the table.
 *
 * @returns the figures
 */
export async function main(): Promise<Figure[]> {
  const dir = await Deno.makeTempDir({ prefix: "chime-bench-" });
  try {
    const one = await appendFlushLoop(1, 1_000, dir);
    const many = await appendFlushLoop(100, 200, dir);
    const vs = await storeVsRaw(dir, ROUNDS);
    const raw = median(vs.raws);
    const ours = median(vs.stores);
    const big = await bigSessionPage(dir, 1_000_000);
    const ms = (v: number) => `${v.toFixed(2)} ms`;
    const figures: Figure[] = [
      { name: "acknowledged events/s, 1 session", value: one.rate.toFixed(0), target: "" },
      {
        name: "acknowledged events/s, 100 sessions",
        value: many.rate.toFixed(0),
        target: "≥ 20,000",
      },
      {
        name: "flush latency p50, 100 sessions",
        value: ms(percentile(many.latencies, 0.5)),
        target: "",
      },
      {
        name: "flush latency p99, 100 sessions",
        value: ms(percentile(many.latencies, 0.99)),
        target: "",
      },
      {
        name: "flush latency p50, 1 session",
        value: ms(percentile(one.latencies, 0.5)),
        target: "",
      },
      {
        name: `raw @libsql/client group commit, 100 sessions (median of ${ROUNDS})`,
        value: raw.toFixed(0),
        target: "",
      },
      {
        name: `raw group commit in BEGIN/COMMIT batches, 100 sessions (median of ${ROUNDS})`,
        value: median(vs.batches).toFixed(0),
        target: "",
      },
      {
        name: `SessionStore append+flush, 100 sessions (median of ${ROUNDS}, taking turns)`,
        value: ours.toFixed(0),
        target: "",
      },
      {
        name: "store / raw acknowledged events/s (ratio of medians; median of round ratios)",
        value: `${vs.ratio.toFixed(2)}; ${vs.pairedRatio.toFixed(2)} (rounds: ${
          vs.stores.map((v, i) => (v / vs.raws[i]!).toFixed(2)).join(", ")
        })`,
        target: "≥ 0.9",
      },
      {
        name: `raw group commit with CRC-32C per event, 100 sessions (median of ${ROUNDS})`,
        value: median(vs.rawCrcs).toFixed(0),
        target: "",
      },
      {
        name: "store / raw with checksums (ratio of medians)",
        value: vs.crcRatio.toFixed(2),
        target: "",
      },
      ...checksumFigures(await checksumCost(dir)),
      {
        name: "store / raw in BEGIN/COMMIT batches (ratio of medians)",
        value: vs.batchRatio.toFixed(2),
        target: "",
      },
      { name: "build 1,000,000-event session", value: `${big.buildS.toFixed(1)} s`, target: "" },
      {
        name: "200-event page of 1,000,000, p50",
        value: ms(percentile(big.pageMs, 0.5)),
        target: "≤ 2 ms",
      },
      {
        name: "200-event page of 1,000,000, p99",
        value: ms(percentile(big.pageMs, 0.99)),
        target: "",
      },
    ];
    console.log("| measurement | value | target |\n| --- | ---: | --- |");
    for (const f of figures) console.log(`| ${f.name} | ${f.value} | ${f.target} |`);
    return figures;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** What the per-event checksum costs (`session/_checksum.ts`), in µs per event. */
export interface ChecksumCost {
  /** CRC-32C of one bench event's canonical bytes from its data text (what an append adds). */
  readonly appendUs: number;
  /** Verifying one event read as bytes (what a read adds). */
  readonly readUs: number;
  /** The same for a 4 KB data text. */
  readonly bigUs: number;
  /** A whole 10,000-event `load()` per event (what the read path costs all told). */
  readonly loadUs: number;
}

/**
 * Times the checksum alone on the bench's events and a full read per event.
 *
 * @param dir a scratch folder
 */
export async function checksumCost(dir: string): Promise<ChecksumCost> {
  const at = new Date(0).toISOString();
  const small = JSON.stringify({ i: 1, text: "an ordinary event of modest size" });
  const big = JSON.stringify({ text: "x".repeat(4_096) });
  const bytes = new TextEncoder().encode(small);
  const n = 200_000;
  const time = (f: (i: number) => void, count = n) => {
    const start = performance.now();
    for (let i = 0; i < count; i++) f(i);
    return ((performance.now() - start) * 1_000) / count;
  };
  time((i) => eventChecksum("s1", i, "note", at, small)); // warm-up
  const appendUs = time((i) => eventChecksum("s1", i, "note", at, small));
  const crc = eventChecksum("s1", 7, "note", at, small);
  const readUs = time(() => verifyChecksum(crc, "s1", 7, "note", at, bytes));
  const bigUs = time((i) => eventChecksum("s1", i, "note", at, big), 20_000);
  await using backend = await LibsqlBackend.open({ url: `file:${dir}/crc-load.db` });
  const events = Array.from({ length: 10_000 }, (_, i) => ({
    seq: i,
    type: "note",
    at,
    data: { i, text: "an ordinary event of modest size" },
  }));
  await backend.initialize({
    version: 1,
    id: "s1",
    cwd: "/",
    createdAt: at,
    origin: "bench",
    lineage: null,
    delegationDepth: 0,
  }, events);
  await backend.load("s1");
  const loads: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    await backend.load("s1");
    loads.push(((performance.now() - start) * 1_000) / 10_000);
  }
  return { appendUs, readUs, bigUs, loadUs: median(loads) };
}

function checksumFigures(c: ChecksumCost): Figure[] {
  const us = (v: number) => `${v.toFixed(2)} µs`;
  return [
    {
      name: "CRC-32C per event on append (bench event, ~60 B data)",
      value: us(c.appendUs),
      target: "",
    },
    { name: "CRC-32C verify per event on read (bytes)", value: us(c.readUs), target: "" },
    { name: "CRC-32C per event, 4 KB data", value: us(c.bigUs), target: "" },
    {
      name: "libSQL load() per event, 10,000 events, checksums verified (median of 5)",
      value: `${us(c.loadUs)} (verify ${((c.readUs / c.loadUs) * 100).toFixed(0)}% of it)`,
      target: "",
    },
  ];
}

async function checksumOnly(rounds: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "chime-bench-" });
  try {
    const vs = await storeVsRaw(dir, rounds);
    const figures: Figure[] = [
      {
        name: `raw group commit, 100 sessions (median of ${rounds})`,
        value: median(vs.raws).toFixed(0),
        target: "",
      },
      {
        name: `raw group commit with CRC-32C, 100 sessions (median of ${rounds})`,
        value: median(vs.rawCrcs).toFixed(0),
        target: "",
      },
      {
        name: `SessionStore append+flush (median of ${rounds})`,
        value: median(vs.stores).toFixed(0),
        target: "",
      },
      {
        name: "store / raw with checksums (ratio of medians)",
        value: vs.crcRatio.toFixed(2),
        target: "",
      },
      { name: "store / raw (ratio of medians)", value: vs.ratio.toFixed(2), target: "≥ 0.9" },
      ...checksumFigures(await checksumCost(dir)),
    ];
    console.log("| measurement | value | target |\n| --- | ---: | --- |");
    for (const f of figures) console.log(`| ${f.name} | ${f.value} | ${f.target} |`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Alternating store-vs-raw rounds of the full run. */
const ROUNDS = 9;

async function ratioOnly(rounds: number, prefill: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "chime-bench-" });
  try {
    const vs = await storeVsRaw(dir, rounds, prefill);
    console.log(`${prefill} events already in each of the 100 sessions\n`);
    const n = (v: number) => v.toFixed(0);
    console.log(
      "| round | raw /s | raw batch /s | store /s | ratio |\n| ---: | ---: | ---: | ---: | ---: |",
    );
    vs.raws.forEach((raw, i) => {
      const store = vs.stores[i]!;
      console.log(
        `| ${i + 1} | ${n(raw)} | ${n(vs.batches[i]!)} | ${n(store)} | ${
          (store / raw).toFixed(2)
        } |`,
      );
    });
    console.log(
      `\nmedians: raw ${n(median(vs.raws))} /s, raw batch ${n(median(vs.batches))} /s, ` +
        `store ${n(median(vs.stores))} /s; ratio of medians ${vs.ratio.toFixed(3)}, ` +
        `median of round ratios ${vs.pairedRatio.toFixed(3)} (target ≥ 0.9); ` +
        `against the batch form ${vs.batchRatio.toFixed(3)}, ` +
        `against raw with checksums (${n(median(vs.rawCrcs))} /s) ${vs.crcRatio.toFixed(3)}`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--ratio");
  const fill = Deno.args.indexOf("--prefill");
  const prefill = fill >= 0 ? Number(Deno.args[fill + 1]) : 0;
  const rounds = Number(Deno.args[at + 1]);
  const crc = Deno.args.indexOf("--checksum");
  if (crc >= 0) {
    const n = Number(Deno.args[crc + 1]);
    await checksumOnly(Number.isInteger(n) ? n : 3);
  } else if (at >= 0) await ratioOnly(Number.isInteger(rounds) ? rounds : ROUNDS, prefill);
  else await main();
}
