/**
 * A database or `-wal` removed (or replaced) under a running backend is
 * noticed (`FileIdentity`), every later write is refused with `storage_lost`, and the rescue
 * copy the still-open connection writes holds every acknowledged event.
 */
import assert from "node:assert/strict";
import { FileIdentity } from "./_identity.ts";
import { LibsqlBackend } from "./libsql_backend.ts";
import { SessionError } from "../errors.ts";
import type { StorageLoss } from "../backend.ts";
import { ev, header, tempDir } from "../../tests/session/_helpers.ts";

const lost = (e: unknown) => e instanceof SessionError && e.code === "storage_lost";

Deno.test("`FileIdentity` notices a removed `-wal`, a removed or replaced database, once", async () => {
  await using dir = await tempDir();
  const db = `${dir.path}/a.db`;
  await Deno.writeTextFile(db, "db");
  const reports: SessionError[] = [];
  using identity = new FileIdentity(db, { intervalMs: 0, onLost: (e) => reports.push(e) });
  identity.check(); // no -wal yet: nothing to compare
  await Deno.writeTextFile(`${db}-wal`, "wal");
  identity.check(); // the -wal is learned when it first exists
  identity.check();
  await Deno.remove(`${db}-wal`);
  assert.throws(() => identity.check(), lost);
  assert.throws(() => identity.check(), lost);
  assert.equal(reports.length, 1);
  assert.match(reports[0]!.message, /write-ahead log .*a\.db-wal was removed/);
  assert.equal(identity.lost, reports[0]);

  const other = `${dir.path}/b.db`;
  await Deno.writeTextFile(other, "db");
  using replaced = new FileIdentity(other, { intervalMs: 0 });
  await Deno.writeTextFile(`${dir.path}/c.db`, "another file");
  await Deno.rename(`${dir.path}/c.db`, other);
  assert.throws(
    () => replaced.check(),
    (e) => lost(e) && /database .*b\.db was replaced/.test(String(e)),
  );

  const third = `${dir.path}/d.db`;
  await Deno.writeTextFile(third, "db");
  using removed = new FileIdentity(third, { intervalMs: 0 });
  await Deno.remove(third);
  assert.throws(
    () => removed.check(),
    (e) => lost(e) && /database .*d\.db was removed/.test(String(e)),
  );
});

for (const file of ["-wal", ""]) {
  const name = file === "" ? "database" : "`-wal`";
  Deno.test(`a removed ${name} fails the next append with \`storage_lost\`; the rescue copy holds every acknowledged event`, async () => {
    await using dir = await tempDir();
    const path = `${dir.path}/chime.db`;
    const losses: StorageLoss[] = [];
    const told = Promise.withResolvers<void>();
    {
      await using backend = await LibsqlBackend.open({ url: `file:${path}` });
      backend.onStorageLost((loss) => {
        losses.push(loss);
        told.resolve();
      });
      await backend.initialize(header("s"), [ev(0)]);
      await backend.append("s", [ev(1), ev(2)]);
      assert.deepEqual(backend.health(), { ready: true, reasons: [] });
      await Deno.remove(`${path}${file}`);
      await assert.rejects(backend.append("s", [ev(3)]), lost);
      await assert.rejects(backend.append("s", [ev(3)]), lost);
      await assert.rejects(backend.initialize(header("t"), []), lost);
      const health = backend.health();
      assert.equal(health.ready, false);
      assert.match(health.reasons[0]!, /^Cannot write: the (database|write-ahead log) /);
      await told.promise;
    }
    assert.equal(losses.length, 1);
    const rescued = losses[0]!.rescuedTo!;
    assert.match(rescued, /chime\.db\.rescued-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    // What an operator does: put the rescue copy at the path, side files gone.
    for (const side of ["", "-wal", "-shm"]) await Deno.remove(`${path}${side}`).catch(() => {});
    await Deno.rename(rescued, path);
    await using again = await LibsqlBackend.open({ url: `file:${path}` });
    const stored = await again.load("s");
    assert.deepEqual(stored?.events.map((e) => e.seq), [0, 1, 2]);
    assert.equal(await again.cursor("t"), undefined);
  });
}
