import assert from "node:assert/strict";
import { formatTimeReading, TIME_CONTEXT_HEADING } from "./reading.ts";
import { deriveZones } from "./zones.ts";
import { userRpc } from "./testing/user_rpc.ts";

// Thursday 2026-01-01 10:30:00.250 UTC.
const NOW = Date.UTC(2026, 0, 1, 10, 30, 0, 250);
const ASK = "ask the user which time zone they mean, or pass an explicit time_zone";

function lines(reading: string): string[] {
  return reading.split("\n");
}

Deno.test("formatTimeReading() for a matching zone states UTC, local time and the rule only", () => {
  const reading = formatTimeReading(
    NOW,
    deriveZones({ timeZone: "Europe/Berlin" }, [userRpc(0, "Europe/Berlin")]),
  );
  assert.deepEqual(lines(reading), [
    "[time-context]",
    "Now (UTC): 2026-01-01T10:30:00.250Z",
    "Session time zone: Europe/Berlin, local time Thursday 2026-01-01 11:30 (UTC+01:00).",
    'Implicit local times (such as "tomorrow 09:00") are interpreted in the session time zone ' +
    "Europe/Berlin.",
  ]);
  assert.ok(reading.startsWith(TIME_CONTEXT_HEADING));
  assert.ok(!reading.includes("Client"));
  assert.ok(!reading.includes(ASK));
});

Deno.test("formatTimeReading() treats Asia/Calcutta and Asia/Kolkata as the same zone", () => {
  const reading = formatTimeReading(
    NOW,
    deriveZones({ timeZone: "Asia/Kolkata" }, [userRpc(0, "Asia/Calcutta")]),
  );
  assert.ok(
    reading.includes(
      "Session time zone: Asia/Kolkata, local time Thursday 2026-01-01 16:00 (UTC+05:30).",
    ),
  );
  assert.ok(!reading.includes("Client"));
  assert.ok(!reading.includes(ASK));
});

Deno.test("formatTimeReading() names a different client zone with its local time and asks", () => {
  const reading = formatTimeReading(
    NOW,
    deriveZones({ timeZone: "Europe/Berlin" }, [userRpc(0, "America/New_York")]),
  );
  assert.ok(
    reading.includes(
      "Client time zone of this request: America/New_York (differs from the session time zone), " +
        "local time Thursday 2026-01-01 05:30 (UTC-05:00).",
    ),
  );
  assert.ok(reading.includes("interpreted in the session time zone Europe/Berlin"));
  assert.ok(reading.includes(ASK));
});

Deno.test("formatTimeReading() lists mixed client zones", () => {
  const reading = formatTimeReading(
    NOW,
    deriveZones({ timeZone: "Europe/Berlin" }, [
      userRpc(0, "Europe/Berlin"),
      userRpc(1, "Asia/Tokyo"),
    ]),
  );
  assert.ok(
    reading.includes(
      "Europe/Berlin (same as the session time zone), local time Thursday 2026-01-01 11:30",
    ),
  );
  assert.ok(
    reading.includes(
      "Asia/Tokyo (differs from the session time zone), local time Thursday 2026-01-01 19:30 (UTC+09:00)",
    ),
  );
  assert.ok(reading.includes("different (mixed) client time zones"));
  assert.ok(reading.includes(ASK));
});

Deno.test("formatTimeReading() says when a message has no client zone", () => {
  const reading = formatTimeReading(
    NOW,
    deriveZones({ timeZone: "Europe/Berlin" }, [userRpc(0, "Europe/Berlin"), userRpc(1)]),
  );
  assert.ok(reading.includes("Client time zone: missing on at least one message of this request."));
  assert.ok(!reading.includes("(mixed) client time zones"));
  assert.ok(reading.includes(ASK));
  const onlyMissing = formatTimeReading(
    NOW,
    deriveZones({ timeZone: "Europe/Berlin" }, [userRpc(0)]),
  );
  assert.ok(onlyMissing.includes("Client time zone: missing"));
  assert.ok(!onlyMissing.includes("Client time zone of this request"));
});

Deno.test("formatTimeReading() for a legacy header says the session zone is unavailable", () => {
  const reading = formatTimeReading(NOW, deriveZones({}, [userRpc(0, "Europe/Berlin")]));
  assert.deepEqual(lines(reading), [
    "[time-context]",
    "Now (UTC): 2026-01-01T10:30:00.250Z",
    "Session time zone: unavailable (this session has no default time zone).",
    "Client time zone of this request: Europe/Berlin, local time Thursday 2026-01-01 11:30 " +
    "(UTC+01:00).",
    'Implicit local times (such as "tomorrow 09:00") cannot be interpreted in a session time ' +
    `zone: ${ASK}.`,
  ]);
});

Deno.test("formatTimeReading() computes weekday and date across midnight in a far zone", () => {
  // 10:30 UTC on Thursday is already 00:30 on Friday in Kiritimati (UTC+14).
  const far = formatTimeReading(
    NOW,
    deriveZones({ timeZone: "Pacific/Kiritimati" }, [userRpc(0, "Pacific/Kiritimati")]),
  );
  assert.ok(far.includes("local time Friday 2026-01-02 00:30 (UTC+14:00)"));
  // 10:30 UTC on Thursday is still 23:30 on Wednesday in Pago Pago (UTC−11).
  const behind = formatTimeReading(NOW, deriveZones({ timeZone: "Pacific/Pago_Pago" }, []));
  assert.ok(behind.includes("local time Wednesday 2025-12-31 23:30 (UTC-11:00)"));
  // New Year's Eve turning over in Kiritimati, with a different client zone behind it.
  const eve = formatTimeReading(
    Date.UTC(2025, 11, 31, 10, 0),
    deriveZones({ timeZone: "Pacific/Kiritimati" }, [userRpc(0, "Europe/London")]),
  );
  assert.ok(
    eve.includes("Session time zone: Pacific/Kiritimati, local time Thursday 2026-01-01 00:00"),
  );
  assert.ok(
    eve.includes(
      "Europe/London (differs from the session time zone), local time Wednesday 2025-12-31 10:00 (UTC+00:00)",
    ),
  );
});

Deno.test("formatTimeReading() follows the zone's DST offset, not the process zone", () => {
  const summer = formatTimeReading(
    Date.UTC(2026, 6, 4, 12, 0),
    deriveZones({ timeZone: "America/New_York" }, []),
  );
  assert.ok(summer.includes("local time Saturday 2026-07-04 08:00 (UTC-04:00)"));
});

Deno.test("formatTimeReading() says a follow-up-only step has no client provenance", () => {
  const reading = formatTimeReading(NOW, deriveZones({ timeZone: "Europe/Berlin" }, []));
  assert.ok(
    reading.includes("Session time zone: Europe/Berlin, local time Thursday 2026-01-01 11:30"),
  );
  assert.ok(
    reading.includes(
      "Client time zone: none (no user message in this step, so no client provenance).",
    ),
  );
  assert.ok(reading.includes(ASK));
});

Deno.test("formatTimeReading() rejects a non-integer instant", () => {
  assert.throws(() => formatTimeReading(Number.NaN, deriveZones({}, [])), RangeError);
});
