/**
 * Test doubles shared by every member: a fake clock and a fault-injecting memory backend.
 *
 * @module
 */
export { FakeClock, flushMicrotasks } from "./fake_clock.ts";
export { type Fault, MemoryBackend } from "./memory_backend.ts";
export { createLeaseTable, SESSION_LEASES_DDL } from "./lease_table.ts";
