import assert from "node:assert/strict";
import fc from "fast-check";
import {
  afterRecord,
  atRecord,
  create,
  dispatch,
  endSeed,
  type Entry,
  given,
  header,
  id,
  other,
  remove,
  throwsCode,
} from "./_fixtures_test.ts";
import { earliestActive, foldSchedule, foldSession, foldStart } from "./fold.ts";

function rejectsAt(entries: readonly Entry[], seq: number): void {
  const error = throwsCode(() => foldSchedule(given(...entries)), "invalid_log");
  assert.deepEqual(error.details, { seq });
}

Deno.test("`foldSchedule()` keeps active records in create order and ignores other events", () => {
  const state = foldSchedule(given(
    other(),
    create(atRecord("b", 9)),
    other("tool/call"),
    create(afterRecord("a")),
    create(atRecord("c")),
    remove("c"),
  ));
  assert.deepEqual([...state.active.keys()], [id("b"), id("a")]);
  assert.deepEqual(state.active.get(id("a")), afterRecord("a"));
  assert.deepEqual([...state.terminated], [id("c")]);
  assert.deepEqual([...state.seen], [id("b"), id("a"), id("c")]);
});

Deno.test("`foldSchedule()` terminates on delete and on dispatch", () => {
  const state = foldSchedule(given(
    create(atRecord("a")),
    create(atRecord("b")),
    dispatch("a"),
    remove("b"),
  ));
  assert.equal(state.active.size, 0);
  assert.deepEqual([...state.terminated], [id("a"), id("b")]);
});

Deno.test("`foldSchedule()` rejects a duplicate create id", () => {
  rejectsAt([create(atRecord("a")), create(atRecord("a", 7))], 1);
  rejectsAt([create(atRecord("a")), dispatch("a"), other(), create(atRecord("a"))], 3);
});

Deno.test("`foldSchedule()` rejects a dispatch of a deleted record", () => {
  rejectsAt([create(atRecord("a")), remove("a"), dispatch("a")], 2);
});

Deno.test("`foldSchedule()` rejects transitions of unknown or terminated records", () => {
  rejectsAt([remove("a")], 0);
  rejectsAt([dispatch("a")], 0);
  rejectsAt([create(atRecord("a")), dispatch("a"), dispatch("a")], 2);
  rejectsAt([create(atRecord("a")), dispatch("a"), remove("a")], 2);
});

Deno.test("`foldSchedule()` rejects undecodable data with its seq and cause", () => {
  const events = given(other(), { type: "schedule/change", data: { version: 2, op: "delete" } });
  const error = throwsCode(() => foldSchedule(events), "invalid_log") as unknown as Error;
  assert.equal((error.cause as { code: string }).code, "invalid_event");
});

Deno.test("`foldSchedule()` folds only from `from`", () => {
  const events = given(create(atRecord("a")), dispatch("a"), endSeed(3), create(atRecord("a")));
  const state = foldSchedule(events, { from: 3 });
  assert.deepEqual([...state.active.keys()], [id("a")]);
  assert.equal(state.terminated.size, 0);
  // A dispatch in the child of a record created only in the inherited prefix is invalid.
  throwsCode(
    () => foldSchedule(given(create(atRecord("a")), endSeed(2), dispatch("a")), { from: 2 }),
    "invalid_log",
  );
});

Deno.test("`foldSession()` folds ordinary sessions whole and forks from `seedLength`", () => {
  const events = given(create(atRecord("p")), endSeed(2), create(atRecord("c")));
  assert.equal(foldStart(header()), 0);
  assert.equal(foldStart(header(2)), 2);
  assert.deepEqual([...foldSession(header(), events).active.keys()], [id("p"), id("c")]);
  const child = foldSession(header(2), events);
  assert.deepEqual([...child.active.keys()], [id("c")]);
  assert.deepEqual([...child.seen], [id("c")]);
});

Deno.test("`earliestActive()` picks the smallest scheduledAt, ties by create order", () => {
  assert.equal(earliestActive(foldSchedule([])), undefined);
  const state = foldSchedule(given(
    create(atRecord("a", 10)),
    create(atRecord("b", 3)),
    create(afterRecord("c", 180)),
    create(atRecord("e", 3)),
    create(atRecord("d", 2)),
    remove("d"),
  ));
  assert.equal(earliestActive(state)?.id, id("b"));
});

const TAGS = ["a", "b", "c", "d"];
const arbOps = fc.array(
  fc.tuple(fc.constantFrom("create", "delete", "dispatch", "other"), fc.constantFrom(...TAGS)),
  { maxLength: 30 },
);

/** Keeps only the operations a valid log could contain, given the state so far. */
function validEntries(ops: readonly (readonly [string, string])[]): Entry[] {
  const active = new Set<string>();
  const seen = new Set<string>();
  const out: Entry[] = [];
  for (const [op, tag] of ops) {
    if (op === "other") out.push(other());
    else if (op === "create" && !seen.has(tag)) {
      seen.add(tag);
      active.add(tag);
      out.push(create(atRecord(tag, out.length)));
    } else if (op !== "create" && active.delete(tag)) {
      out.push(op === "delete" ? remove(tag) : dispatch(tag));
    }
  }
  return out;
}

Deno.test("`foldSchedule()` invariants: active ∪ terminated = seen, disjoint", () => {
  fc.assert(fc.property(arbOps, (ops) => {
    const state = foldSchedule(given(...validEntries(ops)));
    const union = new Set([...state.active.keys(), ...state.terminated]);
    assert.deepEqual([...union].sort(), [...state.seen].sort());
    assert.equal(state.active.size + state.terminated.size, state.seen.size);
    const best = earliestActive(state);
    for (const record of state.active.values()) {
      assert.ok(best !== undefined && best.scheduledAt <= record.scheduledAt);
    }
  }));
});

Deno.test("`foldSchedule()` invariant: no transition ever follows a termination", () => {
  fc.assert(fc.property(arbOps, fc.constantFrom(...TAGS), fc.boolean(), (ops, tag, del) => {
    const entries = validEntries(ops);
    const state = foldSchedule(given(...entries));
    const extra = del ? remove(tag) : dispatch(tag);
    if (state.active.has(id(tag))) {
      assert.equal(foldSchedule(given(...entries, extra)).active.has(id(tag)), false);
    } else {
      throwsCode(() => foldSchedule(given(...entries, extra)), "invalid_log");
    }
  }));
});
