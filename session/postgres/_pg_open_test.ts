import assert from "node:assert/strict";
import { postgresLanes, sharedPostgres } from "../../tests/_postgres.ts";
import { IDLE_IN_TRANSACTION_MS, openPool } from "./_pg_open.ts";

const SETTINGS = { poolSize: 1, statementTimeoutMs: 0, connectTimeoutSeconds: 10 };

if (postgresLanes()) {
  // The hosts' pools end a transaction left idle (a paused host's lease locks); the doctor's
  // long read-only snapshot, with its own work between pages, must not be ended that way: a
  // soak on a busy machine lost its doctor scan to it (`CONNECTION_CLOSED`).
  Deno.test("a pool idle in a transaction has the hosts' limit by default and none with idleInTransactionMs 0", async () => {
    const url = await (await sharedPostgres()).database("idle");
    const pause = () =>
      new Promise((resolve) => setTimeout(resolve, IDLE_IN_TRANSACTION_MS + 1_500));
    const hosts = openPool({ ...SETTINGS, url });
    const doctor = openPool({ ...SETTINGS, url, idleInTransactionMs: 0 });
    try {
      const [set] = await hosts`SHOW idle_in_transaction_session_timeout`;
      assert.equal(set!.idle_in_transaction_session_timeout, `${IDLE_IN_TRANSACTION_MS / 1_000}s`);
      const [row] = await doctor.begin("isolation level repeatable read read only", async (tx) => {
        await tx`SELECT 1`;
        await pause();
        return await tx`SHOW idle_in_transaction_session_timeout`;
      });
      assert.equal(row!.idle_in_transaction_session_timeout, "0");
    } finally {
      await Promise.all([hosts.end({ timeout: 1 }), doctor.end({ timeout: 1 })]);
    }
  });
}
