/**
 * Issue 26 fault 2 against a real host process on a real libSQL file: the `-wal`, or the
 * database itself, removed under the running host. Before the fix the `202`s went on and a
 * restart lost every write since the last checkpoint; now no write after the loss is answered
 * `2xx` (`503 storage_lost`), `/readyz` answers `503`, stderr says so once and names the rescue
 * copy, and a host started on that copy holds every acknowledged message exactly once.
 */
import assert from "node:assert/strict";
import { spawnServer } from "./_server.ts";
import { tempDir } from "../session/_helpers.ts";

const ZONE = { clientTimeZone: "UTC" };

async function send(url: string, id: string, text: string): Promise<Response> {
  return await fetch(`${url}/api/sessions/${id}/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text, ...ZONE }),
  });
}

/** Waits (no fixed sleep as an assertion: a deadline only) until `output()` matches. */
async function waitForOutput(output: () => string, pattern: RegExp, what: string) {
  for (let i = 0; i < 400; i++) {
    const match = output().match(pattern);
    if (match !== null) return match;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${what} within 20 s; output:\n${output()}`);
}

for (const file of ["-wal", ""]) {
  const name = file === "" ? "the database" : "the `-wal`";
  Deno.test(`${name} removed under a running host: 503 storage_lost, /readyz 503, the rescue copy keeps every acknowledged message`, async () => {
    await using dir = await tempDir();
    const db = `${dir.path}/chime.db`;
    let id = "";
    const acknowledged: string[] = [];
    let rescued = "";
    {
      await using server = await spawnServer(dir.path);
      const created = await fetch(`${server.url}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ timeZone: "UTC" }),
      });
      assert.equal(created.status, 201);
      id = ((await created.json()).header as { id: string }).id;
      for (let i = 0; i < 3; i++) {
        const answer = await send(server.url, id, `before ${i}`);
        assert.equal(answer.status, 202);
        acknowledged.push((await answer.json()).messageId);
      }
      const ready = await fetch(`${server.url}/readyz`);
      assert.deepEqual([ready.status, await ready.json()], [200, { ready: true }]);

      await Deno.remove(`${db}${file}`);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const answer = await send(server.url, id, `after ${i}`);
        statuses.push(answer.status);
        const body = await answer.json();
        if (answer.ok) acknowledged.push(body.messageId);
        else assert.equal(body.error.code, "storage_lost", JSON.stringify(body));
      }
      assert.deepEqual(statuses, [503, 503, 503, 503], "no 2xx once the files are gone");
      const notReady = await fetch(`${server.url}/readyz`);
      assert.equal(notReady.status, 503);
      const state = await notReady.json();
      assert.equal(state.ready, false);
      assert.match(
        state.reasons[0],
        /^Cannot write: the (database|write-ahead log) .* was removed/,
      );
      const line = await waitForOutput(
        server.output,
        /storage_lost: .*? Every write the host acknowledged is in (\S+?): stop/,
        "storage_lost line",
      );
      rescued = line[1]!;
      assert.equal(server.output().split("Every write the host acknowledged").length, 2, "once");
      // The refused writes were withdrawn (the session turned cold unstored): nothing is left
      // to flush at shutdown.
      assert.equal(await server.stop("SIGTERM"), 0, server.output());
    }
    // The operator puts the rescue copy back and starts the host again.
    for (const side of ["", "-wal", "-shm"]) await Deno.remove(`${db}${side}`).catch(() => {});
    await Deno.rename(rescued, db);
    await using again = await spawnServer(dir.path);
    const history = await (await fetch(`${again.url}/api/sessions/${id}/history?limit=500`)).json();
    const sent = (history.events as { type: string; data: { messageId: string } }[])
      .filter((e) => e.type === "user-rpc").map((e) => e.data.messageId);
    assert.deepEqual(sent, acknowledged, "every acknowledged message, once, in order");
  });
}
