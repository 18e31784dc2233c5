import assert from "node:assert/strict";
import { hasTimeContextMarker, TIME_CONTEXT_MARKER } from "./marker.ts";

const at = "2026-01-01T00:00:00.000Z";

Deno.test("hasTimeContextMarker() finds the marker of the given turn only", () => {
  const events = [
    { seq: 0, type: "turn/start", at, data: { turnId: "t1" } },
    { seq: 1, type: TIME_CONTEXT_MARKER, at, data: { turnId: "t1" } },
  ];
  assert.equal(hasTimeContextMarker(events, "t1"), true);
  assert.equal(hasTimeContextMarker(events, "t2"), false);
  assert.equal(hasTimeContextMarker([], "t1"), false);
});

Deno.test("hasTimeContextMarker() ignores other event types naming the turn", () => {
  const events = [{ seq: 0, type: "step/start", at, data: { turnId: "t1", step: 0 } }];
  assert.equal(hasTimeContextMarker(events, "t1"), false);
});

Deno.test("hasTimeContextMarker() fails closed on malformed marker data", () => {
  for (const data of [null, "t1", 1, { turnId: 1 }, {}]) {
    assert.equal(
      hasTimeContextMarker([{ type: TIME_CONTEXT_MARKER, data }], "t1"),
      false,
    );
  }
});
