/**
 * The part of npm `web-push` (3.6.7) the plugin uses, typed here: `@types/web-push` would pull
 * `@types/node` into the workspace's type graph. Encryption (RFC 8291 `aes128gcm`) and the VAPID
 * signature (RFC 8292) are the library's; the plugin sends the request itself (`./sender.ts`).
 *
 * @module
 */
import untyped from "web-push";

/** A subscription as `web-push` takes it. */
interface Subscription {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/** The request `generateRequestDetails` describes. */
interface RequestDetails {
  readonly method: string;
  readonly headers: Record<string, string | number>;
  readonly body: Uint8Array | null;
  readonly endpoint: string;
}

/** The typed surface. */
interface WebPush {
  generateVAPIDKeys(): { publicKey: string; privateKey: string };
  generateRequestDetails(
    subscription: Subscription,
    payload: string,
    options: {
      readonly vapidDetails: { subject: string; publicKey: string; privateKey: string };
      readonly TTL: number;
      readonly contentEncoding: "aes128gcm";
      readonly urgency: "very-low" | "low" | "normal" | "high";
    },
  ): RequestDetails;
}

/** `web-push`'s default export. */
export const webpush: WebPush = untyped as WebPush;
