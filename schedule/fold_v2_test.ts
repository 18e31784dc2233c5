import assert from "node:assert/strict";
import fc from "fast-check";
import { foldSchedule as foldV1 } from "./_fold_v1_ref_test.ts";
import {
  afterRecord,
  atRecord,
  create,
  day,
  dispatch,
  given,
  header,
  id,
  other,
  remove,
  seriesRecord,
  throwsCode,
  v2,
} from "./_fixtures_test.ts";
import { earliestActive, foldSchedule, foldSession } from "./fold.ts";
import { scheduleReminderPresentations } from "./presentation.ts";

function outcome(
  fold: () => {
    active: ReadonlyMap<unknown, unknown>;
    terminated: ReadonlySet<unknown>;
    seen: ReadonlySet<unknown>;
  },
) {
  try {
    const state = fold();
    return {
      active: [...state.active.entries()],
      terminated: [...state.terminated],
      seen: [...state.seen],
    };
  } catch (error) {
    return {
      code: (error as { code: string }).code,
      seq: (error as { details: { seq: number } }).details.seq,
    };
  }
}

Deno.test("v1-only logs fold identically before and after protocol v2 (property)", () => {
  const tags = ["a", "b", "c"];
  const arbEntry = fc.oneof(
    fc.tuple(fc.constantFrom(...tags), fc.boolean()).map(([tag, at]) =>
      create(at ? atRecord(tag) : afterRecord(tag))
    ),
    fc.constantFrom(...tags).map(remove),
    fc.constantFrom(...tags).map(dispatch),
    fc.constant(other()),
    fc.constant({ type: "schedule/change", data: { version: 1, op: "create", record: {} } }),
  );
  fc.assert(
    fc.property(fc.array(arbEntry, { maxLength: 14 }), fc.nat({ max: 14 }), (entries, from) => {
      const events = given(...entries);
      assert.deepEqual(
        outcome(() => foldSchedule(events, { from })),
        outcome(() => foldV1(events, { from })),
      );
    }),
    { numRuns: 500 },
  );
});

Deno.test("a recurring dispatch advances the target; nextAt null ends the series", () => {
  const record = seriesRecord("a");
  const state = foldSchedule(given(
    v2.create(record),
    v2.occurrence("dispatch", "a", day(0), day(1)),
    v2.occurrence("dispatch", "a", day(3), day(4), 2),
  ));
  assert.equal(state.active.get(id("a"))?.scheduledAt, day(4));
  assert.deepEqual(state.delivered.get(id("a")), {
    record: { ...record, scheduledAt: day(1) },
    occurrenceAt: day(3),
  });
  const ended = foldSchedule(
    given(v2.create(record), v2.occurrence("dispatch", "a", day(0), null)),
  );
  assert.equal(ended.active.size, 0);
  assert.ok(ended.terminated.has(id("a")));
  const skipped = foldSchedule(
    given(v2.create(record), v2.occurrence("skip", "a", day(2), day(3), 2)),
  );
  assert.equal(skipped.active.get(id("a"))?.scheduledAt, day(3));
  assert.equal(skipped.delivered.size, 0, "a skip delivers nothing");
});

Deno.test("update replaces in place; stop ends a series; a one-shot dispatch records its occurrence", () => {
  const state = foldSchedule(given(
    v2.create(atRecord("a")),
    v2.create(seriesRecord("b")),
    v2.update(seriesRecord("a")),
    v2.update(atRecord("b", 9)),
    v2.dispatch("b"),
  ));
  assert.deepEqual([...state.active.keys()], [id("a")]);
  assert.equal(state.active.get(id("a"))?.kind, "recurring");
  assert.equal(state.delivered.get(id("b"))?.occurrenceAt, atRecord("b", 9).scheduledAt);
  const stopped = foldSchedule(given(v2.create(seriesRecord("a")), v2.stop("a")));
  assert.ok(stopped.terminated.has(id("a")));
  assert.equal(earliestActive(foldSchedule(given(v2.create(seriesRecord("a")))))?.id, id("a"));
});

Deno.test("`foldSchedule()` rejects v2 transitions that do not fit the record", () => {
  const cases = [
    [v2.create(seriesRecord("a")), v2.dispatch("a")],
    [v2.create(atRecord("a")), v2.occurrence("dispatch", "a", day(0), day(1))],
    [v2.create(atRecord("a")), v2.occurrence("skip", "a", day(0), day(1))],
    [v2.create(atRecord("a")), v2.stop("a")],
    [v2.create(seriesRecord("a")), v2.occurrence("dispatch", "a", day(0), day(0))],
    [v2.create(seriesRecord("a")), v2.occurrence("dispatch", "a", day(-1), day(1))],
    [v2.update(atRecord("a"))],
    [v2.create(seriesRecord("a")), v2.stop("a"), v2.stop("a")],
    [v2.create(seriesRecord("a")), v2.stop("a"), v2.update(seriesRecord("a"))],
  ];
  for (const entries of cases) {
    const error = throwsCode(() => foldSchedule(given(...entries)), "invalid_log");
    assert.deepEqual(error.details, { seq: entries.length - 1 });
  }
});

Deno.test("fork isolation: a recurring parent record is never the child's work", () => {
  const parent = [
    v2.create(seriesRecord("a")),
    v2.occurrence("dispatch", "a", day(0), day(1)),
    { type: "session/end-seed", data: { seedLength: 2 } },
  ] as const;
  const child = given(...parent);
  assert.equal(foldSession(header(2), child).active.size, 0);
  assert.equal(foldSession(header(), child).active.size, 1);
  // The inherited recurring receipt still renders from the parent's create.
  const receipts = scheduleReminderPresentations(header(2), child);
  assert.equal(receipts.get(1)?.recurring?.nextAt, day(1));
  // The child's own transition of the parent's id is refused by its fold.
  throwsCode(
    () =>
      foldSession(header(3), given(...parent, v2.occurrence("dispatch", "a", day(1), day(2))), {
        contain: false,
      }),
    "invalid_log",
  );
});
