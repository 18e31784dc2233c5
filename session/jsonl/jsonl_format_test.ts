/**
 * JSONL format 3 (`_jsonl_format.ts`): every header line carries its checksum, a damaged header
 * byte that still decodes is `storage_corrupt` for its session only, and format-1 and format-2
 * folders are upgraded in one open without laundering damage.
 *
 * @module
 */
import assert from "node:assert/strict";
import { JsonlBackend } from "./jsonl_backend.ts";
import { eventLine, headerLine } from "./_jsonl_format.ts";
import { readLog } from "./_jsonl_io.ts";
import { checkStorage } from "../doctor.ts";
import { headerChecksum } from "../_checksum.ts";
import { checkHeader } from "../_decode.ts";
import { normalizeHeader, type SessionHeader } from "../header.ts";
import { SessionError } from "../errors.ts";
import { ev, evs, header, sha256, tempDir } from "../../tests/session/_helpers.ts";

const MARKER = "chime-jsonl.json";

/** A `storage_corrupt` of the header of `sessionId` (no seq), optionally saying `what`. */
function headerDamage(sessionId: string, what?: string) {
  return (error: unknown) =>
    error instanceof SessionError && error.code === "storage_corrupt" &&
    error.details.sessionId === sessionId && error.details.seq === undefined &&
    (what === undefined || error.details.what === what);
}

async function marker(dir: string): Promise<unknown> {
  return JSON.parse(await Deno.readTextFile(`${dir}/${MARKER}`));
}

async function lines(path: string): Promise<string[]> {
  return (await Deno.readTextFile(path)).split("\n");
}

async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) out[entry.name] = await sha256(`${dir}/${entry.name}`);
  }
  return out;
}

/** A format-2 log as the previous host wrote it: a header line without `crc`, checked events. */
function format2Log(h: SessionHeader, count: number): string {
  return JSON.stringify(normalizeHeader(h)) + "\n" +
    evs(0, count).map((e) => eventLine(h.id, e)).join("");
}

Deno.test("a fresh JSONL folder is format 3: each header line ends with the header's checksum", async () => {
  await using dir = await tempDir();
  const zoned = header("a", { timeZone: "Europe/Berlin" });
  const child = header("child", {
    lineage: { parentId: "a", forkedThroughSeq: 1 },
    seedLength: 3,
    origin: "fork",
  });
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    await backend.initialize(zoned, evs(0, 3));
    await backend.fork(child, "a", 1, [ev(2)]);
    assert.deepEqual((await backend.load("child"))?.header, child);
  }
  assert.deepEqual(await marker(dir.path), { format: 3 });
  for (const h of [zoned, child]) {
    const [first, ...rest] = await lines(`${dir.path}/${h.id}.jsonl`);
    const { crc, ...stored } = JSON.parse(first!);
    assert.equal(crc, headerChecksum(h), h.id);
    assert.deepEqual(stored, normalizeHeader(h));
    assert.equal(first + "\n", headerLine(h), "the canonical header JSON, `crc` last");
    assert.ok(first!.startsWith(JSON.stringify(normalizeHeader(h)).slice(0, -1) + ',"crc":'));
    assert.equal(rest.length, 4, "then the event lines");
  }
  await using backend = await JsonlBackend.open({ dir: dir.path });
  assert.deepEqual((await backend.list()).map((h) => h.id).sort(), ["a", "child"]);
});

/** Where to flip one bit (XOR 0x01) of a header line: still valid JSON and a valid header. */
const HEADER_FLIPS: readonly [string, (line: string) => number][] = [
  ["a cwd character (`/work` → `/wosk`)", (line) => line.indexOf('"/work"') + 4],
  ["a createdAt digit (2026 → 2027)", (line) => line.indexOf('"2026-') + 4],
  ["the last digit of the stored crc", (line) => line.length - 2],
];

for (const [name, offset] of HEADER_FLIPS) {
  Deno.test(`JSONL: ${name} flipped in a header line is \`storage_corrupt\` for that session only`, async () => {
    await using dir = await tempDir();
    {
      await using backend = await JsonlBackend.open({ dir: dir.path });
      await backend.initialize(header("a"), evs(0, 2));
      await backend.initialize(header("b", { createdAt: "2026-02-01T00:00:00.000Z" }), evs(0, 2));
    }
    const path = `${dir.path}/a.jsonl`;
    const bytes = await Deno.readFile(path);
    const line = new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0x0a)));
    const at = offset(line);
    bytes[at] = bytes[at]! ^ 0x01;
    await Deno.writeFile(path, bytes);
    const flipped = JSON.parse(new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0x0a))));
    const { crc: _, ...fields } = flipped;
    // Still JSON and a valid header (checkHeader does not throw): only the checksum tells.
    checkHeader(fields, "a");
    const before = await hashes(dir.path);
    {
      await using backend = await JsonlBackend.open({ dir: dir.path });
      const damaged = headerDamage("a", "header checksum mismatch");
      await assert.rejects(backend.load("a"), damaged);
      await assert.rejects(backend.cursor("a"), damaged);
      await assert.rejects(backend.tail("a", 1), damaged);
      assert.deepEqual((await backend.load("b"))?.events, evs(0, 2), "the other session reads");
      assert.deepEqual((await backend.list()).map((h) => h.id), ["b"], "left out of the list");
      assert.deepEqual([...(await backend.lengths())], [["b", 2]]);
    }
    const report = await checkStorage({ kind: "jsonl", dir: dir.path });
    assert.deepEqual(report.damage, [{ sessionId: "a", what: "header checksum mismatch" }]);
    assert.deepEqual(report.notes, []);
    assert.deepEqual(await hashes(dir.path), before, "nothing rewritten");
  });
}

Deno.test("JSONL: a format-2 folder is upgraded to 3 in one open, its event lines byte for byte", async () => {
  await using dir = await tempDir();
  const a = header("a", { timeZone: "Asia/Calcutta" });
  const { delegationDepth: _, ...legacy } = header("b", { createdAt: "2026-02-01T00:00:00.000Z" });
  await Deno.writeTextFile(`${dir.path}/${MARKER}`, '{"format":2}\n');
  const logA = format2Log(a, 3) + '{"seq":3,"ty'; // a torn tail, set aside later, not now
  // A format-2 event line whose `crc` key lost a byte: never recomputed, so it stays damaged.
  const logB = JSON.stringify(legacy) + "\n" + eventLine("b", ev(0)).replace('"crc"', '"crb"');
  await Deno.writeTextFile(`${dir.path}/a.jsonl`, logA);
  await Deno.writeTextFile(`${dir.path}/b.jsonl`, logB);
  const report = await checkStorage({ kind: "jsonl", dir: dir.path });
  assert.deepEqual(report.damage, [{ sessionId: "b", seq: 0, what: "checksum mismatch" }]);
  assert.ok(
    report.notes.includes("JSONL format 2: no header checksums yet (opening computes them once)"),
    report.notes.join("; "),
  );
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    assert.deepEqual(await marker(dir.path), { format: 3 });
    const upgradedA = await Deno.readTextFile(`${dir.path}/a.jsonl`);
    assert.equal(upgradedA, headerLine(a) + logA.slice(logA.indexOf("\n") + 1));
    const upgradedB = await Deno.readTextFile(`${dir.path}/b.jsonl`);
    assert.equal(upgradedB, headerLine(header("b", legacy)) + logB.slice(logB.indexOf("\n") + 1));
    assert.deepEqual(await backend.load("a"), { header: a, events: evs(0, 3) });
    await assert.rejects(
      backend.load("b"),
      (e) => e instanceof SessionError && e.code === "storage_corrupt" && e.details.seq === 0,
    );
    assert.deepEqual((await backend.list()).map((h) => h.id), ["b", "a"]);
  }
  const after = await hashes(dir.path);
  {
    await using _again = await JsonlBackend.open({ dir: dir.path });
  }
  assert.deepEqual(await hashes(dir.path), after, "a second open writes nothing");
  const checked = await checkStorage({ kind: "jsonl", dir: dir.path });
  assert.deepEqual(checked.damage, [{ sessionId: "b", seq: 0, what: "checksum mismatch" }]);
  assert.deepEqual(checked.notes, [], "format 3: nothing left to compute");
});

Deno.test("JSONL: a format-1 folder is upgraded to 3 in one open, headers and events checked", async () => {
  await using dir = await tempDir();
  const plain = [header("old"), ev(0), ev(1, { text: "x" })].map((l) => JSON.stringify(l));
  await Deno.writeTextFile(`${dir.path}/old.jsonl`, plain.join("\n") + "\n");
  const before = await checkStorage({ kind: "jsonl", dir: dir.path });
  assert.deepEqual(before.notes, ["JSONL format 1: no checksums yet (opening computes them once)"]);
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    assert.deepEqual(await backend.load("old"), {
      header: header("old"),
      events: [ev(0), ev(1, { text: "x" })],
    });
  }
  assert.deepEqual(await marker(dir.path), { format: 3 });
  assert.equal(
    await Deno.readTextFile(`${dir.path}/old.jsonl`),
    headerLine(header("old")) + eventLine("old", ev(0)) + eventLine("old", ev(1, { text: "x" })),
  );
  assert.deepEqual((await checkStorage({ kind: "jsonl", dir: dir.path })).damage, []);
});

Deno.test("JSONL: a log an interrupted upgrade already rewrote is kept, the others finished", async () => {
  for (const format of [1, 2] as const) {
    await using dir = await tempDir();
    // The crash came after `done.jsonl` was renamed into place, before the marker was written.
    const done = headerLine(header("done")) + eventLine("done", ev(0));
    await Deno.writeTextFile(`${dir.path}/done.jsonl`, done);
    const todo = format === 1
      ? [header("todo"), ev(0)].map((l) => JSON.stringify(l) + "\n").join("")
      : format2Log(header("todo"), 1);
    await Deno.writeTextFile(`${dir.path}/todo.jsonl`, todo);
    if (format === 2) await Deno.writeTextFile(`${dir.path}/${MARKER}`, '{"format":2}\n');
    await Deno.writeTextFile(`${dir.path}/todo.jsonl.upgrade-1234`, "a leftover temporary file");
    {
      await using backend = await JsonlBackend.open({ dir: dir.path });
      assert.deepEqual((await backend.list()).map((h) => h.id).sort(), ["done", "todo"]);
      assert.deepEqual((await backend.load("done"))?.events, [ev(0)]);
    }
    assert.deepEqual(await marker(dir.path), { format: 3 });
    assert.equal(await Deno.readTextFile(`${dir.path}/done.jsonl`), done, `format ${format}`);
    assert.equal(
      await Deno.readTextFile(`${dir.path}/todo.jsonl`),
      headerLine(header("todo")) + eventLine("todo", ev(0)),
    );
  }
});

Deno.test("JSONL: a damaged header line of a format-2 folder is kept byte for byte and stays damaged", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/${MARKER}`, '{"format":2}\n');
  const h = (id: string, extra: Partial<SessionHeader> = {}) =>
    JSON.stringify(normalizeHeader(header(id, extra)));
  const utf8 = new TextEncoder().encode(format2Log(header("utf8", { cwd: "/wXrk" }), 1));
  utf8[utf8.indexOf(0x58)] = 0xff; // the `X`: an invalid UTF-8 byte
  const files: Record<string, string | Uint8Array> = {
    utf8,
    json: h("json").slice(0, -1) + "\n" + eventLine("json", ev(0)),
    id: h("other") + "\n" + eventLine("id", ev(0)),
    zone: h("zone", { timeZone: "EuroTe/Berlin" }) + "\n",
    // A checksum already there but wrong (damage after an interrupted upgrade): kept.
    crc: headerLine(header("crc")).replace('"/work"', '"/wosk"'),
    good: format2Log(header("good"), 2),
  };
  for (const [id, content] of Object.entries(files)) {
    const path = `${dir.path}/${id}.jsonl`;
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
  }
  const damaged = Object.keys(files).filter((id) => id !== "good");
  const before = await hashes(dir.path);
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    for (const id of damaged) await assert.rejects(backend.load(id), headerDamage(id), id);
    assert.deepEqual((await backend.list()).map((x) => x.id), ["good"]);
    assert.deepEqual((await backend.load("good"))?.events, evs(0, 2));
  }
  assert.deepEqual(await marker(dir.path), { format: 3 });
  const after = await hashes(dir.path);
  for (const id of damaged) assert.equal(after[`${id}.jsonl`], before[`${id}.jsonl`], id);
  assert.notEqual(after["good.jsonl"], before["good.jsonl"], "the readable header got its crc");
  const report = await checkStorage({ kind: "jsonl", dir: dir.path });
  assert.deepEqual(report.damage.map((d) => [d.sessionId, d.seq]).sort(), [
    ["crc", undefined],
    ["id", undefined],
    ["json", undefined],
    ["utf8", undefined],
    ["zone", undefined],
  ]);
});

Deno.test("JSONL: a folder of an unknown format (4) is refused untouched, by the open and the doctor", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/${MARKER}`, '{"format":4}\n');
  await Deno.writeTextFile(`${dir.path}/s.jsonl`, JSON.stringify(header("s")) + "\n");
  const before = await hashes(dir.path);
  const rejected = (e: unknown) =>
    e instanceof SessionError && e.code === "schema_rejected" && /format 4/.test(e.message);
  await assert.rejects(JsonlBackend.open({ dir: dir.path }), rejected);
  await assert.rejects(checkStorage({ kind: "jsonl", dir: dir.path }), rejected);
  assert.deepEqual(await hashes(dir.path), before);
  // The open released its lock: the folder refuses again rather than reporting "in use".
  await assert.rejects(JsonlBackend.open({ dir: dir.path }), rejected);
});

Deno.test("JSONL: a complete last line whose newline byte was damaged is not a torn tail", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/s.jsonl`;
  {
    await using backend = await JsonlBackend.open({ dir: dir.path });
    await backend.initialize(header("s"), evs(0, 3));
  }
  const bytes = await Deno.readFile(path);
  bytes[bytes.length - 1] = 0x0b;
  await Deno.writeFile(path, bytes);
  await using backend = await JsonlBackend.open({ dir: dir.path });
  await assert.rejects(
    backend.load("s"),
    (e) =>
      e instanceof SessionError && e.code === "storage_corrupt" && e.details.seq === 2 &&
      e.details.what === "the line's newline is damaged",
  );
  assert.deepEqual(await Deno.readFile(path), bytes, "nothing set aside");
});

Deno.test("no single-byte flip of a format-3 header line is served as another header", () => {
  // A fork's header (lineage, zone, seed length, depth) and a root's: every byte, every mask.
  const headers: SessionHeader[] = [
    header("kid", {
      lineage: { parentId: "root", forkedThroughSeq: 3 },
      timeZone: "Europe/Berlin",
      seedLength: 5,
      delegationDepth: 1,
      origin: "fork",
    }),
    header("root", { timeZone: "Asia/Kolkata" }),
  ];
  const encoder = new TextEncoder();
  let coded = 0;
  const served: string[] = [];
  for (const h of headers) {
    const bytes = encoder.encode(headerLine(h) + eventLine(h.id, ev(0)));
    const end = bytes.indexOf(0x0a);
    for (let at = 0; at < end; at++) {
      for (let mask = 1; mask < 256; mask++) {
        const copy = bytes.slice();
        copy[at]! ^= mask;
        const report = readLog(copy, h.id);
        if (report.damage.length > 0) coded++;
        else if (JSON.stringify(report.header) !== JSON.stringify(normalizeHeader(h))) {
          served.push(`${h.id} byte ${at} mask ${mask}`);
        }
      }
    }
  }
  assert.deepEqual(served, [], "no flip served a changed header");
  assert.ok(coded > 0);
});
