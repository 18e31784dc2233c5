/**
 * `201` of `POST /api/sessions` means the header is stored (README "HTTP API"): a real host is
 * SIGKILLed the moment the `201` status arrives, 20 times, and every acknowledged session is
 * found after the restart.
 */
import assert from "node:assert/strict";
import { LibsqlBackend } from "@chime/session";
import { spawnServer } from "../host/_server.ts";

const KILLS = 20;
const LANES = 2;

async function lane(lane: number): Promise<{ dir: string; ids: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "chime-create-kill-" });
  const ids: string[] = [];
  for (let i = 0; i < KILLS / LANES; i++) {
    const server = await spawnServer(dir);
    try {
      const id = `k${lane}-${i}`;
      const response = await fetch(`${server.url}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ timeZone: "Asia/Kolkata", id }),
      });
      // Killed on the status line, before the body is even read.
      await server.stop("SIGKILL");
      assert.equal(response.status, 201);
      await response.body?.cancel();
      ids.push(id);
    } finally {
      await server.stop("SIGKILL");
    }
  }
  return { dir, ids };
}

Deno.test(`a session acknowledged with 201 survives a SIGKILL right after it (${KILLS} of ${KILLS})`, async () => {
  const lanes = await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
  try {
    let found = 0;
    for (const { dir, ids } of lanes) {
      await using backend = await LibsqlBackend.open({ url: `file:${dir}/chime.db` });
      for (const id of ids) {
        const cursor = await backend.cursor(id);
        if (cursor?.header.timeZone === "Asia/Kolkata") found++;
      }
    }
    assert.equal(found, KILLS);
  } finally {
    for (const { dir } of lanes) await Deno.remove(dir, { recursive: true });
  }
});
