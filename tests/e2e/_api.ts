/**
 * HTTP helpers of the e2e lane: read a session's whole persisted history and poll for a
 * condition with a deadline (no fixed sleeps).
 *
 * @module
 */

/** A durable event as the history route returns it. */
export interface Ev {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  // deno-lint-ignore no-explicit-any
  readonly data: any;
}

/** Every event of a session (the history route pages backwards, ≤ 500 per page). */
export async function history(base: string, id: string): Promise<Ev[]> {
  let events: Ev[] = [];
  let before: number | null | undefined;
  do {
    const q = new URLSearchParams({ limit: "500" });
    if (typeof before === "number") q.set("before", String(before));
    const res = await fetch(`${base}/api/sessions/${encodeURIComponent(id)}/history?${q}`);
    if (!res.ok) throw new Error(`history ${res.status}: ${await res.text()}`);
    const page = await res.json() as { events: Ev[]; nextBefore: number | null };
    events = [...page.events, ...events];
    before = page.nextBefore;
  } while (typeof before === "number");
  return events;
}

/**
 * Polls `probe` until it returns a value other than `undefined`/`false`.
 *
 * @param what what is awaited (for the timeout message)
 * @param probe the check
 * @param timeoutMs deadline in ms @default 20000
 * @returns the probe's value
 * @throws {Error} on timeout, with the last value
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `schedule/change` events with `op`. */
export function changes(events: readonly Ev[], op: "create" | "dispatch" | "delete"): Ev[] {
  return events.filter((e) => e.type === "schedule/change" && e.data.op === op);
}

/** The `tool/result` of the `schedule_create` call whose args' prompt is `prompt`, in order. */
export function createResults(events: readonly Ev[], prompt: string): Ev[] {
  const calls = new Set(
    events.filter((e) =>
      e.type === "tool/call" && e.data.name === "schedule_create" && e.data.args?.prompt === prompt
    ).map((e) => `${e.data.turnId}/${e.data.callId}`),
  );
  return events.filter((e) =>
    e.type === "tool/result" && calls.has(`${e.data.turnId}/${e.data.callId}`)
  );
}

/** Resolves once the session's last turn has ended and no turn is open. */
export async function idle(base: string, id: string, minTurns = 1): Promise<Ev[]> {
  return await until(`session ${id} idle after ${minTurns} turn(s)`, async () => {
    const events = await history(base, id);
    let open = 0;
    let ended = 0;
    for (const e of events) {
      if (e.type === "turn/start") open++;
      if (e.type === "turn/end") (open--, ended++);
    }
    return open === 0 && ended >= minTurns ? events : undefined;
  });
}

/**
 * Waits until the user message `text` was answered: a `turn/end` follows it and no turn is
 * open any more.
 *
 * @returns the history at that point
 */
export async function answered(base: string, id: string, text: string): Promise<Ev[]> {
  return await until(`an answer to "${text}"`, async () => {
    const events = await history(base, id);
    const asked = events.findLast((e) => e.type === "user-rpc" && e.data.text === text);
    if (asked === undefined) return undefined;
    let open = 0;
    let endedAfter = false;
    for (const e of events) {
      if (e.type === "turn/start") open++;
      if (e.type === "turn/end") {
        open--;
        if (e.seq > asked.seq) endedAfter = true;
      }
    }
    return open === 0 && endedAfter ? events : undefined;
  });
}
