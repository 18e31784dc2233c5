import assert from "node:assert/strict";
import { JsonlBackend } from "./jsonl_backend.ts";
import { headerLine } from "./_jsonl_format.ts";
import { SessionError } from "../errors.ts";
import { ev, evs, header, tempDir } from "../../tests/session/_helpers.ts";

const code = (c: string) => (e: unknown) => e instanceof SessionError && e.code === c;

Deno.test("`JsonlBackend` writes a header line then one line per event", async () => {
  await using dir = await tempDir();
  await using backend = await JsonlBackend.open({ dir: `${dir.path}/new/nested` });
  await backend.initialize(header("s", { timeZone: "Asia/Calcutta" }), evs(0, 2));
  await backend.append("s", [ev(2)]);
  await backend.append("s", []);
  const lines = (await Deno.readTextFile(`${dir.path}/new/nested/s.jsonl`)).split("\n");
  assert.equal(lines.length, 5);
  assert.equal(JSON.parse(lines[0]!).timeZone, "Asia/Calcutta");
  const { crc, ...line } = JSON.parse(lines[3]!);
  assert.deepEqual(line, ev(2));
  assert.equal(typeof crc, "number", "each event line carries its checksum");
  assert.equal(lines[4], "");
  const names = [...Deno.readDirSync(`${dir.path}/new/nested`)].map((e) => e.name);
  assert.deepEqual(names.sort(), ["chime-jsonl.json", "s.jsonl"]);
});

Deno.test("`JsonlBackend` round-trips a header without timeZone and reads restarts", async () => {
  await using dir = await tempDir();
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    await backend.initialize(header("plain"), evs(0, 3));
  }
  const line = (await Deno.readTextFile(`${dir.path}/plain.jsonl`)).split("\n")[0]!;
  assert.equal("timeZone" in JSON.parse(line), false);
  await using backend = await JsonlBackend.open({ dir: dir.path });
  const stored = await backend.load("plain");
  assert.deepEqual(stored, { header: header("plain"), events: evs(0, 3) });
  await backend.append("plain", [ev(3)]);
  assert.equal((await backend.cursor("plain"))?.length, 4);
});

Deno.test("`JsonlBackend` reads a missing delegationDepth as 0", async () => {
  await using dir = await tempDir();
  const { delegationDepth: _, ...legacy } = header("legacy");
  await Deno.writeTextFile(`${dir.path}/legacy.jsonl`, JSON.stringify(legacy) + "\n");
  await using backend = await JsonlBackend.open({ dir: dir.path });
  assert.equal((await backend.load("legacy"))?.header.delegationDepth, 0);
  assert.equal((await backend.list())[0]?.delegationDepth, 0);
});

Deno.test("`JsonlBackend` refuses ids that could escape its directory", async () => {
  await using dir = await tempDir();
  await using backend = await JsonlBackend.open({ dir: dir.path });
  for (const id of ["../../evil", "a/b", "", "x".repeat(65)]) {
    await assert.rejects(backend.initialize(header(id), []), code("invalid_session_id"));
    await assert.rejects(backend.load(id), code("invalid_session_id"));
  }
});

Deno.test("`JsonlBackend` enforces existence and seq contiguity", async () => {
  await using dir = await tempDir();
  await using backend = await JsonlBackend.open({ dir: dir.path });
  await backend.initialize(header("s"), evs(0, 1));
  await assert.rejects(backend.initialize(header("s"), []), code("session_exists"));
  await assert.rejects(backend.initialize(header("t"), [ev(1)]), code("invalid_seq"));
  await assert.rejects(backend.append("s", [ev(2)]), code("invalid_seq"));
  await assert.rejects(backend.append("s", [ev(1), ev(3)]), code("invalid_seq"));
  await assert.rejects(backend.append("nobody", [ev(0)]), code("session_not_found"));
  assert.deepEqual([...Deno.readDirSync(dir.path)].map((e) => e.name).sort(), [
    "chime-jsonl.json",
    "s.jsonl",
  ]);
  assert.equal(await backend.cursor("nobody"), undefined);
});

Deno.test("`JsonlBackend` sets a torn last line aside without losing complete lines", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/t.jsonl`;
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    await backend.initialize(header("t"), evs(0, 2));
  }
  const complete = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, '{"seq":2,"type":"no', { append: true });
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    assert.deepEqual((await backend.load("t"))?.events, evs(0, 2));
    assert.equal(await Deno.readTextFile(path), complete);
    assert.equal(await Deno.readTextFile(`${path}.torn-1`), '{"seq":2,"type":"no');
    await backend.append("t", [ev(2)]);
  }
  await Deno.writeFile(path, new Uint8Array([0, 0, 0]), { append: true });
  await using backend = await JsonlBackend.open({ dir: dir.path });
  assert.equal((await backend.cursor("t"))?.length, 3);
  assert.deepEqual(await Deno.readFile(`${path}.torn-2`), new Uint8Array([0, 0, 0]));
});

Deno.test("`JsonlBackend` reports a damaged complete line as `storage_corrupt` with its seq", async () => {
  await using dir = await tempDir();
  const h = (id: string) => JSON.stringify(header(id));
  const bad = new TextEncoder().encode(
    `${h("utf8")}\n{"seq":0,"type":"note","at":"x","data":"\xff"}\n`,
  );
  bad[bad.lastIndexOf(0x22) - 1] = 0xff; // an invalid UTF-8 byte inside a complete line
  const files: Record<string, string | Uint8Array> = {
    c: `${h("c")}\nnot json\n${JSON.stringify(ev(1))}\n`,
    gap: `${h("gap")}\n${JSON.stringify(ev(1))}\n`,
    envelope: `${h("envelope")}\n{"seq":0}\n`,
    utf8: bad,
    empty: "",
    head: `{"id":"head"}\n`,
    other: `${h("c")}\n`,
  };
  for (const [id, content] of Object.entries(files)) {
    const path = `${dir.path}/${id}.jsonl`;
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
  await Deno.mkdir(`${dir.path}/dir.jsonl`);
  await using backend = await JsonlBackend.open({ dir: dir.path });
  const expected: Record<string, number | undefined> = {
    c: 0,
    gap: 0,
    envelope: 0,
    utf8: 0,
    empty: undefined,
    head: undefined,
    other: undefined,
  };
  for (const [id, seq] of Object.entries(expected)) {
    const error = await backend.load(id).then(() => undefined, (e) => e);
    assert.ok(error instanceof SessionError && error.code === "storage_corrupt", id);
    assert.equal(error.details.sessionId, id);
    assert.equal(error.details.seq, seq, id);
  }
  await assert.rejects(backend.load("dir"));
  // The damaged files are left out of the list; the upgrade to format 3 gave the readable
  // headers their checksum and kept every damaged line byte for byte.
  assert.deepEqual((await backend.list()).map((x) => x.id).sort(), [
    "c",
    "envelope",
    "gap",
    "utf8",
  ]);
  const damaged = bad.subarray(bad.indexOf(0x0a) + 1);
  const stored = await Deno.readFile(`${dir.path}/utf8.jsonl`);
  assert.deepEqual(stored.subarray(stored.indexOf(0x0a) + 1), damaged);
  assert.equal(await Deno.readTextFile(`${dir.path}/head.jsonl`), `{"id":"head"}\n`);
  assert.equal(await Deno.readTextFile(`${dir.path}/other.jsonl`), `${h("c")}\n`);
});

Deno.test("`JsonlBackend.list()` reads only header lines, newest first", async () => {
  await using dir = await tempDir();
  await using backend = await JsonlBackend.open({ dir: dir.path });
  await backend.initialize(header("old", { createdAt: "2025-01-01T00:00:00.000Z" }), []);
  const big = header("big", { cwd: "/".repeat(10_000) });
  await Deno.writeTextFile(`${dir.path}/big.jsonl`, headerLine(big) + "garbage that is never read");
  await Deno.writeTextFile(`${dir.path}/nonl.jsonl`, headerLine(header("nonl")).trimEnd());
  await Deno.writeTextFile(`${dir.path}/notes.txt`, "ignored");
  await Deno.writeTextFile(`${dir.path}/bad id.jsonl`, "ignored");
  await Deno.mkdir(`${dir.path}/sub.jsonl`);
  const ids = (await backend.list()).map((h) => h.id);
  assert.deepEqual(ids, ["big", "nonl", "old"]);
});

Deno.test("`JsonlBackend.readEvents()` pages by seq bounds", async () => {
  await using dir = await tempDir();
  await using backend = await JsonlBackend.open({ dir: dir.path });
  await backend.initialize(header("p"), evs(0, 20));
  const seqs = async (page: Parameters<typeof backend.readEvents>[1]) =>
    (await backend.readEvents("p", page)).map((e) => e.seq);
  assert.deepEqual(await seqs({ before: 10, limit: 3 }), [7, 8, 9]);
  assert.deepEqual(await seqs({ after: 10, limit: 3 }), [11, 12, 13]);
  assert.deepEqual(await seqs({ before: 10, limit: 0 }), []);
  assert.equal((await seqs(undefined)).length, 20);
  assert.deepEqual(await backend.readEvents("nobody"), []);
  await assert.rejects(backend.readEvents("p", { limit: 1.5 }), RangeError);
});

Deno.test("`JsonlBackend` serializes concurrent appends of one session", async () => {
  await using dir = await tempDir();
  await using backend = await JsonlBackend.open({ dir: dir.path });
  await backend.initialize(header("c"), []);
  await Promise.all(Array.from({ length: 20 }, (_, i) => backend.append("c", [ev(i)])));
  assert.deepEqual((await backend.load("c"))?.events, evs(0, 20));
});

Deno.test("`JsonlBackend.open()` refuses a folder another handle is writing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await JsonlBackend.open({ dir });
    await assert.rejects(
      () => JsonlBackend.open({ dir }),
      (e) => e instanceof SessionError && e.code === "storage_in_use",
    );
    await first[Symbol.asyncDispose]();
    // Released with the first handle; the lock file is not mistaken for a session.
    await using again = await JsonlBackend.open({ dir });
    assert.deepEqual(await again.list(), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
