import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import {
  APPLICATION_ID,
  classifySchema,
  CREATE_V13,
  CREATE_V14,
  CREATE_V15,
  CREATE_V16,
  CREATE_V17,
  CREATE_V18,
  normalizeSql,
  type SchemaState,
  UPGRADE_V13_TO_V14,
  UPGRADE_V13_TO_V15,
  UPGRADE_V14_TO_V15,
  UPGRADE_V15_TO_V16,
  UPGRADE_V16_TO_V17,
  UPGRADE_V17_TO_V18,
} from "../mod.ts";

const FROM_V16 = [...UPGRADE_V16_TO_V17, ...UPGRADE_V17_TO_V18];
const TO_V18 = [...UPGRADE_V15_TO_V16, ...FROM_V16];

async function stateAfter(statements: readonly string[]): Promise<SchemaState> {
  const client = createClient({ url: ":memory:" });
  try {
    await client.batch([...statements], "write");
    const app = await client.execute("PRAGMA application_id");
    const version = await client.execute("PRAGMA user_version");
    const rows = (await client.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema")).rows;
    return {
      applicationId: Number(app.rows[0]![0]),
      userVersion: Number(version.rows[0]![0]),
      entries: rows.map((r) => ({
        type: String(r.type),
        name: String(r.name),
        tbl_name: String(r.tbl_name),
        sql: r.sql === null ? null : String(r.sql),
      })),
    };
  } finally {
    client.close();
  }
}

Deno.test("`classifySchema()` calls a database built from CREATE_V18 current", async () => {
  assert.deepEqual(classifySchema(await stateAfter(CREATE_V18)), { kind: "current" });
});

Deno.test("`classifySchema()` calls v13–v17 databases legacy with their one upgrade", async () => {
  assert.deepEqual(classifySchema(await stateAfter(CREATE_V13)), {
    kind: "legacy",
    version: 13,
    upgrade: [...UPGRADE_V13_TO_V15, ...TO_V18],
  });
  assert.deepEqual(classifySchema(await stateAfter(CREATE_V14)), {
    kind: "legacy",
    version: 14,
    upgrade: [...UPGRADE_V14_TO_V15, ...TO_V18],
  });
  assert.deepEqual(classifySchema(await stateAfter(CREATE_V15)), {
    kind: "legacy",
    version: 15,
    upgrade: TO_V18,
  });
  assert.deepEqual(classifySchema(await stateAfter(CREATE_V16)), {
    kind: "legacy",
    version: 16,
    upgrade: FROM_V16,
  });
  assert.deepEqual(classifySchema(await stateAfter(CREATE_V17)), {
    kind: "legacy",
    version: 17,
    upgrade: UPGRADE_V17_TO_V18,
  });
});

Deno.test("the v13–v17 upgrades yield exactly the fresh v18 layout", async () => {
  const fresh = await stateAfter(CREATE_V18);
  const byName = (s: SchemaState) => [...s.entries].sort((a, b) => a.name.localeCompare(b.name));
  for (
    const upgraded of [
      await stateAfter([...CREATE_V13, ...UPGRADE_V13_TO_V15, ...TO_V18]),
      await stateAfter([...CREATE_V14, ...UPGRADE_V14_TO_V15, ...TO_V18]),
      await stateAfter([...CREATE_V15, ...TO_V18]),
      await stateAfter([...CREATE_V16, ...FROM_V16]),
      await stateAfter([...CREATE_V17, ...UPGRADE_V17_TO_V18]),
      await stateAfter([
        ...CREATE_V13,
        ...UPGRADE_V13_TO_V14,
        ...UPGRADE_V14_TO_V15,
        ...TO_V18,
      ]),
    ]
  ) {
    assert.deepEqual(classifySchema(upgraded), { kind: "current" });
    assert.equal(upgraded.userVersion, 18);
    assert.deepEqual(
      byName(upgraded).map((e) => [e.type, e.name, e.tbl_name]),
      byName(fresh).map((e) => [e.type, e.name, e.tbl_name]),
    );
  }
});

Deno.test("`classifySchema()` calls a fresh file empty", () => {
  assert.equal(classifySchema({ applicationId: 0, userVersion: 0, entries: [] }).kind, "empty");
});

Deno.test("`classifySchema()` rejects foreign, older, newer and forged databases", async () => {
  const v14 = await stateAfter(CREATE_V14);
  const v16 = await stateAfter(CREATE_V16);
  const v17 = await stateAfter(CREATE_V17);
  const v15 = await stateAfter(CREATE_V18);
  const forged = (name: string, sql: string) => ({
    ...v15,
    entries: v15.entries.map((e) => e.name === name ? { ...e, sql } : e),
  });
  const cases: SchemaState[] = [
    { ...v15, applicationId: 42 },
    { ...v15, userVersion: 19 },
    { ...v15, userVersion: 17 },
    { ...v15, userVersion: 16 },
    { ...v16, userVersion: 17 },
    { ...v17, userVersion: 18 },
    { ...v17, userVersion: 16 },
    forged(
      "sessions",
      v15.entries.find((e) => e.name === "sessions")!.sql!.replace(
        "crc INTEGER NOT NULL DEFAULT -1",
        "crc INTEGER",
      ),
    ),
    { ...v15, userVersion: 15 },
    { ...v15, userVersion: 14 },
    { ...v15, userVersion: 13 },
    forged("events_by_type", "CREATE INDEX events_by_type ON events (type, seq)"),
    forged("events_typed", "CREATE INDEX events_typed ON events (session_id, type, seq)"),
    forged(
      "events_typed",
      "CREATE INDEX events_typed ON events (session_id, type, seq) WHERE type IN ('user-rpc')",
    ),
    { ...v15, entries: v15.entries.filter((e) => e.name !== "events_typed") },
    forged(
      "session_leases",
      "CREATE TABLE session_leases (session_id TEXT PRIMARY KEY NOT NULL, token INTEGER)",
    ),
    { ...v15, entries: v15.entries.filter((e) => e.name !== "session_leases") },
    { ...v15, entries: v15.entries.filter((e) => e.name !== "events_by_type") },
    { ...v14, userVersion: 15 },
    { ...v14, applicationId: 42 },
    { ...v14, applicationId: 0 },
    { ...v14, userVersion: 12 },
    { ...v14, userVersion: 13 },
    {
      ...v14,
      entries: [...v14.entries, {
        type: "index",
        name: "x",
        tbl_name: "events",
        sql: "CREATE INDEX x ON events (at)",
      }],
    },
    { ...v14, entries: v14.entries.slice(1) },
    { applicationId: APPLICATION_ID, userVersion: 0, entries: [] },
    {
      applicationId: 0,
      userVersion: 0,
      entries: [{ type: "table", name: "t", tbl_name: "t", sql: "CREATE TABLE t (a)" }],
    },
  ];
  for (const state of cases) assert.equal(classifySchema(state).kind, "rejected");
});

Deno.test("`classifySchema()` ignores ANALYZE statistics tables", async () => {
  const v15 = await stateAfter(CREATE_V18);
  const stat = {
    type: "table",
    name: "sqlite_stat1",
    tbl_name: "sqlite_stat1",
    sql: "CREATE TABLE sqlite_stat1(tbl,idx,stat)",
  };
  assert.equal(classifySchema({ ...v15, entries: [...v15.entries, stat] }).kind, "current");
});

Deno.test("`normalizeSql()` ignores SQL comments", () => {
  assert.equal(
    normalizeSql("CREATE TABLE t (\n  a TEXT, -- the a\n  b TEXT -- the b\n)"),
    "CREATE TABLE t(a TEXT,b TEXT)",
  );
});

Deno.test("`normalizeSql()` ignores the whitespace an ALTER TABLE splice leaves", () => {
  assert.equal(
    normalizeSql("CREATE TABLE t (\n  a TEXT\n, b TEXT)"),
    "CREATE TABLE t(a TEXT,b TEXT)",
  );
  assert.equal(
    normalizeSql("CREATE TABLE t ( a TEXT,\n  b TEXT\n)"),
    "CREATE TABLE t(a TEXT,b TEXT)",
  );
});
