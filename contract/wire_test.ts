import { equal } from "node:assert/strict";
import type { SessionEvent } from "@chime/session/event";
import type { SessionHeader } from "@chime/session/header";
import type { WireEvent, WireHeader } from "./wire.ts";

Deno.test("wire types stay assignable from the session types", () => {
  const header: SessionHeader = {
    version: 1,
    id: "s",
    cwd: "/",
    createdAt: "2030-01-01T00:00:00.000Z",
    origin: "web",
    lineage: null,
    delegationDepth: 0,
    timeZone: "UTC",
  };
  const event: SessionEvent = { seq: 0, type: "turn/start", at: header.createdAt, data: {} };
  const wireHeader: WireHeader = header;
  const wireEvent: WireEvent = event;
  equal(wireHeader.id, "s");
  equal(wireEvent.seq, 0);
});
