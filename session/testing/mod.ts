/**
 * Test doubles shared by every member: a fake clock and a fault-injecting memory backend.
 *
 * @module
 */
export { FakeClock, flushMicrotasks } from "./fake_clock.ts";
export { type Fault, MemoryBackend } from "./memory_backend.ts";
export { createLeaseTable, SESSION_LEASES_DDL } from "./lease_table.ts";
// Session types that appear in these doubles' signatures, re-exported for documentation.
export type {
  Clock,
  EventPage,
  PersistenceBackend,
  SessionEvent,
  SessionHeader,
  SessionLineage,
  StoredCursor,
  StoredSession,
  StoredTail,
  TimerHandle,
} from "../mod.ts";
