import assert from "node:assert/strict";
import postgres from "postgres";
import {
  classifyPostgres,
  POSTGRES_APPLICATION,
  POSTGRES_LAYOUT_QUERY,
  POSTGRES_LAYOUTS,
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
  stepsFrom,
} from "./schema.ts";
import { postgresLanes, sharedPostgres } from "../../tests/_postgres.ts";
import { PostgresBackend } from "../../session/postgres/postgres_backend.ts";
import { SessionError } from "../../session/errors.ts";

const current = POSTGRES_LAYOUTS[POSTGRES_SCHEMA_VERSION]!.split("\n");
const marker = [{ application: POSTGRES_APPLICATION, version: POSTGRES_SCHEMA_VERSION }];

Deno.test("`classifyPostgres` accepts only an empty or an exactly owned schema", () => {
  assert.deepEqual(classifyPostgres({ schemaExists: false, layout: [] }), {
    kind: "empty",
    steps: POSTGRES_MIGRATIONS,
  });
  assert.equal(classifyPostgres({ schemaExists: true, layout: [] }).kind, "empty");
  assert.equal(
    classifyPostgres({ schemaExists: true, layout: current.toReversed(), marker }).kind,
    "current",
  );
  const reason = (state: Parameters<typeof classifyPostgres>[0]) => {
    const verdict = classifyPostgres(state);
    return verdict.kind === "rejected" ? verdict.reason : verdict.kind;
  };
  assert.match(
    reason({ schemaExists: true, layout: ["column|t|x|text|NO"] }),
    /without chime's marker/,
  );
  assert.match(
    reason({ schemaExists: true, layout: current, marker: [{ application: "x", version: 1 }] }),
    /another application/,
  );
  assert.match(
    reason({ schemaExists: true, layout: current, marker: [{ ...marker[0]!, version: 99 }] }),
    /unsupported schema version 99 \(newer\)/,
  );
  assert.match(
    reason({ schemaExists: true, layout: [...current, "other|S|s"], marker }),
    new RegExp(`layout of version ${POSTGRES_SCHEMA_VERSION} is not ours`),
  );
  assert.deepEqual(stepsFrom(POSTGRES_SCHEMA_VERSION), []);
  assert.deepEqual(POSTGRES_MIGRATIONS.map((m) => m.to), [1, 2, 3]);
});

Deno.test("`classifyPostgres`: a v3 layout without `sessions.crc` is refused, a v2 layout upgrades", () => {
  assert.equal(POSTGRES_SCHEMA_VERSION, 3);
  assert.ok(current.includes("column|sessions|crc|bigint|NO"));
  const v2 = POSTGRES_LAYOUTS[2]!.split("\n");
  assert.deepEqual(v2, current.filter((line) => line !== "column|sessions|crc|bigint|NO"));
  assert.deepEqual(classifyPostgres({ schemaExists: true, layout: v2, marker }), {
    kind: "rejected",
    reason: "layout of version 3 is not ours",
  });
  const v2Marker = [{ application: POSTGRES_APPLICATION, version: 2 }];
  const verdict = classifyPostgres({ schemaExists: true, layout: v2, marker: v2Marker });
  assert.deepEqual(verdict, { kind: "upgrade", version: 2, steps: [POSTGRES_MIGRATIONS[2]] });
  assert.equal(POSTGRES_MIGRATIONS[2]!.headerChecksums, true);
  assert.equal(POSTGRES_MIGRATIONS[2]!.checksums, undefined, "v2 event checksums are kept");
  assert.deepEqual(
    classifyPostgres({ schemaExists: true, layout: current, marker: v2Marker }),
    { kind: "rejected", reason: "layout of version 2 is not ours" },
  );
  const v1Marker = [{ application: POSTGRES_APPLICATION, version: 1 }];
  const v1 = POSTGRES_LAYOUTS[1]!.split("\n");
  assert.deepEqual(classifyPostgres({ schemaExists: true, layout: v1, marker: v1Marker }), {
    kind: "upgrade",
    version: 1,
    steps: POSTGRES_MIGRATIONS.slice(1),
  });
});

/** Everything of the `chime` schema and its rows, to prove a refusal changed nothing. */
async function snapshot(sql: postgres.Sql): Promise<string> {
  const layout = (await sql.unsafe(POSTGRES_LAYOUT_QUERY)).map((r) => r.layout).sort();
  const info = await sql`SELECT to_regclass('chime.schema_info') AS t`;
  const rows = info[0]!.t === null ? [] : await sql`SELECT * FROM chime.schema_info`;
  return JSON.stringify({ layout, rows });
}

if (postgresLanes()) {
  const refused = (e: unknown) => e instanceof SessionError && e.code === "schema_rejected";

  Deno.test("a foreign, newer or altered chime schema is refused untouched; ours reopens", async () => {
    const cluster = await sharedPostgres();
    const cases: [string, string[]][] = [
      ["foreign", ["CREATE SCHEMA chime", "CREATE TABLE chime.sessions (id int)"]],
      ["newer", [`UPDATE chime.schema_info SET version = ${POSTGRES_SCHEMA_VERSION + 1}`]],
      ["altered", ["ALTER TABLE chime.events ADD COLUMN extra text"]],
      ["nocrc", ["ALTER TABLE chime.sessions DROP COLUMN crc"]],
      ["marker", ["DELETE FROM chime.schema_info"]],
    ];
    for (const [name, statements] of cases) {
      const url = await cluster.database(name);
      if (name !== "foreign") await (await PostgresBackend.open({ url }))[Symbol.asyncDispose]();
      const sql = postgres(url, { onnotice: () => {} });
      try {
        for (const statement of statements) await sql.unsafe(statement);
        const before = await snapshot(sql);
        await assert.rejects(PostgresBackend.open({ url }), refused, name);
        assert.equal(await snapshot(sql), before, `${name}: nothing changed`);
      } finally {
        await sql.end();
      }
    }
    const url = await cluster.database("ours");
    await (await PostgresBackend.open({ url }))[Symbol.asyncDispose]();
    await using again = await PostgresBackend.open({ url });
    assert.deepEqual(await again.list(), []);
  });
}
