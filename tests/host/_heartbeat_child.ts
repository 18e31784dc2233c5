/**
 * No request blocks the event loop for more than 50 ms (README "Failure behaviour"): the worst
 * inputs of the schedule tools (rules that never occur, each new to the process, arguments
 * nested 10,000 deep) and of the routes (the page's edit with such a rule, the longest message,
 * the longest history page, the lists) run through a real host on a real libSQL file while a
 * `setInterval` heartbeat records every gap between its ticks.
 *
 * A gap counts as a block by the CPU time the process spent in it, not by wall time: on a busy
 * machine a tick is late because the process waits for a core, which no code of ours can fix,
 * while a synchronous walk costs its CPU time wherever it runs. It runs in a process of its own
 * (`heartbeat_test.ts` spawns it), so no other test's CPU time is counted.
 *
 * @module
 */
import assert from "node:assert/strict";
import process from "node:process";
import { ScriptedModel } from "@chime/agent";
import { createApp } from "@chime/host";
import { fileRuntime } from "./_file_runtime.ts";
import { postJson, SERIES, SERIES_ID } from "./_helpers.ts";

const LIMIT_MS = 50;

/**
 * Rules that never occur, the slowest of 3,000 random ones to refuse here on a cold cache
 * (170–180 ms each when the probe ran to its end in one go), and the one first reported slow.
 */
const NEVER: readonly { rrule: string; date: string; time: string; zone: string }[] = [
  {
    rrule: "FREQ=MONTHLY;INTERVAL=3;BYDAY=-2TU,1SU;BYMONTHDAY=-1;BYHOUR=9,23;BYSETPOS=1",
    date: "2027-02-15",
    time: "04:27",
    zone: "Australia/Lord_Howe",
  },
  {
    rrule: "FREQ=YEARLY;BYMONTH=8,12;BYDAY=-2SU,2MO;BYMONTHDAY=-7,30;BYHOUR=9;BYMINUTE=30;" +
      "BYSETPOS=-1",
    date: "2027-01-10",
    time: "08:22",
    zone: "Asia/Kolkata",
  },
  {
    rrule: "FREQ=MONTHLY;BYDAY=-2TU,TH;BYMONTHDAY=-7,29;BYHOUR=1;BYMINUTE=30;BYSETPOS=-2,2",
    date: "2027-02-16",
    time: "02:27",
    zone: "Australia/Lord_Howe",
  },
  {
    rrule: "FREQ=MINUTELY;INTERVAL=7;BYDAY=MO;BYHOUR=3,21;BYMINUTE=35,40,44",
    date: "2027-01-11",
    time: "21:46",
    zone: "Pacific/Apia",
  },
  {
    rrule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=2SU;BYMONTHDAY=-7;BYHOUR=0;BYMINUTE=0,30",
    date: "2027-01-18",
    time: "05:32",
    zone: "Africa/Casablanca",
  },
  {
    rrule: "FREQ=MINUTELY;INTERVAL=2;BYMINUTE=1",
    date: "2027-01-01",
    time: "00:00",
    zone: "Europe/Berlin",
  },
];

/** The heartbeat: the most CPU time (ms) the process spent between two ticks since `take()`. */
function heartbeat(): { take(): { cpuMs: number; wallMs: number }; stop(): void } {
  let last = { wall: performance.now(), cpu: process.cpuUsage() };
  let worst = { cpuMs: 0, wallMs: 0 };
  const timer = setInterval(() => {
    const now = { wall: performance.now(), cpu: process.cpuUsage() };
    const cpuMs = (now.cpu.user - last.cpu.user + now.cpu.system - last.cpu.system) / 1000;
    if (cpuMs > worst.cpuMs) worst = { cpuMs, wallMs: now.wall - last.wall };
    last = now;
  }, 1);
  return {
    take() {
      const taken = worst;
      worst = { cpuMs: 0, wallMs: 0 };
      return taken;
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * Runs every worst input while timing the heartbeat; throws (an assertion) on a block.
 *
 * @throws {AssertionError} naming each request whose gap held more than 50 ms of CPU
 */
export async function measure(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "chime-heartbeat-" });
  // The model asks for every never-occurring rule once, as a create and as an update, then
  // sends arguments nested 10,000 deep, then lists.
  const calls: { name: string; args: string }[] = [];
  // The warm-up turn: a rule that occurs, so the turn and tool paths are compiled before timing.
  // Rules of the same shapes as the measured ones (MONTHLY and YEARLY with BYSETPOS and
  // BYMONTHDAY, MINUTELY with BYDAY) compile the engine's paths (JIT is not what is measured);
  // their zone is not one measured, so the zones' first use is still counted.
  for (
    const rrule of [
      "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYMONTHDAY=-7,-6,-5,-4,-3,-2,-1;BYHOUR=9;BYMINUTE=0;BYSETPOS=-1",
      "FREQ=YEARLY;BYMONTH=8,12;BYDAY=2MO;BYHOUR=9;BYMINUTE=30;BYSETPOS=1",
      "FREQ=MINUTELY;INTERVAL=7;BYDAY=MO;BYHOUR=3,21",
      // One that never occurs (a last Sunday is never the 1st), so the structure checks are
      // compiled too; it is not one of NEVER, whose rules stay new to the process.
      "FREQ=MONTHLY;INTERVAL=2;BYDAY=-1SU;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0;BYSETPOS=1",
    ]
  ) {
    const warm = { rrule, time_zone: "Asia/Shanghai" };
    calls.push({ name: "schedule_create", args: JSON.stringify({ prompt: "warm", repeat: warm }) });
  }
  calls.push({ name: "schedule_list", args: "{}" });
  calls.push({ name: "", args: "" }); // the warm-up turn ends here
  for (const rule of NEVER) {
    const repeat = {
      rrule: rule.rrule,
      start: { date: rule.date, time: rule.time },
      time_zone: rule.zone,
    };
    calls.push({ name: "schedule_create", args: JSON.stringify({ prompt: "never", repeat }) });
  }
  calls.push({
    name: "schedule_update",
    args: JSON.stringify({
      id: SERIES_ID,
      // From a whole hour, a 2-minute step reaches only even minutes.
      repeat: {
        rrule: "FREQ=MINUTELY;INTERVAL=2;BYMINUTE=3",
        start: { date: "2030-01-01", time: "09:00" },
        time_zone: "Asia/Shanghai",
      },
    }),
  });
  calls.push({
    name: "schedule_create",
    args: `{"prompt":"deep","repeat":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
  });
  calls.push({ name: "schedule_list", args: "{}" });
  let step = 0;
  const model = new ScriptedModel(() => {
    const call = calls[step];
    step++;
    if (call?.name === "") return { text: "warmed" };
    return call === undefined
      ? { text: "done" }
      : { text: "", toolCalls: [{ id: `c${step}`, name: call.name, arguments: call.args }] };
  });
  await using runtime = await fileRuntime(dir, model);
  const app = createApp(runtime);
  const { session } = await runtime.create({ timeZone: "Asia/Shanghai" });
  session.append("schedule/change", { version: 2, op: "create", record: SERIES });
  await runtime.store.flush(session);
  const id = session.id;
  const base = `/api/sessions/${id}`;

  // Warm the code paths once (module loading and JIT are not what is measured), with rules
  // that occur.
  await app.request(`${base}/reminders`);
  await app.request(`/api/sessions`);
  const warmed = await app.request(
    `${base}/messages`,
    postJson({ text: "warm up", clientTimeZone: "Asia/Shanghai" }),
  );
  assert.equal(warmed.status, 202);
  await (await runtime.agentFor(runtime.store.live(id)!)).whenIdle();

  const beat = heartbeat();
  const blocks: string[] = [];
  const figures: string[] = [];
  const measure = async (what: string, run: () => Promise<unknown>) => {
    beat.take();
    await run();
    await new Promise((resolve) => setTimeout(resolve, 5)); // let the last tick land
    const worst = beat.take();
    figures.push(`${what}: ${worst.cpuMs.toFixed(1)} ms CPU (${worst.wallMs.toFixed(1)} ms wall)`);
    if (worst.cpuMs > LIMIT_MS) blocks.push(figures.at(-1)!);
  };
  try {
    await measure("the tools' worst inputs, one turn", async () => {
      const sent = await app.request(
        `${base}/messages`,
        postJson({ text: "go", clientTimeZone: "Asia/Shanghai" }),
      );
      assert.equal(sent.status, 202);
      await (await runtime.agentFor(runtime.store.live(id)!)).whenIdle();
    });
    for (const rule of NEVER.slice(0, 3)) {
      await measure(`the page's edit to ${rule.rrule}`, async () => {
        const answer = await app.request(
          `${base}/reminders/${SERIES_ID}/update`,
          postJson({ repeat: { rrule: rule.rrule.replace("BYHOUR=", "BYHOUR=1,") } }),
        );
        assert.equal(answer.status, 400);
        assert.equal((await answer.json()).error.code, "rule_never_occurs");
      });
    }
    await measure("the longest message", async () => {
      const sent = await app.request(
        `${base}/messages`,
        postJson({ text: "提".repeat(32_768), clientTimeZone: "Asia/Shanghai" }),
      );
      assert.equal(sent.status, 202);
      await (await runtime.agentFor(runtime.store.live(id)!)).whenIdle();
    });
    await measure("the longest history page", async () => {
      const page = await app.request(`${base}/history?limit=500`);
      assert.equal(page.status, 200);
      await page.body?.cancel();
    });
    await measure("the lists", async () => {
      for (const path of [`${base}/reminders`, "/api/sessions", `${base}/reminders/x/history`]) {
        await (await app.request(path)).body?.cancel();
      }
    });
  } finally {
    beat.stop();
  }
  // The tools refused each rule as it should, by code.
  const all = runtime.store.live(id)!.events().filter((e) => e.type === "tool/result")
    .map((e) => (e.data as { result: { ok: boolean; error?: { code: string } } }).result);
  const warmCalls = calls.findIndex((c) => c.name === "");
  // The warm-up turn's creates took (their rules occur) but the last, then its list.
  assert.deepEqual(
    all.slice(0, warmCalls).map((r) => r.error?.code ?? "ok"),
    [...Array(warmCalls - 2).fill("ok"), "rule_never_occurs", "ok"],
  );
  const results = all.slice(warmCalls);
  assert.deepEqual(
    results.slice(0, NEVER.length).map((r) => r.error?.code),
    NEVER.map(() => "rule_never_occurs"),
  );
  assert.equal(results[NEVER.length]?.error?.code, "rule_never_occurs", "the update");
  assert.equal(results[NEVER.length + 1]?.error?.code, "invalid_arguments", "10,000 deep");
  console.log(figures.join("\n"));
  assert.deepEqual(blocks, [], blocks.join("\n"));
  await Deno.remove(dir, { recursive: true });
}

if (import.meta.main) await measure();
