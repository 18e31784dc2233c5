/**
 * Child process of the restart lane: appends and flushes in a loop, printing each acknowledged
 * seq on its own line, until it is killed.
 * Usage: `_restart_writer.ts <libsql|libsql-shared|jsonl|postgres> <dir> [postgres URL]`.
 */
import { JsonlBackend } from "../../session/jsonl/jsonl_backend.ts";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";
import { PostgresBackend } from "../../session/postgres/postgres_backend.ts";
import { SessionStore } from "../../session/store.ts";

const [kind, dir, url] = Deno.args as [string, string, string | undefined];
const backend = kind === "postgres"
  ? await PostgresBackend.open({ url: url! })
  : kind === "jsonl"
  ? await JsonlBackend.open({ dir: `${dir}/jsonl` })
  : await LibsqlBackend.open({ url: `file:${dir}/chime.db`, shared: kind === "libsql-shared" });
const store = new SessionStore({ backend });
const session = await store.create({ cwd: "/", id: "lane", timeZone: "Europe/Berlin" });
const out = Deno.stdout;
for (let n = 0;; n++) {
  const event = store.append(session, "note", { n, pad: "x".repeat(n % 7 * 50) });
  if (await store.flush(session)) {
    await out.write(new TextEncoder().encode(`${event.seq}\n`));
  }
}
