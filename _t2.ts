import postgres from "postgres";
import { startPostgres } from "./tests/_postgres.ts";
import { PostgresBackend, postgresDriver } from "./session/postgres/mod.ts";
import { POSTGRES_LAYOUT_QUERY } from "./migrations/mod.ts";
await using c = await startPostgres();
const url = await c.database();
{
await using b = await PostgresBackend.open({ url });
const sql = postgres(url, {onnotice(){}});
const rows = (await sql.unsafe(POSTGRES_LAYOUT_QUERY)).map(r => r.layout).sort();
console.log(rows.join("\n"));
await sql.end();
const h = { version: 1, id: "s1", cwd: "/", createdAt: "2026-01-01T00:00:00.000Z", origin: "t", lineage: null, delegationDepth: 0, timeZone: "Europe/Paris" } as const;
await b.initialize(h, [{seq:0,type:"a",at:"x",data:{n:1}}]);
await b.append("s1", [{seq:1,type:"b",at:"x",data:{n:2}}]);
console.log(await b.cursor("s1"), await b.tail("s1", 5), await b.readByType("s1", ["b"], 0, 9), await b.readEvents("s1", {before: 2, limit: 1}));
await b.fork({ ...h, id: "s2", lineage: { parentId: "s1", forkedThroughSeq: 0 } }, "s1", 0, [{seq:1,type:"session/end-seed",at:"x",data:{}}]);
console.log((await b.load("s2"))?.events.length, (await b.list()).map(h => h.id));
console.log(await postgresDriver.check!(postgresDriver.parse({kind:"postgres", url}, {file:"", baseDir:"/"})));
}
await using b2 = await PostgresBackend.open({ url });
console.log("reopen ok");
await PostgresBackend.open({ url: url.replace(/\/[^/]*$/, "/nodb") }).catch(e => console.log(e.code, e.message));
await PostgresBackend.open({ url: "postgres://u:pw123@127.0.0.1:1/x" }).catch(e => console.log(e.code, e.message));
