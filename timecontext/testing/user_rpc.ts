// Test-only builders shared by the timecontext tests (excluded from publish).
import type { SessionEvent, UserRpcData } from "@chime/session";

/** A frozen `user-rpc` event with the given client zone (none when `undefined`). */
export function userRpc(
  seq: number,
  clientTimeZone?: string,
): SessionEvent<"user-rpc", UserRpcData> {
  return {
    seq,
    type: "user-rpc",
    at: "2026-01-01T00:00:00.000Z",
    data: {
      messageId: `m${seq}`,
      text: `message ${seq}`,
      source: clientTimeZone === undefined ? { kind: "web" } : { kind: "web", clientTimeZone },
    },
  };
}
