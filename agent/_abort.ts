/**
 * Abort helpers shared by the turn loop and the adapters. Private to `@chime/agent`.
 *
 * @module
 */

/** The reason used when a turn is cancelled or the agent is disposed. */
export function abortReason(message: string): DOMException {
  return new DOMException(message, "AbortError");
}

/**
 * Settles with `promise`, or rejects with `signal.reason` as soon as `signal` aborts. The
 * losing promise keeps running; its later rejection is observed so it never goes unhandled.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => {});
  if (signal.aborted) return Promise.reject(signal.reason);
  const { promise: aborted, reject } = Promise.withResolvers<never>();
  const onAbort = () => reject(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  return Promise.race([promise, aborted]).finally(() =>
    signal.removeEventListener("abort", onAbort)
  );
}

/** Calls `fn` and turns a synchronous throw into a rejection. */
export function attempt<T>(fn: () => T | PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The text of any thrown value, for `turn/end.error` and tool errors. */
export function errorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
