/**
 * Builds a damaged libSQL database in a child process, so no connection of the test process
 * lingers on the file (a libsql connection closes lazily and may checkpoint its WAL later, which
 * would change the bytes a test compares).
 *
 * Usage as a child: `_damage.ts <url> '<JSON { sessions: { id: events }, sql: string[] }>'`.
 *
 * @module
 */
import { createClient } from "@libsql/client";
import { fileURLToPath } from "node:url";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import { evs, header } from "./_helpers.ts";
import { JsonLineChild } from "../_child.ts";

/**
 * Runs SQL on a database through a connection of its own, as another tool (or bit rot) would.
 * The connection closes lazily: use {@linkcode buildDamaged} when the file's bytes are compared.
 *
 * @param url the `file:` URL
 * @param statements the statements, in order
 */
export async function runSql(url: string, ...statements: string[]): Promise<void> {
  const client = createClient({ url });
  try {
    for (const statement of statements) await client.execute(statement);
  } finally {
    client.close();
  }
}

/** What to build: sessions with `n` note events each, then raw SQL on a second connection. */
export interface DamagePlan {
  /** Session id → number of events. */
  readonly sessions: Readonly<Record<string, number>>;
  /** Statements run afterwards, as another tool would. */
  readonly sql: readonly string[];
  /** SIGKILL the child while its connection is open: the WAL is left behind. @default false */
  readonly crash?: boolean;
}

/**
 * Builds the database in a child process and waits for it to exit.
 *
 * @param url the `file:` URL
 * @param plan sessions and statements
 */
export async function buildDamaged(url: string, plan: DamagePlan): Promise<void> {
  if (plan.crash) {
    await using child = new JsonLineChild<{ ready?: boolean }>(import.meta.url, [
      url,
      JSON.stringify(plan),
    ]);
    await child.waitFor((lines) => lines.some((l) => l.ready), "the database", 30_000);
    return;
  }
  const { success, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", fileURLToPath(import.meta.url), url, JSON.stringify(plan)],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(`Cannot build ${url}: ${new TextDecoder().decode(stderr)}`);
}

if (import.meta.main) {
  const [url, json] = Deno.args as [string, string];
  const plan = JSON.parse(json) as DamagePlan;
  const backend = await LibsqlBackend.open({ url });
  for (const [id, n] of Object.entries(plan.sessions)) {
    await backend.initialize(header(id), evs(0, n));
  }
  if (!plan.crash) {
    await backend[Symbol.asyncDispose]();
    await runSql(url, ...plan.sql);
  } else {
    // The backend stays open: closing the last connection would checkpoint and delete the WAL,
    // and a fresh connection that writes nothing leaves none behind.
    const client = createClient({ url });
    for (const statement of plan.sql) await client.execute(statement);
    console.log(JSON.stringify({ ready: true }));
    setInterval(() => {}, 1 << 30);
  }
}
