/**
 * `deno task doctor` decodes and folds every stored `schedule/change` with the schedule plugin's
 * log check (README "Failure behaviour"): a change that is valid JSON but not a valid change is
 * reported by session and seq, in a real libSQL file and a real JSONL folder; a clean session
 * is not reported.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type PersistenceBackend, SessionStore } from "@chime/session";
import { JsonlBackend } from "@chime/session/jsonl";
import { LibsqlBackend } from "@chime/session/libsql";
import { postgresDriver } from "@chime/session/postgres";
import { scheduleLogCheck } from "@chime/schedule";
import { postgresLanes, sharedPostgres } from "../_postgres.ts";

const DOCTOR = new URL("../../host/doctor.ts", import.meta.url).pathname;
const AT = "2030-01-01T00:00:00.000Z";

async function doctor(path: string): Promise<{ code: number; lines: string[] }> {
  const { code, stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", DOCTOR, path],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return { code, lines: new TextDecoder().decode(stdout).trim().split("\n") };
}

/** A session with a good reminder, a damaged change, a fork, and a clean session. */
async function fill(backend: PersistenceBackend): Promise<{ id: string; seq: number }> {
  await using store = new SessionStore({ backend });
  const clean = await store.create({ cwd: "/" });
  clean.append("schedule/change", {
    version: 1,
    op: "create",
    record: { id: "sch_Clean1234567", kind: "at", prompt: "ok", scheduledAt: AT },
  });
  await store.flush(clean);
  const session = await store.create({ cwd: "/" });
  session.append("schedule/change", {
    version: 1,
    op: "create",
    record: { id: "sch_GoodGood1234", kind: "at", prompt: "stretch", scheduledAt: AT },
  });
  const bad = session.append("schedule/change", { version: 1, op: "dispatch", id: 42 });
  await store.flush(session);
  // A fork copies the damaged change into its inherited prefix: reported there too.
  const child = await store.fork(session);
  await store.flush(child);
  return { id: session.id, seq: bad.seq };
}

for (const kind of ["libsql", "jsonl"] as const) {
  Deno.test(`the doctor reports a damaged schedule/change in a ${kind} store by seq`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "chime-doctor-schedule-" });
    const path = kind === "libsql" ? `${dir}/chime.db` : dir;
    const backend = kind === "libsql"
      ? await LibsqlBackend.open({ url: `file:${path}` })
      : await JsonlBackend.open({ dir: path });
    const { id, seq } = await fill(backend);
    const { code, lines } = await doctor(path);
    assert.equal(code, 1, lines.join("\n"));
    const damage = lines.filter((line) => line.startsWith("damage:"));
    // The parent's damaged dispatch, and the fork's copy of it in its inherited prefix.
    assert.equal(damage.length, 2, lines.join("\n"));
    assert.match(
      damage.join("\n"),
      new RegExp(`session ${id} seq ${seq}: schedule/change refused`),
    );
    assert.match(lines.at(-1)!, /2 damaged$/);
    await Deno.remove(dir, { recursive: true });
  });
}

if (postgresLanes()) {
  Deno.test("--check-storage runs the schedule log check on PostgreSQL too", async () => {
    const url = await (await sharedPostgres()).database("doctor_schedule");
    const context = { file: "test", baseDir: "/" };
    const settings = postgresDriver.parse({ kind: "postgres", url }, context);
    let target: { id: string; seq: number };
    {
      await using backend = await postgresDriver.open(settings, {});
      target = await fill(backend);
    }
    const report = await postgresDriver.check!(settings, { logChecks: [scheduleLogCheck] });
    const damage = report.damage.map((d) => [d.sessionId, d.seq, d.what.split(":")[0]]);
    assert.deepEqual(damage.filter(([id]) => id === target.id), [
      [target.id, target.seq, "schedule/change refused"],
    ]);
    assert.equal(damage.length, 2, "the parent's change and the fork's copy");
  });
}
