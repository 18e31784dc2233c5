/**
 * `SessionStore.scanTypes`: every stored session once, in id order, with its stored header,
 * its stored length and its events of the types asked for, from the libSQL type index, JSONL
 * files (each read once) and the memory backend alike.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { PersistenceBackend } from "./backend.ts";
import type { SessionEvent } from "./event.ts";
import type { SessionHeader } from "./header.ts";
import { JsonlBackend } from "./jsonl/jsonl_backend.ts";
import { LibsqlBackend } from "./libsql/libsql_backend.ts";
import { SessionStore } from "./store.ts";
import { MemoryBackend } from "./testing/memory_backend.ts";

function header(id: string): SessionHeader {
  return {
    version: 1,
    id,
    cwd: "/",
    createdAt: "2030-01-01T00:00:00.000Z",
    origin: "test",
    lineage: null,
    delegationDepth: 0,
  };
}

function events(types: readonly string[]): SessionEvent[] {
  return types.map((type, seq) => ({ seq, type, at: "2030-01-01T00:00:00.000Z", data: { seq } }));
}

/** Ids written out of order; `c` has no event of the wanted type, `d` none at all. */
const LOGS: Record<string, string[]> = {
  b: ["user-rpc", "schedule/change", "user-rpc", "schedule/change"],
  a: ["schedule/change"],
  d: [],
  c: ["user-rpc", "user-rpc"],
  e: ["schedule/change", "x", "schedule/change", "schedule/change"],
};

async function check(backend: PersistenceBackend, pageSize: number) {
  for (const [id, types] of Object.entries(LOGS)) {
    await backend.initialize(header(id), events(types));
  }
  await using store = new SessionStore({ backend });
  const seen = [];
  for await (const part of store.scanTypes(["schedule/change"], pageSize)) {
    assert.deepEqual(part.header, header(part.header.id));
    seen.push([part.header.id, part.length, part.events.map((e) => e.seq)]);
  }
  assert.deepEqual(seen, [
    ["a", 1, [0]],
    ["b", 4, [1, 3]],
    ["c", 2, []],
    ["d", 0, []],
    ["e", 4, [0, 2, 3]],
  ]);
}

Deno.test("scanTypes lists every stored session once with its length and typed events (libSQL, pages of 2)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await check(await LibsqlBackend.open({ url: `file:${join(dir, "t.db")}` }), 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scanTypes lists every stored session once with its length and typed events (JSONL)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await check(await JsonlBackend.open({ dir }), 4096);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scanTypes lists every stored session once with its length and typed events (memory)", async () => {
  await check(new MemoryBackend(), 1);
});
