/**
 * A TCP front with an idle timeout (private to `server.ts`). `Deno.serve` has no connection
 * timeouts: a client that opens a connection and sends nothing, stops mid-body or keeps an idle
 * keep-alive connection holds it forever. The front accepts the public connections, relays the
 * bytes to the HTTP server listening on a Unix socket in a private folder, and closes a connection that
 * moved no byte in either direction for the idle time (open streams send a comment every 15 s,
 * so they stay open).
 *
 * A request the HTTP server cannot parse gets the coded `400 malformed_request` of
 * `_bad_request.ts` instead of the server's empty one.
 *
 * @module
 */
import { codedBadRequest } from "./_bad_request.ts";

interface Relay {
  readonly client: Deno.Conn;
  upstream: Deno.Conn | undefined;
  last: number;
}

/** Options of {@linkcode TcpFront.listen}. */
export interface FrontOptions {
  /** Public interface. */
  readonly hostname: string;
  /** Public port (`0` picks one). */
  readonly port: number;
  /** The path of the private server's Unix socket. */
  readonly upstream: string;
  /** Close a connection after this long without a byte either way, ms. */
  readonly idleTimeoutMs: number;
}

function closeQuietly(conn: Deno.Conn | undefined): void {
  try {
    conn?.close();
  } catch {
    // already closed
  }
}

/** The public listener; dispose to close it and every relayed connection. */
export class TcpFront {
  readonly #listener: Deno.TcpListener;
  readonly #options: FrontOptions;
  readonly #relays = new Set<Relay>();
  readonly #sweep: ReturnType<typeof setInterval>;
  readonly #accepting: Promise<void>;
  #closed = false;

  private constructor(listener: Deno.TcpListener, options: FrontOptions) {
    this.#listener = listener;
    this.#options = options;
    this.#sweep = setInterval(
      () => this.#closeIdle(),
      Math.max(50, Math.min(options.idleTimeoutMs / 4, 5000)),
    );
    this.#accepting = this.#accept();
  }

  /**
   * Starts listening.
   *
   * @param options where to listen and relay, and the idle time
   * @returns the front
   * @throws {Deno.errors.AddrInUse} and the other errors of `Deno.listen`
   */
  static listen(options: FrontOptions): TcpFront {
    const listener = Deno.listen({ hostname: options.hostname, port: options.port });
    return new TcpFront(listener, options);
  }

  /** The public address. */
  get addr(): Deno.NetAddr {
    return this.#listener.addr;
  }

  /** Stops accepting new connections (relayed ones continue). */
  stopListening(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#listener.close();
    } catch {
      // already closed
    }
  }

  /** Stops listening and closes every relayed connection. */
  async close(): Promise<void> {
    this.stopListening();
    clearInterval(this.#sweep);
    for (const relay of this.#relays) this.#drop(relay);
    await this.#accepting;
  }

  async #accept(): Promise<void> {
    for (;;) {
      let client: Deno.Conn;
      try {
        client = await this.#listener.accept();
      } catch (error) {
        if (this.#closed || error instanceof Deno.errors.BadResource) return; // closed
        // The listener is still there: a connection reset before it was accepted
        // (`NotConnected`), or no file descriptor left (`too many open files`, a pause so the
        // open connections can end). Either way the next connection is accepted.
        if (!(error instanceof Deno.errors.NotConnected)) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        continue;
      }
      void this.#relay(client);
    }
  }

  async #relay(client: Deno.Conn): Promise<void> {
    const relay: Relay = { client, upstream: undefined, last: Date.now() };
    this.#relays.add(relay);
    try {
      const upstream = await Deno.connect({ transport: "unix", path: this.#options.upstream });
      relay.upstream = upstream;
      if (!this.#relays.has(relay)) return; // dropped while connecting
      await Promise.all([
        this.#pump(relay, client, upstream),
        this.#pump(relay, upstream, client, codedBadRequest),
      ]);
    } catch {
      // a reset or a refused upstream: the connection ends
    } finally {
      this.#drop(relay);
      closeQuietly(relay.upstream);
    }
  }

  async #pump(
    relay: Relay,
    from: Deno.Conn,
    to: Deno.Conn,
    rewrite?: (chunk: Uint8Array) => Uint8Array | undefined,
  ): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    const toServer = rewrite === undefined;
    let writing = false;
    try {
      for (;;) {
        const n = await from.read(buffer);
        relay.last = Date.now();
        if (n === null) break;
        const chunk = rewrite?.(buffer.subarray(0, n)) ?? buffer.subarray(0, n);
        writing = true;
        for (let offset = 0; offset < chunk.length;) {
          offset += await to.write(chunk.subarray(offset));
          relay.last = Date.now();
        }
        writing = false;
      }
      await to.closeWrite();
    } catch {
      // The server stopped reading (it answered, e.g. a header block over its limit, and
      // closes): its answer is still on its way through the other pump, which ends the relay.
      if (toServer && writing) return;
      // Otherwise one side failed: end both.
      this.#drop(relay);
    }
  }

  #closeIdle(): void {
    const now = Date.now();
    for (const relay of this.#relays) {
      if (now - relay.last >= this.#options.idleTimeoutMs) this.#drop(relay);
    }
  }

  #drop(relay: Relay): void {
    if (!this.#relays.delete(relay)) return;
    closeQuietly(relay.client);
    closeQuietly(relay.upstream);
  }
}
