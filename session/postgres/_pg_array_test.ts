import assert from "node:assert/strict";
import postgres from "postgres";
import { postgresLanes, sharedPostgres } from "../../tests/_postgres.ts";
import { arrayLiteral } from "./_pg_array.ts";

const TRICKY = ["", "a,b", '"quoted"', "back\\slash", "{braces}", "NULL", " spaced ", "日本"];

Deno.test("`arrayLiteral` quotes every string and escapes backslash and quote", () => {
  assert.equal(arrayLiteral([]), "{}");
  assert.equal(arrayLiteral(["a", 'b"c', "d\\e", null, 3]), '{"a","b\\"c","d\\\\e",NULL,3}');
  assert.throws(() => arrayLiteral([Number.NaN]), RangeError);
});

if (postgresLanes()) {
  // A pool that has not (yet) learned the array OIDs serializes a JavaScript array as its
  // String(): `[]` became "" and the server answered `malformed array literal: ""` (seen
  // intermittently on a fresh pool). `fetch_types: false` is that state, every time.
  Deno.test("array parameters survive a connection that has not fetched the array types", async () => {
    const url = await (await sharedPostgres()).database("arrays");
    const sql = postgres(url, { fetch_types: false, onnotice: () => {} });
    try {
      await assert.rejects(
        sql.unsafe("SELECT cardinality($1::text[]) AS n", [[]] as never[]),
        /malformed array literal/,
      );
      for (const values of [[], TRICKY, [null, "x"]]) {
        const back = await sql.unsafe(
          "SELECT x FROM unnest($1::text[]) WITH ORDINALITY AS t(x, i) ORDER BY i",
          [arrayLiteral(values)],
        );
        assert.deepEqual(back.map((r) => r.x), values);
      }
      const ints = await sql.unsafe("SELECT x FROM unnest($1::bigint[]) AS t(x)", [
        arrayLiteral([1, 2, 9007199254740991]),
      ]);
      assert.deepEqual(ints.map((r) => Number(r.x)), [1, 2, 9007199254740991]);
      const tagged = await sql`SELECT ${arrayLiteral(TRICKY)}::text[] = ${
        arrayLiteral([...TRICKY])
      }::text[] AS same`;
      assert.equal(tagged[0]!.same, true);
    } finally {
      await sql.end();
    }
  });
}
