/**
 * {@linkcode SignIns}: the browser sign-ins of a host with an access token (README "Security").
 * Each sign-in is a fresh random secret (256 bits) held by one browser's cookie; the host keeps
 * only its SHA-256 digest, with when it was made and when it expires, in a small JSON file of
 * the data directory (mode 0600, replaced atomically), so sign-ins survive a restart and any of
 * them can be revoked. A changed token revokes every sign-in; at most `maxSignIns` are kept (the
 * oldest is dropped).
 *
 * @module
 */
import { getLogger } from "@logtape/logtape";
import { writeFileAtomic } from "../_atomic_file.ts";
import { HostError } from "../errors.ts";

/** A sign-in lasts 30 days unless configured otherwise (`signIn.maxAgeDays`). */
export const DEFAULT_SIGN_IN_MAX_AGE_DAYS = 30;
/** At most this many sign-ins are kept unless configured otherwise (`signIn.maxSignIns`). */
export const DEFAULT_MAX_SIGN_INS = 32;

const DAY_MS = 86_400_000;
/** 32 random bytes in base64url, no padding: what a cookie of this module holds. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const FORMAT = 1;

/** Options of {@linkcode SignIns.open}. */
export interface SignInsOptions {
  /** The host's access token: a file written under another token is discarded. */
  readonly token: string;
  /**
   * The JSON file the sign-ins live in (digests only); created on the first sign-in.
   * @default none: sign-ins live in memory and end with the process
   */
  readonly path?: string;
  /** How long a sign-in lasts, ms (the cookie's `Max-Age` and the host's own expiry). @default 30 days */
  readonly maxAgeMs?: number;
  /** Sign-ins kept at most; a new one beyond drops the oldest. @default 32 */
  readonly maxSignIns?: number;
  /** Wall clock, epoch ms (tests inject one). @default Date.now */
  readonly now?: () => number;
}

/** One sign-in as the host knows it (never its secret). */
export interface SignIn {
  /** When it was made, epoch ms UTC. */
  readonly createdAt: number;
  /** When it stops working, epoch ms UTC. */
  readonly expiresAt: number;
}

/** A new sign-in: the secret to set as the cookie (sent once, never stored) and its expiry. */
export interface NewSignIn extends SignIn {
  /** The cookie value: 32 random bytes, base64url. */
  readonly secret: string;
}

interface Stored extends SignIn {
  /** Hex SHA-256 of the secret. */
  readonly digest: string;
}

interface FileShape {
  readonly format: number;
  /** Hex random salt of {@linkcode FileShape.tokenCheck}. */
  readonly salt: string;
  /** Hex SHA-256 of `chime-sign-ins:<salt>:<token>`: which token these sign-ins belong to. */
  readonly tokenCheck: string;
  readonly signIns: readonly Stored[];
}

const encoder = new TextEncoder();

async function sha256Hex(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

function isStored(value: unknown): value is Stored {
  const v = value as Partial<Stored> | null;
  return typeof v === "object" && v !== null && typeof v.digest === "string" &&
    /^[0-9a-f]{64}$/.test(v.digest) && Number.isSafeInteger(v.createdAt) &&
    Number.isSafeInteger(v.expiresAt);
}

function parseFile(text: string): FileShape | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as Partial<FileShape> | null;
  if (
    typeof v !== "object" || v === null || v.format !== FORMAT || typeof v.salt !== "string" ||
    typeof v.tokenCheck !== "string" || !Array.isArray(v.signIns) || !v.signIns.every(isStored)
  ) return undefined;
  return v as FileShape;
}

/**
 * The sign-ins of one host. Every change is written to the file before it takes effect, one at
 * a time: a sign-in whose write failed never gets a cookie, and a sign-out whose write failed
 * changes nothing (`503 sign_ins_unwritable`, retry).
 *
 * @example Sign in, look up, sign out (in memory)
 * ```ts
 * import { SignIns } from "@chime/host";
 * const signIns = await SignIns.open({ token: "a-long-enough-token" });
 * const made = await signIns.create();
 * console.assert((await signIns.find(made.secret))?.expiresAt === made.expiresAt);
 * await signIns.revoke(made.secret);
 * console.assert((await signIns.find(made.secret)) === undefined);
 * ```
 */
export class SignIns {
  /** How long a sign-in lasts, ms. */
  readonly maxAgeMs: number;
  /** Sign-ins kept at most. */
  readonly maxSignIns: number;
  readonly #path: string | undefined;
  readonly #now: () => number;
  readonly #salt: string;
  readonly #tokenCheck: string;
  /** By digest. Replaced whole after each successful write. */
  #byDigest: ReadonlyMap<string, Stored>;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(
    options: SignInsOptions,
    salt: string,
    tokenCheck: string,
    stored: readonly Stored[],
  ) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_SIGN_IN_MAX_AGE_DAYS * DAY_MS;
    this.maxSignIns = options.maxSignIns ?? DEFAULT_MAX_SIGN_INS;
    this.#path = options.path;
    this.#now = options.now ?? Date.now;
    this.#salt = salt;
    this.#tokenCheck = tokenCheck;
    this.#byDigest = new Map(stored.map((s) => [s.digest, s]));
  }

  /**
   * Loads the sign-ins of `options.path`, keeping those made under this token that have not
   * expired. A missing file is no sign-ins; a file written under another token is emptied (a
   * changed token revokes every sign-in); a damaged or unreadable file is no sign-ins, with a
   * warning on the `chime.host` logger (everyone signs in again). Never throws.
   *
   * @param options the token, the file, the lifetime and the bound
   * @returns the sign-ins
   */
  static async open(options: SignInsOptions): Promise<SignIns> {
    const log = getLogger(["chime", "host"]);
    let file: FileShape | undefined;
    if (options.path !== undefined) {
      try {
        const text = await Deno.readTextFile(options.path);
        file = parseFile(text);
        if (file === undefined) {
          log.warn("sign-ins file {path} is damaged: every browser signs in again", {
            path: options.path,
          });
        }
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) {
          log.warn("sign-ins file {path} cannot be read ({error}): every browser signs in again", {
            path: options.path,
            error: error instanceof Error ? error.name : String(error),
          });
        }
      }
    }
    const salt = file?.salt ?? base64url(randomBytes(16));
    const tokenCheck = await sha256Hex(`chime-sign-ins:${salt}:${options.token}`);
    const sameToken = file !== undefined && file.tokenCheck === tokenCheck;
    const now = (options.now ?? Date.now)();
    const kept = sameToken ? file!.signIns.filter((s) => s.expiresAt > now) : [];
    const signIns = new SignIns(options, salt, tokenCheck, kept);
    if (file !== undefined && kept.length !== file.signIns.length) {
      // Another token's (or expired) digests leave the disk now, not at the next sign-in.
      await signIns.#write(signIns.#byDigest).catch((error) =>
        log.warn("sign-ins file {path} cannot be rewritten ({error})", {
          path: options.path,
          error: error instanceof Error ? error.name : String(error),
        })
      );
    }
    return signIns;
  }

  /** Sign-ins that have not expired. */
  get size(): number {
    const now = this.#now();
    let n = 0;
    for (const s of this.#byDigest.values()) if (s.expiresAt > now) n++;
    return n;
  }

  /**
   * Makes a sign-in, durable before it returns. Beyond `maxSignIns` the oldest are dropped.
   *
   * @param replacing the secret of this browser's current sign-in, dropped in the same write
   * @returns the secret (for the cookie) and its expiry
   * @throws {HostError} `sign_ins_unwritable` when the file cannot be written (nothing changed)
   */
  create(replacing?: string): Promise<NewSignIn> {
    return this.#serial(async () => {
      const secret = base64url(randomBytes(32));
      const now = this.#now();
      const made: Stored = {
        digest: await sha256Hex(secret),
        createdAt: now,
        expiresAt: now + this.maxAgeMs,
      };
      const old = replacing === undefined ? undefined : await this.#digestOf(replacing);
      const live = [...this.#byDigest.values()]
        .filter((s) => s.expiresAt > now && s.digest !== old)
        .sort((a, b) => a.createdAt - b.createdAt);
      const kept = live.slice(Math.max(0, live.length - (this.maxSignIns - 1)));
      await this.#commit(new Map([...kept, made].map((s) => [s.digest, s])), "sign in");
      return { secret, createdAt: made.createdAt, expiresAt: made.expiresAt };
    });
  }

  /**
   * The sign-in a cookie value holds, unless it is unknown, revoked or expired.
   *
   * @param secret the cookie value
   * @returns the sign-in, or `undefined`
   */
  async find(secret: string): Promise<SignIn | undefined> {
    const digest = await this.#digestOf(secret);
    const found = digest === undefined ? undefined : this.#byDigest.get(digest);
    if (found === undefined || found.expiresAt <= this.#now()) return undefined;
    return { createdAt: found.createdAt, expiresAt: found.expiresAt };
  }

  /**
   * Revokes one sign-in ("sign out" in one browser), durable before it returns.
   *
   * @param secret the cookie value
   * @returns whether it was signed in
   * @throws {HostError} `sign_ins_unwritable` when the file cannot be written (nothing changed)
   */
  revoke(secret: string): Promise<boolean> {
    return this.#serial(async () => {
      const digest = await this.#digestOf(secret);
      if (digest === undefined || !this.#byDigest.has(digest)) return false;
      const next = new Map(this.#byDigest);
      next.delete(digest);
      await this.#commit(next, "sign out");
      return true;
    });
  }

  /**
   * Revokes every sign-in ("sign out everywhere"), durable before it returns. Bearer clients
   * are not affected (they present the token itself; change it to lock them out).
   *
   * @returns how many unexpired sign-ins ended
   * @throws {HostError} `sign_ins_unwritable` when the file cannot be written (nothing changed)
   */
  revokeAll(): Promise<number> {
    return this.#serial(async () => {
      const ended = this.size;
      await this.#commit(new Map(), "sign out everywhere");
      return ended;
    });
  }

  async #digestOf(secret: string): Promise<string | undefined> {
    return SECRET.test(secret) ? await sha256Hex(secret) : undefined;
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }

  async #commit(next: ReadonlyMap<string, Stored>, action: string): Promise<void> {
    try {
      await this.#write(next);
    } catch (error) {
      throw new HostError(
        "sign_ins_unwritable",
        `Cannot ${action}: the sign-ins file cannot be written (${
          error instanceof Error ? error.name : "error"
        }); nothing changed, try again`,
      );
    }
    this.#byDigest = next;
  }

  async #write(next: ReadonlyMap<string, Stored>): Promise<void> {
    if (this.#path === undefined) return;
    const now = this.#now();
    const file: FileShape = {
      format: FORMAT,
      salt: this.#salt,
      tokenCheck: this.#tokenCheck,
      signIns: [...next.values()].filter((s) => s.expiresAt > now),
    };
    await writeFileAtomic(this.#path, `${JSON.stringify(file, null, 1)}\n`);
  }
}
