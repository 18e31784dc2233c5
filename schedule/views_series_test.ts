// The sparse view context keeps the exclusions a card's preview needs, so a dispatch presents the
// same from the sparse list as from the dense log (docs/recurring.md "Preview").
import assert from "node:assert/strict";
import { day, given, header, seriesRecord, v2 } from "./_fixtures_test.ts";
import { scheduleReminderPresentations } from "./presentation.ts";
import { scheduleViews } from "./views.ts";

Deno.test("the view context keeps a series' exclusions before its dispatch", () => {
  const events = given(
    v2.create(seriesRecord("a")),
    v2.create(seriesRecord("b")),
    v2.exclude("b", day(3), day(0)),
    v2.exclude("a", day(2), day(0)),
    v2.occurrence("dispatch", "a", day(0), day(1)),
    v2.exclude("a", day(4), day(1)),
  );
  const gated = [events[4]!];
  const scan = scheduleViews.context!(header(), gated);
  const kept = [...events.slice(0, 4)].reverse().filter((event) => scan.offer(event));
  assert.deepEqual(kept.map((e) => e.seq), [3, 0], "a's exclusion and create, not b's");
  assert.equal(scan.done, true);
  const sparse = scheduleViews.build(header(), [...kept.reverse(), ...gated], [4]);
  const dense = scheduleReminderPresentations(header(), events).get(4);
  assert.deepEqual(
    (sparse.get(4)?.presentation as typeof dense)?.recurring?.preview,
    dense?.recurring?.preview,
  );
  assert.deepEqual(dense?.recurring?.preview.map((p) => p.at), [
    day(1),
    day(3),
    day(4),
    day(5),
    day(6),
  ]);
});
