/**
 * The browsers' push subscriptions, stored durably in `<dataDir>/push/subscriptions.json` (mode
 * `0600`, replaced atomically: a temporary file, `fsync`, rename), each tied to the sessions it
 * asked for (docs/push.md "What is stored"). Unsubscribing, a `404`/`410` from the push
 * service and a payload that cannot be encrypted to its keys remove one; a deleted session
 * leaves every subscription, and one left with no session is removed.
 *
 * @module
 */

/** The keys of a `PushSubscription` (RFC 8291): URL-safe base64. */
export interface SubscriptionKeys {
  /** The browser's P-256 public key, uncompressed (65 bytes). */
  readonly p256dh: string;
  /** The 16-byte authentication secret. */
  readonly auth: string;
}

/** One stored subscription. */
export interface StoredSubscription {
  /** The push service URL (unique per browser subscription). */
  readonly endpoint: string;
  /** Its keys. */
  readonly keys: SubscriptionKeys;
  /** The sessions it asked for, oldest first. */
  readonly sessions: readonly string[];
  /** The language its notifications speak. */
  readonly lang: "en" | "zh";
  /** When it was first stored, UTC RFC 3339. */
  readonly createdAt: string;
}

/** The subscriptions file's name below the push directory. */
export const SUBSCRIPTIONS_FILE = "subscriptions.json";

/** Sessions one subscription may ask for; the oldest go first. */
export const MAX_SESSIONS_PER_SUBSCRIPTION = 200;

/**
 * The subscriptions of one host. Reads are from memory; every change is written through before
 * the call that made it resolves.
 */
export class PushSubscriptions {
  readonly #path: string | undefined;
  readonly #byEndpoint = new Map<string, StoredSubscription>();
  #writing: Promise<void> = Promise.resolve();

  private constructor(path: string | undefined) {
    this.#path = path;
  }

  /**
   * Opens the store in `dir` (memory only without one).
   *
   * @param dir the push directory, or `undefined`
   * @returns the store
   * @throws {Error} for a file that is not a subscriptions file
   */
  static async open(dir: string | undefined): Promise<PushSubscriptions> {
    const store = new PushSubscriptions(
      dir === undefined ? undefined : `${dir}/${SUBSCRIPTIONS_FILE}`,
    );
    if (store.#path === undefined) return store;
    let text: string;
    try {
      text = await Deno.readTextFile(store.#path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return store;
      throw error;
    }
    const parsed = JSON.parse(text) as { version?: unknown; subscriptions?: unknown };
    if (parsed.version !== 1 || !Array.isArray(parsed.subscriptions)) {
      throw new Error(`Cannot load push subscriptions: ${store.#path} is not version 1`);
    }
    for (const s of parsed.subscriptions as StoredSubscription[]) {
      store.#byEndpoint.set(s.endpoint, s);
    }
    return store;
  }

  /** Every subscription, in storage order. */
  get all(): readonly StoredSubscription[] {
    return [...this.#byEndpoint.values()];
  }

  /**
   * The subscriptions that asked for a session.
   *
   * @param sessionId the session
   * @returns them
   */
  of(sessionId: string): StoredSubscription[] {
    return this.all.filter((s) => s.sessions.includes(sessionId));
  }

  /**
   * Adds a session to a subscription (creating it), stored before it resolves.
   *
   * @param subscription endpoint, keys and language
   * @param sessionId the session it asks for
   * @param now the instant, UTC RFC 3339
   * @returns the stored subscription
   */
  async add(
    subscription: Pick<StoredSubscription, "endpoint" | "keys" | "lang">,
    sessionId: string,
    now: string,
  ): Promise<StoredSubscription> {
    const known = this.#byEndpoint.get(subscription.endpoint);
    const sessions = [...(known?.sessions ?? []).filter((id) => id !== sessionId), sessionId]
      .slice(-MAX_SESSIONS_PER_SUBSCRIPTION);
    const stored: StoredSubscription = {
      endpoint: subscription.endpoint,
      keys: subscription.keys,
      lang: subscription.lang,
      sessions,
      createdAt: known?.createdAt ?? now,
    };
    this.#byEndpoint.set(stored.endpoint, stored);
    await this.#save();
    return stored;
  }

  /**
   * Removes a subscription (unsubscribed, or gone at the push service).
   *
   * @param endpoint its endpoint
   * @returns `true` when it was stored
   */
  async remove(endpoint: string): Promise<boolean> {
    if (!this.#byEndpoint.delete(endpoint)) return false;
    await this.#save();
    return true;
  }

  /**
   * Removes a session from every subscription (it was deleted); a subscription left with no
   * session is removed. Stored before it resolves (one write, none when nothing changed).
   *
   * @param sessionId the deleted session
   * @returns how many subscriptions named it
   */
  async forgetSession(sessionId: string): Promise<number> {
    let changed = 0;
    for (const stored of this.all) {
      if (!stored.sessions.includes(sessionId)) continue;
      changed++;
      const sessions = stored.sessions.filter((id) => id !== sessionId);
      if (sessions.length === 0) this.#byEndpoint.delete(stored.endpoint);
      else this.#byEndpoint.set(stored.endpoint, { ...stored, sessions });
    }
    if (changed > 0) await this.#save();
    return changed;
  }

  /** Settles once every change so far is on disk. */
  flushed(): Promise<void> {
    return this.#writing;
  }

  #save(): Promise<void> {
    const path = this.#path;
    if (path === undefined) return Promise.resolve();
    const next = this.#writing.catch(() => {}).then(async () => {
      const text = JSON.stringify({ version: 1, subscriptions: this.all }, null, 1) + "\n";
      const tmp = `${path}.tmp`;
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true, mode: 0o700 });
      const file = await Deno.open(tmp, { write: true, create: true, truncate: true, mode: 0o600 });
      try {
        await file.write(new TextEncoder().encode(text));
        await file.sync();
      } finally {
        file.close();
      }
      await Deno.chmod(tmp, 0o600);
      await Deno.rename(tmp, path);
    });
    this.#writing = next;
    return next;
  }
}
