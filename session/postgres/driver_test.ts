import assert from "node:assert/strict";
import { StorageSettingsError } from "../backend.ts";
import { SessionError } from "../errors.ts";
import { redactUrl } from "../_redact.ts";
import { leaseTableContract } from "../testing/lease_table_contract.ts";
import { postgresLanes, sharedPostgres, startPostgres } from "../../tests/_postgres.ts";
import { postgresDriver } from "./driver.ts";
import { PostgresBackend } from "./postgres_backend.ts";

const context = { file: "chime.jsonc", baseDir: "/" };
const code = (c: string) => (e: unknown) => e instanceof SessionError && e.code === c;

Deno.test("`postgresDriver` parses, describes without the password, and is always shared", () => {
  const settings = postgresDriver.parse({
    kind: "postgres",
    url: "postgresql://app:p%40ss@db:5432/chime?sslmode=require",
    poolSize: 4,
    statementTimeoutMs: 5_000,
  }, context);
  assert.deepEqual(settings, {
    kind: "postgres",
    url: "postgresql://app:p%40ss@db:5432/chime?sslmode=require",
    poolSize: 4,
    statementTimeoutMs: 5_000,
  });
  assert.equal(postgresDriver.shared(settings), true);
  assert.equal(postgresDriver.directory(settings), undefined);
  assert.equal(
    postgresDriver.describe(settings),
    "postgresql://app:***@db:5432/chime?sslmode=require",
  );
  for (
    const raw of [
      { kind: "postgres" },
      { kind: "postgres", url: "mysql://db/x" },
      { kind: "postgres", url: "db:5432" },
      { kind: "postgres", url: "postgres://db/x", poolSize: 0 },
      { kind: "postgres", url: "postgres://db/x", statementTimeoutMs: -1 },
      { kind: "postgres", url: "postgres://db/x", shared: true },
    ]
  ) {
    assert.throws(
      () => postgresDriver.parse(raw, context),
      StorageSettingsError,
      JSON.stringify(raw),
    );
  }
  assert.throws(
    () => postgresDriver.parse({ kind: "postgres", url: "mysql://u:hunter22@db/x" }, context),
    (e: Error) => !e.message.includes("hunter22"),
  );
  const moved = postgresDriver.fromLocation!("postgres://other/db", "/", settings);
  assert.deepEqual(moved, {
    kind: "postgres",
    url: "postgres://other/db",
    poolSize: 4,
    statementTimeoutMs: 5_000,
  });
});

Deno.test("`redactUrl` hides PostgreSQL passwords and libSQL tokens, keeps everything else", () => {
  assert.equal(redactUrl("postgres://u:pw@h:1/d"), "postgres://u:***@h:1/d");
  assert.equal(redactUrl("postgres://u@h/d"), "postgres://u@h/d");
  assert.equal(
    redactUrl("postgres://h/d?password=x&sslmode=verify-full"),
    "postgres://h/d?password=***&sslmode=verify-full",
  );
  assert.equal(
    redactUrl("libsql://db.turso.io?authToken=eyJ.abc"),
    "libsql://db.turso.io?authToken=***",
  );
  assert.equal(
    redactUrl("https://u:p@db?x=1&authToken=t#f"),
    "https://u:***@db?x=1&authToken=***#f",
  );
  assert.equal(redactUrl("file:///data/chime.db"), "file:///data/chime.db");
  assert.equal(redactUrl("chime.db"), "chime.db");
});

if (postgresLanes()) {
  Deno.test("the PostgreSQL lease table meets the LeaseTable contract on the database's clock", async () => {
    const cluster = await sharedPostgres();
    await leaseTableContract(async (clock) => {
      const url = await cluster.database("leases");
      const settings = postgresDriver.parse({ kind: "postgres", url }, context);
      await (await postgresDriver.open(settings, {}))[Symbol.asyncDispose]();
      const a = await postgresDriver.leases!(settings, { holder: "a", url: "http://a/", clock });
      const b = await postgresDriver.leases!(settings, { holder: "b", clock });
      return {
        a,
        b,
        [Symbol.asyncDispose]: async () => {
          await a[Symbol.asyncDispose]();
          await b[Symbol.asyncDispose]();
        },
      };
    }, { realTime: true });
  });

  Deno.test("a wrong password, a missing database or no server is storage_unavailable, no secret in it", async () => {
    await using cluster = await startPostgres({ password: "s3cret-pw" });
    const url = await cluster.database("auth");
    await using good = await PostgresBackend.open({ url });
    assert.deepEqual(await good.list(), []);
    const wrong = url.replace("s3cret-pw", "wrong-pw-123");
    for (
      const bad of [wrong, url.replace(/\/[^/]+$/, "/nodb"), "postgres://u:s3cret-pw@127.0.0.1:9/x"]
    ) {
      const error = await PostgresBackend.open({ url: bad, connectTimeoutSeconds: 5 }).then(
        () => assert.fail(`${bad} opened`),
        (e) => e,
      );
      assert.ok(code("storage_unavailable")(error), String(error));
      const shown = `${error.message} ${JSON.stringify(error.details)}`;
      assert.ok(!shown.includes("s3cret-pw") && !shown.includes("wrong-pw-123"), shown);
      assert.match(shown, /:\*\*\*@/);
    }
  });

  Deno.test("the doctor scans a PostgreSQL store read-only and names damage", async () => {
    const url = await (await sharedPostgres()).database("doctor");
    const settings = postgresDriver.parse({ kind: "postgres", url }, context);
    {
      await using backend = await postgresDriver.open(settings, {});
      const h = {
        version: 1 as const,
        id: "a",
        cwd: "/",
        createdAt: "2026-01-01T00:00:00.000Z",
        origin: "t",
        lineage: null,
        delegationDepth: 0,
      };
      await backend.initialize(h, [0, 1, 2].map((seq) => ({ seq, type: "n", at: "x", data: {} })));
    }
    const clean = await postgresDriver.check!(settings);
    assert.deepEqual([clean.sessions, clean.events, clean.damage], [1, 3, []]);
    const { default: postgres } = await import("postgres");
    const sql = postgres(url, { onnotice: () => {} });
    await sql`DELETE FROM chime.events WHERE session_id = 'a' AND seq = 1`;
    await sql`UPDATE chime.events SET data = '{' WHERE session_id = 'a' AND seq = 2`;
    await sql.end();
    const damaged = await postgresDriver.check!(settings);
    assert.deepEqual(damaged.damage.map((d) => [d.sessionId, d.seq]), [["a", 1], ["a", 2]]);
    assert.equal(damaged.target.includes("@127.0.0.1"), true);
  });
}
