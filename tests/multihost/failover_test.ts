/**
 * Leases and failover with real processes (docs/deploy.md): three hosts on one shared file
 * database. A session resumed on A answers 409 with A's URL on B and C; A is killed with a
 * reminder due in 5 s; once the lease expired B takes the session, rebuilds its owner from the
 * log and delivers the reminder once; A restarted cannot write.
 *
 * @module
 */
import assert from "node:assert/strict";
import { eventOf, raw } from "../host/_server.ts";
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
      "three hosts: 409 with the owner's URL, failover after the TTL delivers once, a restarted host cannot write",
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const dir = await Deno.makeTempDir({ prefix: "chime-multihost-" });
      const config = await sharedConfig(dir, TTL_SECONDS, {}, storage);
      await using a = await spawnHost(dir, config);
      await using b = await spawnHost(dir, config);
      await using c = await spawnHost(dir, config);
      try {
        const created = await send(`${a.url}/api/sessions`, { timeZone: ZONE });
        assert.equal(created.status, 201);
        const id = (created.body.header as { id: string }).id;
        assert.equal((await send(`${a.url}/api/sessions/${id}/resume`)).status, 200);
        for (const other of [b, c]) {
          assertElsewhere(await send(`${other.url}/api/sessions/${id}/resume`), a.url);
          assertElsewhere(
            await send(`${other.url}/api/sessions/${id}/messages`, {
              text: "hello",
              clientTimeZone: ZONE,
            }),
            a.url,
          );
        }
        const sent = await send(`${a.url}/api/sessions/${id}/messages`, {
          text: "remind me in 5 seconds to stretch",
          clientTimeZone: ZONE,
        });
        assert.equal(sent.status, 202);
        // Any host reads the durable log: the create is stored before A dies.
        await createStored(c.url, id);
        const killedAt = Date.now();
        await a.stop("SIGKILL");
        // B answers 409 (A's lease still in force) until it expires, then takes the session.
        const taken = await until(
          async () => {
            const answer = await send(`${b.url}/api/sessions/${id}/resume`);
            if (answer.status === 200) return Date.now();
            assertElsewhere(answer, a.url);
            return undefined;
          },
          10_000 + TTL_SECONDS * 1000,
          "B to take the session",
        );
        assert.ok(taken - killedAt >= 0);
        const seen = await streamDispatch(b.url, id, 15_000);
        assert.equal(seen.filter(raw).filter((x) => eventOf(x).data.op === "dispatch").length, 1);
        // C now points at B; the durable log holds exactly one dispatch.
        assertElsewhere(await send(`${c.url}/api/sessions/${id}/resume`), b.url);
        const log = await until(
          async () => {
            const events = await durableEvents(c.url, id);
            // Settled: the dispatch's turn has ended (nothing more of B's is on its way).
            const settled = scheduleOps(events, "dispatch").length > 0 &&
              events.at(-1)?.type === "turn/end";
            return settled ? events : undefined;
          },
          10_000,
          "the dispatch in the log",
        );
        assert.equal(scheduleOps(log, "dispatch").length, 1);
        // A restarted (a new process, a new host id) cannot write: B holds the lease.
        await using again = await spawnHost(dir, config);
        assertElsewhere(await send(`${again.url}/api/sessions/${id}/resume`), b.url);
        assertElsewhere(
          await send(`${again.url}/api/sessions/${id}/messages`, {
            text: "from the old host",
            clientTimeZone: ZONE,
          }),
          b.url,
        );
        const after = await durableEvents(c.url, id);
        assert.equal(after.length, log.length);
        assert.equal(scheduleOps(after, "dispatch").length, 1);
      } finally {
        for (const host of [a, b, c]) await host.stop("SIGKILL");
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
