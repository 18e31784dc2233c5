/**
 * Fencing with real processes (docs/deploy.md): A owns a session with a reminder due while A is
 * paused (SIGSTOP) past its lease; B takes the session over and delivers the reminder; A is
 * resumed (SIGCONT) with an overdue reminder timer and a stale lease. Whatever A tries first
 * (its renewal or the overdue dispatch), the storage fence refuses its appends: the log holds
 * exactly B's one dispatch, and A answers 409 with B's URL.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  assertElsewhere,
  createStored,
  durableEvents,
  scheduleOps,
  send,
  sharedConfig,
  sharedStorages,
  spawnHost,
  streamDispatch,
  TTL_SECONDS,
  until,
} from "./_hosts.ts";

const ZONE = "Europe/Paris";

for (const storage of sharedStorages()) {
  Deno.test({
    name: `${storage}: ` +
      "a paused owner resumed after a take-over cannot append (SIGSTOP/SIGCONT)",
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const dir = await Deno.makeTempDir({ prefix: "chime-fence-" });
      const config = await sharedConfig(dir, TTL_SECONDS, {}, storage);
      await using a = await spawnHost(dir, config);
      await using b = await spawnHost(dir, config);
      let stopped = false;
      try {
        const id = ((await send(`${a.url}/api/sessions`, { timeZone: ZONE })).body.header as {
          id: string;
        }).id;
        assert.equal(
          (await send(`${a.url}/api/sessions/${id}/messages`, {
            text: "remind me in 4 seconds to stretch",
            clientTimeZone: ZONE,
          })).status,
          202,
        );
        await createStored(b.url, id);
        Deno.kill(a.pid, "SIGSTOP");
        stopped = true;
        await until(
          async () => {
            const answer = await send(`${b.url}/api/sessions/${id}/resume`);
            return answer.status === 200 ? true : undefined;
          },
          // A deadline, not a wait: generous because a loaded machine (the whole suite on 2
          // cores) once needed more than 10 s past the TTL for B's take-over.
          30_000 + TTL_SECONDS * 1000,
          "B to take the session",
        );
        await streamDispatch(b.url, id, 15_000);
        const before = await durableEvents(b.url, id);
        Deno.kill(a.pid, "SIGCONT");
        stopped = false;
        // A notices (its renewal fails or an append is refused) and points at B.
        await until(
          async () => {
            const answer = await send(`${a.url}/api/sessions/${id}/messages`, {
              text: "late",
              clientTimeZone: ZONE,
            });
            if (answer.status === 202) throw new Error("A wrote after losing its lease");
            assertElsewhere(answer, b.url);
            return true;
          },
          10_000,
          "A to answer 409",
        );
        const after = await durableEvents(b.url, id);
        assert.equal(scheduleOps(after, "dispatch").length, 1);
        assert.deepEqual(after.slice(0, before.length), before);
      } finally {
        if (stopped) Deno.kill(a.pid, "SIGCONT");
        await a.stop("SIGKILL");
        await b.stop("SIGKILL");
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
