// Found from outside (README "Configuration"): "skip it" for a series whose last occurrence was
// already skipped (COUNT run out) gets `schedule_not_active` ("Cannot skip occurrence: … already
// ended"), yet the offline model answers as for `not_an_occurrence` ("That time isn't one of the
// reminder's occurrences (or it's already skipped)"): the refusal is matched on the word
// "occurrence", which every skip message contains.
import assert from "node:assert/strict";
import { seriesErrorText } from "./series_texts.ts";

const ENDED = {
  code: "schedule_not_active",
  message: "Cannot skip occurrence: sch_s2hX1927awpp-ID9 already ended",
  id: "sch_s2hX1927awpp-ID9",
};

Deno.test("a skip of an ended series is not answered as a time that is no occurrence", () => {
  for (const zh of [false, true]) {
    const text = seriesErrorText("schedule_skip", ENDED, zh) ?? "";
    assert.doesNotMatch(text, /isn't one of the reminder's occurrences|不是该提醒的某一次/, text);
  }
});

Deno.test("a skip of an instant that is no occurrence still says so", () => {
  const text = seriesErrorText("schedule_skip", {
    code: "not_an_occurrence",
    message: "Cannot skip occurrence: 2027-01-06T09:00:00.000Z is not a coming occurrence of sch_x",
  }, false);
  assert.match(text ?? "", /isn't one of the reminder's occurrences/);
});
