import assert from "node:assert/strict";
import { afterRecord, atRecord, code, id, PARIS, request, T0 } from "./_fixtures_test.ts";
import {
  type CreateContext,
  MAX_PROMPT_LENGTH,
  resolveCreate,
  scheduleValue,
  toScheduleRecord,
  validateCreateArgs,
  validateDeleteArgs,
  validateListArgs,
} from "./rules.ts";

Deno.test("`validateCreateArgs()` types each selector and trims the prompt", () => {
  assert.deepEqual(validateCreateArgs({ prompt: "  stretch\n", after_seconds: 1200 }), {
    ok: true,
    value: { prompt: "stretch", selector: { kind: "after", afterSeconds: 1200 } },
  });
  assert.deepEqual(request({ at: "2030-01-01T09:00:00+01:00" }).selector, {
    kind: "instant",
    epochMs: Date.UTC(2030, 0, 1, 8),
  });
  assert.deepEqual(request({ at: { date: "2030-01-01", time: "09:00" } }).selector, {
    kind: "local",
    local: { date: "2030-01-01", time: "09:00" },
  });
  assert.deepEqual(
    request({ at: { date: "2030-01-01", time: "09:00", time_zone: "Asia/Tokyo" } }).selector,
    {
      kind: "local",
      local: { date: "2030-01-01", time: "09:00" },
      timeZone: "Asia/Tokyo",
    },
  );
});

Deno.test("`validateCreateArgs()` refuses every_seconds and cron with `unsupported_rule`", () => {
  for (
    const args of [
      { prompt: "x", every_seconds: 60 },
      { prompt: "x", after_seconds: 60, every_seconds: 60 },
      { prompt: "x", at: "2030-01-01T00:00:00Z", cron: "0 9 * * *" },
      { prompt: "", cron: null, unknown: 1 },
    ]
  ) {
    assert.equal(code(validateCreateArgs(args)), "unsupported_rule", JSON.stringify(args));
  }
});

Deno.test("`validateCreateArgs()` refuses malformed arguments with `invalid_arguments`", () => {
  const long = "\u{1F600}".repeat(MAX_PROMPT_LENGTH);
  assert.equal(code(validateCreateArgs({ prompt: long, after_seconds: 1 })), "ok");
  const cases: readonly unknown[] = [
    null,
    [],
    "remind me",
    { prompt: "x", after_seconds: 60, repeat: true },
    { after_seconds: 60 },
    { prompt: "", after_seconds: 60 },
    { prompt: "   ", after_seconds: 60 },
    { prompt: 5, after_seconds: 60 },
    { prompt: `${long}x`, after_seconds: 60 },
    { prompt: "x" },
    { prompt: "x", after_seconds: 60, at: "2030-01-01T00:00:00Z" },
    { prompt: "x", after_seconds: 0 },
    { prompt: "x", after_seconds: -1 },
    { prompt: "x", after_seconds: 1.5 },
    { prompt: "x", after_seconds: "60" },
    { prompt: "x", after_seconds: null },
    { prompt: "x", after_seconds: 2 ** 53 },
    { prompt: "x", at: "2030-01-01t00:00:00z" },
    { prompt: "x", at: "2030-01-01 00:00:00Z" },
    { prompt: "x", at: "2030-01-01T00:00:00+0530" },
    { prompt: "x", at: "2030-01-01T00:00:00Z[Europe/Paris]" },
    { prompt: "x", at: "tomorrow 9am" },
    { prompt: "x", at: 5 },
    { prompt: "x", at: null },
    { prompt: "x", at: [] },
    { prompt: "x", at: { date: "2030-01-01", time: "09:00", offset: "+01:00" } },
    { prompt: "x", at: { date: "2030-01-01" } },
    { prompt: "x", at: { date: 20300101, time: "09:00" } },
    { prompt: "x", at: { date: "2030-01-01", time: "09:00", time_zone: 5 } },
    { prompt: "x", at: { date: "2030-01-01", time: "09:00", time_zone: null } },
    { prompt: "x", at: { date: "2030-02-30", time: "09:00" } },
    { prompt: "x", at: { date: "2027-02-29", time: "09:00" } },
    { prompt: "x", at: { date: "2030-01-01", time: "24:00" } },
  ];
  for (const args of cases) {
    assert.equal(code(validateCreateArgs(args)), "invalid_arguments", JSON.stringify(args));
  }
});

Deno.test("`resolveCreate()` targets now + after_seconds", () => {
  assert.deepEqual(resolveCreate(request({ after_seconds: 90 }), PARIS), {
    ok: true,
    kind: "after",
    prompt: "stretch",
    afterSeconds: 90,
    scheduledAt: "2030-01-01T00:01:30.000Z",
  });
  const far = request({ after_seconds: Number.MAX_SAFE_INTEGER });
  assert.equal(code(resolveCreate(far, PARIS)), "invalid_arguments");
});

Deno.test("`resolveCreate()` requires an explicit instant strictly in the future", () => {
  assert.deepEqual(resolveCreate(request({ at: "2030-01-01T01:00:00.001+01:00" }), PARIS), {
    ok: true,
    kind: "at",
    prompt: "stretch",
    scheduledAt: "2030-01-01T00:00:00.001Z",
  });
  assert.equal(
    code(resolveCreate(request({ at: "2030-01-01T00:00:00Z" }), PARIS)),
    "not_in_future",
  );
  assert.equal(
    code(resolveCreate(request({ at: "2029-12-31T23:59:59Z" }), PARIS)),
    "not_in_future",
  );
  // Truncation happens before the comparison: 0.0009 s after now is now.
  assert.equal(
    code(resolveCreate(request({ at: "2030-01-01T00:00:00.0009Z" }), PARIS)),
    "not_in_future",
  );
});

Deno.test("`resolveCreate()` with an explicit time_zone skips the ambiguity check", () => {
  const bare: CreateContext = { now: T0, clientTimeZones: "missing", hasTimeContextMarker: false };
  const at = (time_zone: string, date = "2030-01-01", time = "09:00") =>
    request({ at: { date, time, time_zone } });
  assert.deepEqual(resolveCreate(at("Asia/Kathmandu"), bare), {
    ok: true,
    kind: "at",
    prompt: "stretch",
    scheduledAt: "2030-01-01T03:15:00.000Z",
  });
  assert.equal(code(resolveCreate(at("Mars/Olympus"), bare)), "invalid_time_zone");
  assert.equal(code(resolveCreate(at("+05:30"), bare)), "invalid_time_zone");
  assert.equal(
    code(resolveCreate(at("Europe/London", "2030-03-31", "01:30"), bare)),
    "nonexistent_local_time",
  );
  assert.equal(code(resolveCreate(at("UTC", "2029-12-31", "23:59"), bare)), "not_in_future");
  assert.equal(code(resolveCreate(at("Etc/GMT+5", "2029-12-31", "19:00"), bare)), "not_in_future");
  assert.equal(code(resolveCreate(at("Etc/GMT+5", "2029-12-31", "19:01"), bare)), "ok");
});

Deno.test("`resolveCreate()` still rejects gaps and past times for implicit local times", () => {
  const gap = request({ at: { date: "2030-03-31", time: "02:30" } });
  assert.equal(code(resolveCreate(gap, PARIS)), "nonexistent_local_time");
  const past = request({ at: { date: "2030-01-01", time: "01:00" } });
  assert.equal(code(resolveCreate(past, PARIS)), "not_in_future");
  const future = request({ at: { date: "2030-01-01", time: "01:00:01" } });
  assert.equal(code(resolveCreate(future, PARIS)), "ok");
});

Deno.test("`resolveCreate()` refuses a non-integer clock (programmer misuse)", () => {
  assert.throws(
    () => resolveCreate(request({ after_seconds: 1 }), { ...PARIS, now: 1.5 }),
    RangeError,
  );
});

Deno.test("`toScheduleRecord()` stores only the UTC target", () => {
  const after = resolveCreate(request({ after_seconds: 60 }), PARIS);
  const at = resolveCreate(
    request({ at: { date: "2030-01-01", time: "10:00", time_zone: "Asia/Tokyo" } }),
    PARIS,
  );
  assert.ok(after.ok && at.ok);
  assert.deepEqual(toScheduleRecord(id("a"), after), {
    ...afterRecord("a", 60),
    prompt: "stretch",
  });
  assert.deepEqual(toScheduleRecord(id("b"), at), {
    id: id("b"),
    kind: "at",
    prompt: "stretch",
    scheduledAt: "2030-01-01T01:00:00.000Z",
  });
});

Deno.test("`validateDeleteArgs()` accepts exactly `{ id }` with a well-formed id", () => {
  assert.deepEqual(validateDeleteArgs({ id: id("a") }), { ok: true, value: { id: id("a") } });
  for (const args of [null, {}, { id: "x" }, { id: 5 }, { id: id("a"), force: true }]) {
    assert.equal(code(validateDeleteArgs(args)), "invalid_arguments", JSON.stringify(args));
  }
});

Deno.test("`validateListArgs()` accepts exactly `{}`", () => {
  assert.deepEqual(validateListArgs({}), { ok: true, value: {} });
  for (const args of [null, undefined, [], { all: true }]) {
    assert.equal(code(validateListArgs(args)), "invalid_arguments");
  }
});

Deno.test("`scheduleValue()` derives status and always says session-local", () => {
  const record = atRecord("a", 5);
  const due = T0 + 300_000;
  assert.deepEqual(scheduleValue(record, due - 1), {
    ...record,
    status: "scheduled",
    deliveryMode: "session-local",
  });
  assert.equal(scheduleValue(record, due).status, "overdue");
  assert.equal(scheduleValue(afterRecord("b", 60), T0).afterSeconds, 60);
  assert.equal("afterSeconds" in scheduleValue(record, T0), false);
});
