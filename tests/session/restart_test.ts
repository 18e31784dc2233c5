/**
 * Restart lanes (docs/architecture.md#done): a real child process appends and flushes, is killed
 * with SIGKILL, and a fresh store finds every acknowledged event exactly once.
 */
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { SessionStore } from "../../session/store.ts";
import { JsonLineChild } from "../_child.ts";
import { type BackendKind, openBackend, runnable, storageUrl, tempDir } from "./_helpers.ts";

const WRITER = fromFileUrl(new URL("./_restart_writer.ts", import.meta.url));
const CONFIG = fromFileUrl(new URL("../../deno.json", import.meta.url));

async function killAfterAcks(kind: BackendKind, dir: string, acks: number): Promise<number[]> {
  const url = kind === "postgres" ? [await storageUrl(kind, dir)] : [];
  await using child = new JsonLineChild<number>(WRITER, [kind, dir, ...url], {
    flags: ["--config", CONFIG],
  });
  await child.waitFor((seen) => seen.length >= acks, `${acks} acknowledged seqs`, 60_000);
  const status = await child.kill("SIGKILL");
  assert.equal(status.signal, "SIGKILL");
  return child.lines;
}

for (const kind of runnable(["libsql", "libsql-shared", "jsonl", "postgres"] as const)) {
  Deno.test(`a SIGKILLed ${kind} writer loses no acknowledged event`, async () => {
    await using dir = await tempDir();
    const acked = await killAfterAcks(kind, dir.path, 40);
    assert.ok(acked.length >= 40);
    if (kind === "jsonl") {
      // The kill rarely lands inside write(2); model the torn tail such a crash leaves behind.
      await Deno.writeTextFile(`${dir.path}/jsonl/lane.jsonl`, '{"seq":99999,"ty', {
        append: true,
      });
    }
    await using store = new SessionStore({ backend: await openBackend(kind, dir.path) });
    const session = await store.resume("lane");
    const seqs = session.events().map((e) => e.seq);
    assert.deepEqual(seqs, [...seqs.keys()], "dense, each seq exactly once");
    for (const seq of acked) assert.ok(seq < session.length, `acknowledged seq ${seq} survived`);
    assert.equal(session.header.timeZone, "Europe/Berlin");
    store.append(session, "note", { after: "restart" });
    assert.equal(await store.flush(session), true);
    if (kind === "jsonl") {
      const torn = await Deno.readTextFile(`${dir.path}/jsonl/lane.jsonl.torn-1`);
      assert.equal(torn, '{"seq":99999,"ty');
    }
  });
}
