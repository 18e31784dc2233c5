/**
 * Restart lanes (ARCHITECTURE.md §7): a real child process appends and flushes, is killed with
 * SIGKILL, and a fresh store finds every acknowledged event exactly once.
 */
import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";
import { SessionStore } from "../../session/store.ts";
import { type BackendKind, openBackend, tempDir } from "./_helpers.ts";

const WRITER = fromFileUrl(new URL("./_restart_writer.ts", import.meta.url));
const CONFIG = fromFileUrl(new URL("../../deno.json", import.meta.url));

async function killAfterAcks(kind: BackendKind, dir: string, acks: number): Promise<number[]> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, WRITER, kind, dir],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const seen: number[] = [];
  let buffer = "";
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  while (seen.length < acks) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    seen.push(...lines.map(Number));
  }
  child.kill("SIGKILL");
  await reader.cancel();
  const status = await child.status;
  assert.equal(status.signal, "SIGKILL");
  return seen;
}

for (const kind of ["libsql", "jsonl"] as const) {
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
