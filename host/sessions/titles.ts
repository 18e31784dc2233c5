/**
 * Session titles for `GET /api/sessions` (README.md#the-page): a session's title is its
 * first user message, read server-side from the log (the live object, else storage), with
 * whitespace collapsed and cut to {@linkcode TITLE_MAX} characters (UTF-16 code units, as message
 * texts are counted, README.md "HTTP API", never splitting a surrogate pair). A fork's title is its first
 * own message (from `seedLength` on), else the inherited one; `forkOf` names the parent and its
 * title. A rename (`session/title`, host/sessions/admin.ts) wins over the first message; its
 * latest one is read once per id from the store's type index and kept current by the rename
 * route. Titles from first messages never change once found (a log only grows), so they are
 * cached.
 *
 * @module
 */
import type { SessionHeader, SessionStore } from "@chime/session";

/**
 * Longest title in UTF-16 code units (as message texts and the page's `maxlength` count: a
 * Chinese character counts 1, an emoji 2); longer first messages end with `…`.
 */
export const TITLE_MAX = 80;

/** Events read from the start of a log (or of a fork's own part) to find its first message. */
const SCAN = 64;

/** One row of `GET /api/sessions`, backward compatible (`header`, `live`) plus titles. */
export interface SessionRow {
  /** The session header. */
  readonly header: SessionHeader;
  /** Whether the session is live. */
  readonly live: boolean;
  /** The first user message, shortened; `null` before any. */
  readonly title: string | null;
  /** For a fork: the parent id and its title. */
  readonly forkOf?: { readonly id: string; readonly title: string | null };
  /** What the loaded plugins count there (`PluginWeb.sessionCounts`), summed. */
  readonly counts?: { readonly pending: number; readonly late: number };
}

/**
 * Shortens a user message into a one-line title.
 *
 * @param text the message text
 * @returns the title, or `null` for blank text
 * @example
 * ```ts
 * import { titleOf } from "./titles.ts";
 * console.assert(titleOf("  remind me\n in 20 min ") === "remind me in 20 min");
 * ```
 */
export function titleOf(text: string): string | null {
  const line = text.replace(/\s+/g, " ").trim();
  if (line === "") return null;
  if (line.length <= TITLE_MAX) return line;
  // `…` is one unit; a cut inside a surrogate pair drops its half.
  let end = TITLE_MAX - 1;
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${line.slice(0, end)}…`;
}

/** Reads and caches session titles from a store. */
export class SessionTitles {
  readonly #store: SessionStore;
  readonly #found = new Map<string, string>();
  /** The latest rename of each session read so far (`null`: none, or back to the first message). */
  readonly #renames = new Map<string, string | null>();

  /**
   * Creates a title reader.
   *
   * @param store the session store (live objects first, storage otherwise)
   */
  constructor(store: SessionStore) {
    this.#store = store;
  }

  /**
   * The title of a session.
   *
   * @param id a session id
   * @param from the first seq to look at (a fork's `seedLength`) @default 0
   * @returns the first user message from `from` on (else from 0), or `null`
   */
  async title(id: string, from = 0): Promise<string | null> {
    const renamed = await this.#renamedTitle(id);
    if (renamed !== null) return renamed;
    const key = `${id}@${from}`;
    const known = this.#found.get(key);
    if (known !== undefined) return known;
    const title = await this.#scan(id, from);
    if (title !== null) this.#found.set(key, title);
    // A fork without a message of its own yet shows the inherited title (not cached here).
    return title === null && from > 0 ? await this.title(id, 0) : title;
  }

  /**
   * The list rows of some headers, with titles and fork parentage.
   *
   * @param headers the headers, in list order
   * @returns one row per header
   */
  rows(headers: readonly SessionHeader[]): Promise<SessionRow[]> {
    return Promise.all(headers.map(async (header) => {
      const live = this.#store.live(header.id) !== undefined;
      const title = await this.title(header.id, header.seedLength ?? 0);
      const parent = header.lineage?.parentId;
      if (parent === undefined) return { header, live, title };
      return { header, live, title, forkOf: { id: parent, title: await this.title(parent) } };
    }));
  }

  /**
   * Records a rename made through this host.
   *
   * @param id the session id
   * @param title the new title, `null` back to the first message's
   */
  renamed(id: string, title: string | null): void {
    this.#renames.set(id, title);
  }

  async #renamedTitle(id: string): Promise<string | null> {
    if (this.#renames.has(id)) return this.#renames.get(id)!;
    let title: string | null = null;
    try {
      const live = this.#store.live(id);
      const events = await this.#store.readByType(live ?? id, ["session/title"]);
      const last = events.at(-1)?.data as { title?: unknown } | undefined;
      title = typeof last?.title === "string" ? last.title : null;
    } catch {
      return null; // unreadable: the first message's title, not cached
    }
    this.#renames.set(id, title);
    return title;
  }

  async #scan(id: string, from: number): Promise<string | null> {
    const live = this.#store.live(id);
    let events;
    try {
      events = live
        ? await this.#store.read(live, from, Math.min(live.length, from + SCAN))
        : await this.#store.readStored(id, {
          ...(from > 0 ? { after: from - 1 } : {}),
          limit: SCAN,
        });
    } catch {
      return null; // unknown id or unreadable storage: untitled, the list still answers
    }
    for (const e of events) {
      if (e.type !== "user-rpc") continue;
      const text = (e.data as { text?: unknown }).text;
      if (typeof text === "string") {
        const title = titleOf(text);
        if (title !== null) return title;
      }
    }
    return null;
  }
}
