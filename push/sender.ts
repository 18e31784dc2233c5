/**
 * {@linkcode PushQueue}: fire-and-forget delivery of Web Push messages. `web-push` encrypts each
 * payload as RFC 8291 `aes128gcm` and signs the VAPID header (RFC 8292); the request is sent
 * with `fetch` under a timeout, a few at a time, from a bounded queue, so a push service that is
 * down or slow never delays a dispatch, a commit or a page (docs/push.md "Delivery").
 *
 * @module
 */
import { metrics } from "@opentelemetry/api";
import { webpush } from "./_web_push.ts";
import type { VapidKeys } from "./keys.ts";
import type { StoredSubscription } from "./subscriptions.ts";
import { keysRefusal } from "./_checks.ts";

// OpenTelemetry (docs/operations.md): no-op unless Deno's exporter is on (OTEL_DENO=true).
const failures = metrics.getMeter("chime.push").createCounter("chime.push.failures", {
  description: "Push messages not delivered: queue full, refused, or the service unreachable.",
  unit: "{message}",
});
/** Where the queue reports what went wrong (never a key, never a whole endpoint URL). */
export interface PushLogger {
  /** A contained failure. */
  warn(message: string, details?: unknown): void;
}

/** Options of {@linkcode PushQueue}. */
export interface PushQueueOptions {
  /** The host's VAPID pair. */
  readonly keys: VapidKeys;
  /** The VAPID `sub` claim: a `mailto:` or `https:` contact (RFC 8292 §2.1). */
  readonly subject: string;
  /** One request's deadline, ms. @default 10000 */
  readonly timeoutMs?: number;
  /** Requests in flight at once. @default 4 */
  readonly concurrency?: number;
  /** Messages waiting at most; beyond it the oldest is dropped (and logged). @default 1000 */
  readonly maxQueued?: number;
  /** How long the push service keeps an undelivered message, s (`TTL`). @default 3600 */
  readonly ttlSeconds?: number;
  /**
   * A subscription that cannot be used again: the push service says it is gone (`404`,
   * `410`), or its keys cannot encrypt a payload (a `p256dh` that is no P-256 point, an `auth`
   * of the wrong length).
   */
  readonly onGone: (endpoint: string) => void;
  /** Failures. @default none */
  readonly logger?: PushLogger;
  /** The HTTP client. @default globalThis.fetch */
  readonly fetch?: typeof fetch;
}

/** RFC 8030 §5.3 `Urgency` of a message. */
export type PushUrgency = "normal" | "high";

interface Job {
  readonly subscription: StoredSubscription;
  readonly payload: string;
  readonly urgency: PushUrgency;
}

/** The push service's origin, for log lines (the path is the subscription's secret). */
function origin(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return "(bad endpoint)";
  }
}

/** A bounded queue of push requests, drained by a few workers. */
export class PushQueue implements AsyncDisposable {
  readonly #options: PushQueueOptions;
  readonly #jobs: Job[] = [];
  readonly #running = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  #closed = false;
  #sent = 0;

  /**
   * Creates the queue.
   *
   * @param options keys, contact, limits and the gone callback
   */
  constructor(options: PushQueueOptions) {
    this.#options = options;
    failures.add(0); // the series exists from the start, so an alert can read zero
  }

  /** Requests answered with a success status so far. */
  get sent(): number {
    return this.#sent;
  }

  /**
   * Queues one message and returns at once.
   *
   * @param subscription where to
   * @param payload the JSON payload (encrypted by `web-push`, at most about 3 KB)
   * @param urgency RFC 8030 `Urgency` @default "high"
   */
  send(subscription: StoredSubscription, payload: unknown, urgency: PushUrgency = "high"): void {
    if (this.#closed) return;
    this.#jobs.push({ subscription, payload: JSON.stringify(payload), urgency });
    const max = this.#options.maxQueued ?? 1000;
    while (this.#jobs.length > max) {
      const dropped = this.#jobs.shift()!;
      failures.add(1, { reason: "queue_full" });
      this.#options.logger?.warn("push queue full: a message was dropped", {
        service: origin(dropped.subscription.endpoint),
      });
    }
    this.#pump();
  }

  /** Settles once the queue is empty and nothing is in flight. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }

  #pump(): void {
    const concurrency = this.#options.concurrency ?? 4;
    while (this.#running.size < concurrency && this.#jobs.length > 0) {
      const job = this.#jobs.shift()!;
      const run: Promise<void> = this.#deliver(job).finally(() => {
        this.#running.delete(run);
        this.#pump();
      });
      this.#running.add(run);
    }
  }

  async #deliver(job: Job): Promise<void> {
    const { subscription } = job;
    const service = origin(subscription.endpoint);
    // Keys that cannot encrypt (stored before they were checked) fail every message the same
    // way: the subscription goes, nothing is sent.
    if (await keysRefusal(subscription.keys) !== undefined) {
      this.#options.logger?.warn("push keys unusable: the subscription was removed", { service });
      this.#options.onGone(subscription.endpoint);
      return;
    }
    let details: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { ...subscription.keys } },
        job.payload,
        {
          vapidDetails: {
            subject: this.#options.subject,
            publicKey: this.#options.keys.publicKey,
            privateKey: this.#options.keys.privateKey,
          },
          TTL: this.#options.ttlSeconds ?? 3600,
          contentEncoding: "aes128gcm",
          urgency: job.urgency,
        },
      );
    } catch (error) {
      // Checked keys that still encrypt nothing are as unusable.
      this.#options.logger?.warn(
        "push payload could not be encrypted: the subscription was removed",
        {
          service,
          error: error instanceof Error ? error.name : String(error),
        },
      );
      this.#options.onGone(subscription.endpoint);
      return;
    }
    try {
      const response = await (this.#options.fetch ?? fetch)(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        ...(details.body === null ? {} : { body: new Uint8Array(details.body) }),
        signal: AbortSignal.any([
          AbortSignal.timeout(this.#options.timeoutMs ?? 10_000),
          this.#abort.signal,
        ]),
      });
      await response.body?.cancel();
      if (response.status === 404 || response.status === 410) {
        this.#options.onGone(subscription.endpoint);
      } else if (response.ok) {
        this.#sent++;
      } else {
        failures.add(1, { reason: "refused" });
        this.#options.logger?.warn("push service refused a message", {
          service,
          status: response.status,
        });
      }
    } catch (error) {
      failures.add(1, { reason: "unreachable" });
      this.#options.logger?.warn("push service unreachable", {
        service,
        error: error instanceof Error ? error.name : String(error),
      });
    }
  }

  /** Drops what waits and aborts what is in flight. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#closed = true;
    this.#jobs.length = 0;
    this.#abort.abort();
    await this.idle();
  }
}
