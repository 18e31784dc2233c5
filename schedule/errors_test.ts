import assert from "node:assert/strict";
import { ScheduleError, toolError, toolFailureFrom } from "./errors.ts";

Deno.test("`ScheduleError` carries code, details and cause", () => {
  const cause = new Error("inner");
  const error = new ScheduleError("invalid_log", "Cannot fold: bad", {
    cause,
    details: { seq: 3 },
  });
  assert.equal(error.name, "ScheduleError");
  assert.equal(error.code, "invalid_log");
  assert.deepEqual(error.details, { seq: 3 });
  assert.equal(error.cause, cause);
  assert.deepEqual(new ScheduleError("not_in_future", "Cannot x: y").details, {});
  assert.equal("cause" in new ScheduleError("not_in_future", "Cannot x: y"), false);
});

Deno.test("`toolError()` builds `{ ok: false, error: { code, message, ...extra } }`", () => {
  assert.deepEqual(toolError("schedule_not_found", "Cannot delete: gone", { id: "sch_x" }), {
    ok: false,
    error: { code: "schedule_not_found", message: "Cannot delete: gone", id: "sch_x" },
  });
  assert.deepEqual(toolError("invalid_arguments", "Cannot x: y"), {
    ok: false,
    error: { code: "invalid_arguments", message: "Cannot x: y" },
  });
});

Deno.test("`toolFailureFrom()` keeps tool codes and details", () => {
  const error = new ScheduleError("timezone_confirmation_required", "Cannot x: y", {
    details: { knownTimeZones: ["Asia/Tokyo"], id: "sch_x", seq: 4 },
  });
  assert.deepEqual(toolFailureFrom(error), {
    ok: false,
    error: {
      code: "timezone_confirmation_required",
      message: "Cannot x: y",
      knownTimeZones: ["Asia/Tokyo"],
      id: "sch_x",
    },
  });
});

Deno.test("`toolFailureFrom()` rethrows decoder, fold and foreign errors", () => {
  for (const code of ["invalid_event", "invalid_log"] as const) {
    const error = new ScheduleError(code, "Cannot x: y");
    assert.throws(() => toolFailureFrom(error), (thrown) => thrown === error);
  }
  const foreign = new RangeError("boom");
  assert.throws(() => toolFailureFrom(foreign), (thrown) => thrown === foreign);
});
