/**
 * Child process of the writer-lock tests: opens a store and holds it until killed.
 * Usage: `_lock_holder.ts <libsql|jsonl> <path>`; prints `{ "held": path }` once open.
 *
 * @module
 */
import { JsonlBackend } from "../../session/jsonl/jsonl_backend.ts";
import { LibsqlBackend } from "../../session/libsql/libsql_backend.ts";

const [kind, path] = Deno.args as [string, string];
const _backend = kind === "libsql"
  ? await LibsqlBackend.open({ url: `file:${path}` })
  : await JsonlBackend.open({ dir: path });
console.log(JSON.stringify({ held: path }));
setInterval(() => {}, 1 << 30);
