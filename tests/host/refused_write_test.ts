/**
 * Issue 26 fault 7 on a real file store whose disk really fills up (a small tmpfs): a message
 * refused with `503` is never stored later, once space returns, while a retry of a refused
 * message with the same `Idempotency-Key` is stored exactly once. Before the fix the refused
 * batch stayed in the live session and a later flush committed it.
 *
 * Needs root (`mount -t tmpfs`); skipped, saying why, elsewhere.
 */
import assert from "node:assert/strict";
import { spawnServer } from "./_server.ts";

async function run(command: string, ...args: string[]): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(command, { args, stderr: "null" }).output();
    return success;
  } catch {
    return false;
  }
}

async function send(url: string, id: string, text: string, key?: string): Promise<Response> {
  return await fetch(`${url}/api/sessions/${id}/messages`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(key === undefined ? {} : { "idempotency-key": key }),
    },
    body: JSON.stringify({ text, clientTimeZone: "UTC" }),
  });
}

type Stored = { type: string; data: { text?: string; outcome?: string } };

async function history(url: string, id: string): Promise<Stored[]> {
  const response = await fetch(`${url}/api/sessions/${id}/history?limit=500`);
  assert.equal(response.status, 200);
  return (await response.json()).events;
}

/** Waits (a deadline, not a timed assertion) until the stored log satisfies `done`. */
async function until(url: string, id: string, done: (events: Stored[]) => boolean) {
  for (let i = 0; i < 400; i++) {
    if (done(await history(url, id))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the stored log never got there within 20 s");
}

/** Fills the file system of `dir` until a write fails with ENOSPC. */
async function fill(dir: string): Promise<string> {
  const path = `${dir}/filler`;
  const file = await Deno.open(path, { write: true, create: true });
  const chunk = new Uint8Array(64 * 1024);
  try {
    for (;;) await file.write(chunk);
  } catch (error) {
    assert.match(String(error), /No space left|ENOSPC|os error 28/);
  } finally {
    file.close();
  }
  return path;
}

const turnEnds = (n: number) => (events: Stored[]) =>
  events.filter((e) => e.type === "turn/end").length >= n;

Deno.test("a message refused on a full disk is never stored later; its retry is stored once", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "chime-full-" });
  if (Deno.uid() !== 0 || !await run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", dir)) {
    await t.step({ name: "skipped: cannot mount a small tmpfs here", ignore: true, fn() {} });
    await Deno.remove(dir);
    return;
  }
  try {
    let id = "";
    {
      await using server = await spawnServer(dir);
      const created = await fetch(`${server.url}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ timeZone: "UTC" }),
      });
      id = (await created.json()).header.id;
      assert.equal((await send(server.url, id, "first")).status, 202);
      await until(server.url, id, turnEnds(1));

      const filler = await fill(dir);
      const big = "x".repeat(30_000);
      const refused = await send(server.url, id, `refused ${big}`, "key-refused");
      assert.equal(refused.status, 503, await refused.clone().text());
      assert.equal((await refused.json()).error.code, "persistence_failed");
      const retried = await send(server.url, id, `retried ${big}`, "key-retried");
      assert.equal(retried.status, 503);
      await retried.body?.cancel();

      await Deno.remove(filler); // space returns
      assert.equal((await send(server.url, id, "after")).status, 202);
      const again = await send(server.url, id, `retried ${big}`, "key-retried");
      assert.equal(again.status, 202, await again.clone().text());
      await again.body?.cancel();
      const stored = (await history(server.url, id)).filter((e) => e.type === "user-rpc");
      assert.deepEqual(stored.map((e) => e.data.text!.split(" ")[0]), [
        "first",
        "after",
        "retried",
      ]);
      assert.equal(await server.stop("SIGTERM"), 0, server.output());
    }
    await using restarted = await spawnServer(dir);
    const texts = (await history(restarted.url, id))
      .filter((e) => e.type === "user-rpc").map((e) => e.data.text!.split(" ")[0]);
    assert.deepEqual(texts, ["first", "after", "retried"], "the refused one never, the retry once");
  } finally {
    await run("umount", dir);
    await Deno.remove(dir, { recursive: true });
  }
});
