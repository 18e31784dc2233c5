/**
 * Private to `server.ts`: the {@linkcode TcpFront} on a thread of its own (`_front_worker.ts`).
 * The front relays every byte of every public connection; on the main thread each relayed
 * chunk (a fan-out frame to each stream client) would cost a read and a write there, and wait
 * behind every synchronous commit and turn. On its own thread it runs beside them.
 *
 * @module
 */
import type { FrontOptions } from "./_front.ts";
import type { FrontReply, FrontRequest } from "./_front_worker.ts";

/** The front's worker; dispose with {@linkcode FrontThread.close}. */
export class FrontThread {
  readonly #worker: Worker;
  readonly #addr: Deno.NetAddr;
  #closing: Promise<void> | undefined;

  /** Resolved if the worker fails after it listened (a close then waits for nothing). */
  readonly #dead = Promise.withResolvers<void>();

  private constructor(worker: Worker, addr: Deno.NetAddr) {
    this.#worker = worker;
    this.#addr = addr;
    worker.onerror = (event) => {
      // The public port is gone with it: said once, on the console, not swallowed.
      event.preventDefault();
      console.error(`chime: the idle front stopped: ${event.message}`);
      this.#dead.resolve();
    };
  }

  /**
   * Starts the worker and its listener.
   *
   * @param options where to listen and relay, and the idle time
   * @returns the front, once it listens
   * @throws {Deno.errors.AddrInUse} when the port is taken; an `Error` with the listener's
   *   message for any other failure to listen
   */
  static async listen(options: FrontOptions): Promise<FrontThread> {
    const worker = new Worker(new URL("./_front_worker.ts", import.meta.url), { type: "module" });
    const reply = await new Promise<FrontReply>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<FrontReply>) => resolve(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        reject(new Error(`Cannot start the front: ${event.message}`));
      };
      worker.postMessage({ kind: "listen", options } satisfies FrontRequest);
    }).catch((error) => {
      worker.terminate();
      throw error;
    });
    if (reply.kind !== "listening") {
      worker.terminate();
      const message = reply.kind === "failed" ? reply.message : "the front closed";
      throw reply.kind === "failed" && reply.addrInUse
        ? new Deno.errors.AddrInUse(message)
        : new Error(message);
    }
    return new FrontThread(worker, reply.addr);
  }

  /** The public address. */
  get addr(): Deno.NetAddr {
    return this.#addr;
  }

  /** Stops accepting new connections (relayed ones continue). */
  stopListening(): void {
    if (this.#closing === undefined) {
      this.#worker.postMessage({ kind: "stop" } satisfies FrontRequest);
    }
  }

  /** Stops listening, closes every relayed connection and ends the worker. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= Promise.race([
      new Promise<void>((resolve) => {
        this.#worker.onmessage = () => resolve();
        this.#worker.postMessage({ kind: "close" } satisfies FrontRequest);
      }),
      this.#dead.promise,
    ]).finally(() => this.#worker.terminate());
    return this.#closing;
  }
}
