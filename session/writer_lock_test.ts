import assert from "node:assert/strict";
import { JsonlBackend } from "./jsonl/jsonl_backend.ts";
import { LibsqlBackend } from "./libsql/libsql_backend.ts";
import { SessionError } from "./errors.ts";
import { header, tempDir } from "../tests/session/_helpers.ts";
import { JsonLineChild } from "../tests/_child.ts";
import { readOnly } from "../tests/session/_read_only.ts";

const code = (c: string) => (e: unknown) => e instanceof SessionError && e.code === c;
const HOLDER = new URL("../tests/session/_lock_holder.ts", import.meta.url);

Deno.test("`LibsqlBackend.open()` refuses the same database file through a symlink or a hard link", async () => {
  await using dir = await tempDir();
  const real = `${dir.path}/chime.db`;
  await Deno.mkdir(`${dir.path}/other`);
  await using first = await LibsqlBackend.open({ url: `file:${real}` });
  await first.initialize(header("s"), []);
  await Deno.symlink(real, `${dir.path}/other/sym.db`);
  await Deno.link(real, `${dir.path}/other/hard.db`);
  for (const name of ["sym.db", "hard.db"]) {
    await assert.rejects(
      LibsqlBackend.open({ url: `file:${dir.path}/other/${name}` }),
      code("storage_in_use"),
      name,
    );
  }
});

Deno.test("a second process is refused on a symlink or hard link to a locked database, and deleting side files does not let it in", async () => {
  await using dir = await tempDir();
  const real = `${dir.path}/chime.db`;
  await using holder = new JsonLineChild<{ held?: string }>(HOLDER, ["libsql", real]);
  await holder.waitFor((lines) => lines.some((l) => l.held), "the lock", 30_000);
  await Deno.symlink(real, `${dir.path}/sym.db`);
  await Deno.link(real, `${dir.path}/hard.db`);
  // No side file to delete defeats the lock: remove everything beside the database.
  for await (const entry of Deno.readDir(dir.path)) {
    if (entry.name.endsWith(".lock")) await Deno.remove(`${dir.path}/${entry.name}`);
  }
  for (const path of [real, `${dir.path}/sym.db`, `${dir.path}/hard.db`]) {
    await assert.rejects(LibsqlBackend.open({ url: `file:${path}` }), code("storage_in_use"), path);
  }
  await holder.kill("SIGKILL");
  // The OS released the lock with the process: the file opens.
  await (await LibsqlBackend.open({ url: `file:${dir.path}/sym.db` }))[Symbol.asyncDispose]();
});

Deno.test("`JsonlBackend.open()` locks the folder itself: a symlinked folder is refused, in and across processes", async () => {
  await using dir = await tempDir();
  const folder = `${dir.path}/sessions`;
  await Deno.mkdir(folder);
  await Deno.symlink(folder, `${dir.path}/alias`);
  {
    await using _first = await JsonlBackend.open({ dir: folder });
    await assert.rejects(JsonlBackend.open({ dir: `${dir.path}/alias` }), code("storage_in_use"));
  }
  await using holder = new JsonLineChild<{ held?: string }>(HOLDER, ["jsonl", folder]);
  await holder.waitFor((lines) => lines.some((l) => l.held), "the lock", 30_000);
  assert.deepEqual(
    [...Deno.readDirSync(folder)].map((e) => e.name),
    ["chime-jsonl.json"],
    "no lock file to delete (only the format marker)",
  );
  await assert.rejects(JsonlBackend.open({ dir: `${dir.path}/alias` }), code("storage_in_use"));
});

Deno.test("a read-only database file or directory fails `open()` with `storage_read_only`", async (t) => {
  await using dir = await tempDir();
  const url = `file:${dir.path}/chime.db`;
  await (await LibsqlBackend.open({ url }))[Symbol.asyncDispose]();
  const file = await readOnly(`${dir.path}/chime.db`);
  if (file === undefined) {
    await t.step({ name: "skipped: no way to make a file read-only here", ignore: true, fn() {} });
    return;
  }
  await using _file = file;
  const before = await Deno.readFile(`${dir.path}/chime.db`);
  await assert.rejects(LibsqlBackend.open({ url }), code("storage_read_only"));
  assert.deepEqual(await Deno.readFile(`${dir.path}/chime.db`), before);
  await _file[Symbol.asyncDispose]();
  {
    await using _dir = (await readOnly(dir.path))!;
    await assert.rejects(LibsqlBackend.open({ url }), code("storage_read_only"));
    await assert.rejects(JsonlBackend.open({ dir: dir.path }), code("storage_read_only"));
    await assert.rejects(
      LibsqlBackend.open({ url: `file:${dir.path}/new.db` }),
      code("storage_read_only"),
    );
  }
  await (await JsonlBackend.open({ dir: dir.path }))[Symbol.asyncDispose]();
});

Deno.test("a database path that cannot exist fails with the OS error, not a lock or read-only code", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/file`, "");
  await assert.rejects(
    LibsqlBackend.open({ url: `file:${dir.path}/file/chime.db` }),
    Deno.errors.NotADirectory,
  );
  await assert.rejects(
    LibsqlBackend.open({ url: `file:${dir.path}/missing/chime.db` }),
    Deno.errors.NotFound,
  );
});
