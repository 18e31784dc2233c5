import assert from "node:assert/strict";
import { deriveZones, zonesAgree } from "./zones.ts";
import { userRpc } from "./testing/user_rpc.ts";

Deno.test("deriveZones() reads the session zone from the header and one matching client zone", () => {
  const zones = deriveZones({ timeZone: "Europe/Berlin" }, [userRpc(0, "Europe/Berlin")]);
  assert.deepEqual(zones, {
    sessionTimeZone: "Europe/Berlin",
    clientTimeZones: ["Europe/Berlin"],
    missingClientZone: false,
  });
  assert.equal(zonesAgree(zones), true);
});

Deno.test("deriveZones() deduplicates equivalent client zones, keeping the first spelling", () => {
  const zones = deriveZones({ timeZone: "Asia/Kolkata" }, [
    userRpc(0, "Asia/Calcutta"),
    userRpc(1, "Asia/Kolkata"),
    userRpc(2, "Asia/Calcutta"),
  ]);
  assert.deepEqual(zones.clientTimeZones, ["Asia/Calcutta"]);
  assert.equal(zonesAgree(zones), true);
});

Deno.test("deriveZones() keeps mixed client zones in message order", () => {
  const zones = deriveZones({ timeZone: "Europe/Berlin" }, [
    userRpc(0, "America/New_York"),
    userRpc(1, "Europe/Berlin"),
    userRpc(2, "US/Eastern"),
  ]);
  assert.deepEqual(zones.clientTimeZones, ["America/New_York", "Europe/Berlin"]);
  assert.equal(zones.missingClientZone, false);
  assert.equal(zonesAgree(zones), false);
});

Deno.test("deriveZones() notes a message without a client zone", () => {
  const zones = deriveZones({ timeZone: "Europe/Berlin" }, [
    userRpc(0, "Europe/Berlin"),
    userRpc(1),
  ]);
  assert.deepEqual(zones.clientTimeZones, ["Europe/Berlin"]);
  assert.equal(zones.missingClientZone, true);
  assert.equal(zonesAgree(zones), false);
});

Deno.test("deriveZones() counts an invalid client zone as missing", () => {
  const zones = deriveZones({ timeZone: "Europe/Berlin" }, [userRpc(0, "+05:30")]);
  assert.deepEqual(zones.clientTimeZones, []);
  assert.equal(zones.missingClientZone, true);
});

Deno.test("deriveZones() leaves the session zone unavailable for a legacy or invalid header", () => {
  const legacy = deriveZones({}, [userRpc(0, "Europe/Berlin")]);
  assert.equal("sessionTimeZone" in legacy, false);
  assert.deepEqual(legacy.clientTimeZones, ["Europe/Berlin"]);
  assert.equal(zonesAgree(legacy), false);
  assert.equal("sessionTimeZone" in deriveZones({ timeZone: "Mars/Olympus" }, []), false);
});

Deno.test("deriveZones() gives no client provenance for a follow-up-only step", () => {
  const zones = deriveZones({ timeZone: "Europe/Berlin" }, []);
  assert.deepEqual(zones, {
    sessionTimeZone: "Europe/Berlin",
    clientTimeZones: [],
    missingClientZone: false,
  });
  assert.equal(zonesAgree(zones), false);
});

Deno.test("zonesAgree() rejects a single client zone that differs from the session zone", () => {
  assert.equal(
    zonesAgree({
      sessionTimeZone: "Europe/London",
      clientTimeZones: ["Europe/Dublin"],
      missingClientZone: false,
    }),
    false,
  );
});
