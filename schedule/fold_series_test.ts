// The fold of `pause`, `resume` and `exclude` (docs/recurring.md "Transitions"): their effect,
// every refused transition (`invalid_log` with its seq), what an `update` carries over, and fork
// isolation.
import assert from "node:assert/strict";
import {
  atRecord,
  day,
  endSeed,
  given,
  header,
  id,
  seriesRecord,
  throwsCode,
  v2,
} from "./_fixtures_test.ts";
import { earliestActive, foldSchedule, foldSession } from "./fold.ts";
import type { ScheduleChange } from "./protocol.ts";

const series = (state: ReturnType<typeof foldSchedule>, tag = "a") =>
  state.active.get(id(tag)) as Record<string, unknown> | undefined;

Deno.test("pause marks a series paused; it is never the earliest target; resume moves it on", () => {
  const paused = foldSchedule(given(
    v2.create(seriesRecord("a")),
    v2.create({ ...atRecord("b"), scheduledAt: day(5) }),
    v2.pause("a"),
  ));
  assert.equal(series(paused)?.paused, true);
  assert.equal(earliestActive(paused)?.id, id("b"), "the paused series is earlier, yet skipped");
  const alone = foldSchedule(given(v2.create(seriesRecord("a")), v2.pause("a")));
  assert.equal(earliestActive(alone), undefined);
  const resumed = foldSchedule(given(
    v2.create(seriesRecord("a")),
    v2.pause("a"),
    v2.resume("a", day(3)),
  ));
  assert.equal(series(resumed)?.paused, undefined);
  assert.equal(series(resumed)?.scheduledAt, day(3));
  assert.equal(Object.hasOwn(series(resumed)!, "paused"), false);
  const same = foldSchedule(
    given(v2.create(seriesRecord("a")), v2.pause("a"), v2.resume("a", day(0))),
  );
  assert.equal(series(same)?.scheduledAt, day(0), "resume at the current target");
});

Deno.test("exclude adds a sorted EXDATE and moves the target only when it excludes it", () => {
  const state = foldSchedule(given(
    v2.create(seriesRecord("a")),
    v2.exclude("a", day(3), day(0)),
    v2.exclude("a", day(1), day(0)),
    v2.exclude("a", day(0), day(2)),
  ));
  assert.deepEqual(series(state)?.exdates, [day(0), day(1), day(3)]);
  assert.equal(series(state)?.scheduledAt, day(2));
  const ended = foldSchedule(given(v2.create(seriesRecord("a")), v2.exclude("a", day(0), null)));
  assert.equal(ended.active.size, 0);
  assert.ok(ended.terminated.has(id("a")), "the last occurrence excluded: exhausted");
  const whilePaused = foldSchedule(given(
    v2.create(seriesRecord("a")),
    v2.pause("a"),
    v2.exclude("a", day(4), day(0)),
  ));
  assert.equal(series(whilePaused)?.paused, true);
  assert.deepEqual(series(whilePaused)?.exdates, [day(4)]);
});

Deno.test("invalid pause, resume and exclude transitions are invalid_log at their seq", () => {
  const a = v2.create(seriesRecord("a"));
  const cases: [ScheduleChange[], number][] = [
    [[v2.create(atRecord("a")), v2.pause("a")], 1],
    [[v2.create(atRecord("a")), v2.resume("a", day(1))], 1],
    [[v2.create(atRecord("a")), v2.exclude("a", day(1), day(0))], 1],
    [[v2.pause("a")], 0],
    [[a, v2.stop("a"), v2.pause("a")], 2],
    [[a, v2.pause("a"), v2.pause("a")], 2],
    [[a, v2.resume("a", day(1))], 1],
    [[a, v2.pause("a"), v2.resume("a", "2030-01-01T08:59:00.000Z")], 2],
    [[a, v2.pause("a"), v2.occurrence("dispatch", "a", day(0), day(1))], 2],
    [[a, v2.pause("a"), v2.occurrence("skip", "a", day(0), day(1))], 2],
    [[a, v2.exclude("a", "2030-01-01T08:00:00.000Z", day(0))], 1],
    [[a, v2.exclude("a", day(2), day(0)), v2.exclude("a", day(2), day(0))], 2],
    [[a, v2.exclude("a", day(2), day(1))], 1],
    [[a, v2.exclude("a", day(2), null)], 1],
    [[a, v2.exclude("a", day(0), day(0))], 1],
  ];
  for (const [changes, seq] of cases) {
    const error = throwsCode(() => foldSchedule(given(...changes)), "invalid_log");
    assert.deepEqual(error.details, { seq }, JSON.stringify(changes.at(-1)));
  }
});

Deno.test("an update keeps a series paused, and its exdates only while the series is the same", () => {
  const base = [v2.create(seriesRecord("a")), v2.exclude("a", day(2), day(0)), v2.pause("a")];
  const prompt = foldSchedule(given(...base, v2.update({ ...seriesRecord("a"), prompt: "new" })));
  assert.equal(series(prompt)?.paused, true);
  assert.deepEqual(series(prompt)?.exdates, [day(2)]);
  assert.equal(series(prompt)?.prompt, "new");
  const rule = foldSchedule(given(
    ...base,
    v2.update(seriesRecord("a", { rrule: "FREQ=DAILY;BYHOUR=10;BYMINUTE=0" })),
  ));
  assert.equal(series(rule)?.paused, true, "still paused");
  assert.equal(series(rule)?.exdates, undefined, "another rule: its exclusions are gone");
  for (const extra of [{ dtstart: "2030-01-02T09:00:00" }, { timeZone: "Asia/Tokyo" }]) {
    const changed = foldSchedule(given(...base, v2.update(seriesRecord("a", extra))));
    assert.equal(series(changed)?.exdates, undefined, JSON.stringify(extra));
  }
  const oneShot = foldSchedule(given(...base, v2.update(atRecord("a"))));
  assert.deepEqual(series(oneShot), atRecord("a"), "a one-shot carries neither");
  const fromOneShot = foldSchedule(given(v2.create(atRecord("a")), v2.update(seriesRecord("a"))));
  assert.deepEqual(series(fromOneShot), seriesRecord("a"));
});

Deno.test("a fork does not inherit its parent's pauses or exclusions", () => {
  const events = given(
    v2.create(seriesRecord("a")),
    v2.pause("a"),
    v2.exclude("a", day(2), day(0)),
    endSeed(4),
    v2.create(seriesRecord("b")),
    v2.pause("b"),
  );
  const child = foldSession(header(4), events);
  assert.deepEqual([...child.active.keys()], [id("b")]);
  assert.equal(child.seen.has(id("a")), false);
  // The child cannot act on the inherited series: its own suffix never created it.
  const later = given(
    ...events.map((e) => e.data as ScheduleChange).slice(0, 3),
    endSeed(4),
    v2.resume("a", day(1)),
  );
  throwsCode(() => foldSession(header(4), later, { contain: false }), "invalid_log");
  // Contained (the default): that change is quarantined with its seq and the id it names.
  const contained = foldSession(header(4), later);
  assert.deepEqual(contained.quarantined.map((q) => [q.seq, q.id]), [[4, id("a")]]);
  assert.deepEqual([...contained.held], [[id("a"), 4]]);
  const parent = foldSession(header(), events);
  assert.equal(series(parent)?.paused, true);
});
