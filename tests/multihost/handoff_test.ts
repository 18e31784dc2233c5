/**
 * Hand-off without polling on PostgreSQL (docs/deploy.md "N hosts on PostgreSQL"): B answered
 * `409` for a session A owns; A shuts down cleanly (SIGTERM releases its leases with `NOTIFY
 * chime_lease_released`); B takes the session at once on that hint, with no further request,
 * and the session's reminder fires on B when due.
 *
 * @module
 */
import assert from "node:assert/strict";
import { postgresLanes } from "../_postgres.ts";
import {
  assertElsewhere,
  createStored,
  durableEvents,
  scheduleOps,
  send,
  sharedConfig,
  spawnHost,
  until,
} from "./_hosts.ts";

const ZONE = "Europe/Paris";

if (postgresLanes()) {
  Deno.test({
    name:
      "postgres: a clean shutdown hands a session to the host that asked for it, no request needed",
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const dir = await Deno.makeTempDir({ prefix: "chime-handoff-" });
      // A long TTL: only the release (and its NOTIFY) can free the session in time.
      const config = await sharedConfig(dir, 60, {}, "postgres");
      await using a = await spawnHost(dir, config);
      await using b = await spawnHost(dir, config);
      try {
        const id = ((await send(`${a.url}/api/sessions`, { timeZone: ZONE })).body.header as {
          id: string;
        }).id;
        const sent = await send(`${a.url}/api/sessions/${id}/messages`, {
          text: "remind me in 6 seconds to stretch",
          clientTimeZone: ZONE,
        });
        assert.equal(sent.status, 202);
        await createStored(b.url, id);
        assertElsewhere(await send(`${b.url}/api/sessions/${id}/resume`), a.url);
        assert.equal(await a.stop("SIGTERM"), 0);
        // Nothing asks B again: the dispatch shows up in the durable log (read-only route).
        const events = await until(
          async () => {
            const log = await durableEvents(b.url, id);
            return scheduleOps(log, "dispatch").length > 0 ? log : undefined;
          },
          30_000,
          "B to deliver the reminder",
        );
        assert.equal(scheduleOps(events, "dispatch").length, 1);
      } finally {
        await a.stop("SIGKILL");
        await b.stop("SIGKILL");
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
