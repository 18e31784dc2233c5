/**
 * Private: `GET /readyz`, the readiness probe (docs/operations.md). Unauthenticated like
 * `/healthz`; `/healthz` says the process answers, `/readyz` whether a write sent now can be
 * stored durably.
 *
 * @module
 */
import type { Context } from "hono";
import type { HostRuntime } from "../sessions/runtime.ts";

/** The `/readyz` body: `{ ready: true }`, or `{ ready: false, reasons }` (one sentence each). */
export type Readiness = { readonly ready: true } | {
  readonly ready: false;
  readonly reasons: readonly string[];
};

/**
 * Whether the host can take writes now: storage reports healthy (for libSQL: the database and
 * its `-wal` are still the files at their path, `storage_lost` otherwise), in shared mode the
 * lease renewals keep its leases in force (`HostLeases.health`, `../leases/leases.ts`), and
 * shutdown has not begun.
 *
 * @param runtime the host runtime
 * @returns the readiness
 */
export function readiness(runtime: HostRuntime): Readiness {
  const reasons = [
    ...(runtime.store.backend.health?.().reasons ?? []),
    ...(runtime.leases?.health().reasons ?? []),
  ];
  if (runtime.closing) reasons.push("the host is stopping");
  return reasons.length === 0 ? { ready: true } : { ready: false, reasons };
}

/**
 * The `/readyz` handler: `200 { ready: true }` or `503 { ready: false, reasons }`.
 *
 * @param runtime the host runtime
 * @returns the handler
 */
export function readyRoute(runtime: HostRuntime): (c: Context) => Response {
  return (c) => {
    const state = readiness(runtime);
    return c.json(state, state.ready ? 200 : 503);
  };
}
