/**
 * Test doubles shared by every member: a fake clock, a fault-injecting memory backend, and the
 * {@linkcode leaseTableContract} any driver's lease table must meet.
 *
 * @module
 */
export { FakeClock, flushMicrotasks } from "./fake_clock.ts";
export { type Fault, MemoryBackend } from "./memory_backend.ts";
export { createLeaseTable, SESSION_LEASES_DDL } from "./lease_table.ts";
export { leaseTableContract, type OpenLeaseTables } from "./lease_table_contract.ts";
// Session types that appear in these doubles' signatures, re-exported for documentation.
export type {
  AcquireResult,
  Clock,
  EventPage,
  Lease,
  LeaseOwner,
  LeaseTable,
  PersistenceBackend,
  SessionEvent,
  SessionHeader,
  SessionLineage,
  StorageHealth,
  StorageLoss,
  StoredCursor,
  StoredSession,
  StoredTail,
  TimerHandle,
} from "../mod.ts";

// Types the signatures above name, re-exported so each entry point documents whole
// (`deno doc --lint` per entry point, tests/doc_lint.ts).
export type { TypeAcrossPage, TypedEvent } from "../mod.ts";
