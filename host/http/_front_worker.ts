/**
 * Private to `_front_thread.ts`: the worker that runs the {@linkcode TcpFront}, so relaying
 * bytes never waits for the main thread (a commit's `fsync`, a turn) and costs it nothing.
 * Messages in: `listen` (with the options), `stop`, `close`; out: `listening` (the public
 * address), `failed` (the listen error), `closed`.
 *
 * @module
 */
import { type FrontOptions, TcpFront } from "./_front.ts";

/** What the worker is told. */
export type FrontRequest =
  | { readonly kind: "listen"; readonly options: FrontOptions }
  | { readonly kind: "stop" }
  | { readonly kind: "close" };

/** What the worker answers. */
export type FrontReply =
  | { readonly kind: "listening"; readonly addr: Deno.NetAddr }
  | { readonly kind: "failed"; readonly addrInUse: boolean; readonly message: string }
  | { readonly kind: "closed" };

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<FrontRequest>) => void) | null;
  postMessage(message: FrontReply): void;
};
let front: TcpFront | undefined;

scope.onmessage = (event) => {
  const request = event.data;
  if (request.kind === "listen") {
    try {
      front = TcpFront.listen(request.options);
      scope.postMessage({ kind: "listening", addr: front.addr });
    } catch (error) {
      scope.postMessage({
        kind: "failed",
        addrInUse: error instanceof Deno.errors.AddrInUse,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  } else if (request.kind === "stop") {
    front?.stopListening();
  } else {
    void (front?.close() ?? Promise.resolve()).finally(() => scope.postMessage({ kind: "closed" }));
  }
};
