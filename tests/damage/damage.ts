/**
 * `deno task damage [N] [SEED]`: the damage lane (issue 26 fault 4). Builds a real libSQL
 * database and a real JSONL folder with sessions, messages and reminders, then makes N random
 * single-byte flips (half in the database, half in the JSONL files), each on a fresh copy; the
 * store is opened on each copy and every read the page's routes make is compared with the
 * original (`_lane.ts`). Flips run in child processes, so a flip that kills the process is
 * counted as a crash and the lane goes on with the next one. Prints the counts: coded errors,
 * uncoded errors, refusals to start, silent changes, crashes, no effect, doctor misses.
 *
 * @module
 */
import { join } from "node:path";
import {
  buildOriginals,
  copyTree,
  type DamageKind,
  type FlipResult,
  openStore,
  prng,
  readAll,
  runFlip,
  targets,
} from "./_lane.ts";

/** One planned flip. */
interface Flip {
  readonly index: number;
  readonly kind: DamageKind;
  readonly file: string;
  readonly offset: number;
  readonly mask: number;
}

/** The lane's counts. */
export interface DamageCounts {
  readonly flips: number;
  readonly byKind: Record<DamageKind, Record<string, number>>;
  readonly doctorMisses: number;
  readonly silent: readonly FlipResult[];
  readonly crashes: readonly Flip[];
}

async function plan(originals: string, n: number, seed: number): Promise<Flip[]> {
  const r = prng(seed);
  const flips: Flip[] = [];
  for (const kind of ["db", "jsonl"] as const) {
    const files = await targets(kind, originals);
    const total = files.reduce((s, [, size]) => s + size, 0);
    const count = kind === "db" ? Math.ceil(n / 2) : Math.floor(n / 2);
    for (let i = 0; i < count; i++) {
      let at = Math.floor(r() * total);
      const [file] = files.find(([, size]) => (at -= size) < 0)!;
      const size = files.find(([f]) => f === file)![1];
      flips.push({
        index: flips.length,
        kind,
        file,
        offset: at + size,
        mask: 1 + Math.floor(r() * 255),
      });
    }
  }
  return flips;
}

/**
 * Runs the lane.
 *
 * @param n how many flips (half database, half JSONL)
 * @param seed the PRNG seed
 * @param log where progress goes @default nothing
 * @returns the counts
 */
export async function runDamageLane(
  n: number,
  seed: number,
  log: (line: string) => void = () => {},
): Promise<DamageCounts> {
  const work = await Deno.makeTempDir({ prefix: "chime-damage-lane-" });
  try {
    const originals = join(work, "originals");
    await buildOriginals(originals);
    const expected: Record<DamageKind, Record<string, string>> = { db: {}, jsonl: {} };
    for (const kind of ["db", "jsonl"] as const) {
      const copy = join(work, `expected-${kind}`);
      await copyTree(originals, copy);
      await using backend = await openStore(kind, copy);
      expected[kind] = Object.fromEntries(await readAll(backend));
    }
    const flips = await plan(originals, n, seed);
    await Deno.writeTextFile(join(work, "plan.json"), JSON.stringify({ flips, expected }));
    const results: FlipResult[] = [];
    const crashes: Flip[] = [];
    let next = 0;
    while (next < flips.length) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", import.meta.filename!, "--child", work, String(next)],
        stdout: "piped",
        stderr: "null",
      }).spawn();
      const out = await child.output();
      const lines = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l !== "");
      for (const line of lines) results.push(JSON.parse(line));
      next += lines.length;
      if (!out.success && next < flips.length) {
        crashes.push(flips[next]!);
        log(`crash at flip ${next} (${flips[next]!.file} +${flips[next]!.offset})`);
        next++;
      }
      log(`${next}/${flips.length}`);
    }
    const byKind: Record<DamageKind, Record<string, number>> = { db: {}, jsonl: {} };
    for (const r of results) byKind[r.kind][r.outcome] = (byKind[r.kind][r.outcome] ?? 0) + 1;
    for (const c of crashes) byKind[c.kind].crash = (byKind[c.kind].crash ?? 0) + 1;
    return {
      flips: flips.length,
      byKind,
      doctorMisses: results.filter((r) => r.doctorMiss).length,
      silent: results.filter((r) => r.outcome === "silent change"),
      crashes,
    };
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

async function child(work: string, start: number): Promise<void> {
  const { flips, expected } = JSON.parse(await Deno.readTextFile(join(work, "plan.json")));
  const originals = join(work, "originals");
  for (const flip of (flips as Flip[]).slice(start)) {
    const want = new Map(Object.entries(expected[flip.kind] as Record<string, string>));
    const result = await runFlip(originals, want, flip);
    await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(result) + "\n"));
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") {
    await child(Deno.args[1]!, Number(Deno.args[2]));
  } else {
    const n = Number(Deno.args[0] ?? 400);
    const seed = Number(Deno.args[1] ?? 26);
    const counts = await runDamageLane(n, seed, (l) => console.error(l));
    for (const kind of ["db", "jsonl"] as const) {
      const c = counts.byKind[kind];
      console.log(
        `${kind}: ${Object.values(c).reduce((a, b) => a + b, 0)} flips: ` +
          [
            "coded error",
            "uncoded error",
            "refused to start",
            "silent change",
            "crash",
            "no effect",
          ]
            .map((k) => `${c[k] ?? 0} ${k}`).join(", "),
      );
    }
    console.log(`doctor misses: ${counts.doctorMisses}`);
    for (const s of counts.silent) {
      console.log(`silent: ${s.kind} ${s.file} +${s.offset} (${s.seen.join(", ")})`);
    }
    for (const c of counts.crashes) console.log(`crash: ${c.kind} ${c.file} +${c.offset}`);
  }
}
