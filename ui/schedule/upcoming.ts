/**
 * The Upcoming view's model (the `upcoming` page view of `@chime/ui/schedule`, docs/upcoming.md):
 * pages of `GET /api/reminders` (every session's active reminders by next occurrence; the host's
 * read-only projection), Open (the page routes to the session, opens its reminders panel and
 * highlights the reminder), each row's actions through its own session's routes (the same
 * {@linkcode sessionActions} as the reminders panel), and the all-sessions calendar feed's link
 * (`GET`/`POST`/`DELETE /api/reminders/feed`). Signals only: `deno test` drives it without a DOM.
 *
 * @module
 */
import { computed, createModel, signal } from "@preact/signals";
import type { PageViewHost, PageViewModel } from "../client_renderer.ts";
import { listServices, sessionActions } from "./_session_actions.ts";
import { SCHEDULE_SERVICES, type ScheduleServices } from "./_services.ts";
import type { ReminderOutcome } from "./_services.ts";
import type { Readable } from "../window_types.ts";
import type { ActiveReminderWire } from "../wire.ts";
import type { UpcomingEntry, UpcomingState } from "@chime/schedule/upcoming";

/** Where a listed reminder stands (the server's `UpcomingState`). */
export type UpcomingStateWire = UpcomingState;

/** One row of `GET /api/reminders` (the server's `UpcomingEntry`, its reminder as JSON). */
export type UpcomingEntryWire = Omit<UpcomingEntry, "reminder"> & {
  /** The reminder as its session's own list shows it. */
  readonly reminder: ActiveReminderWire;
};

/** The answer of `GET /api/reminders` (the server's `UpcomingPage`). */
export interface UpcomingPageWire {
  /** Rows by next occurrence (paused last). */
  readonly reminders: readonly UpcomingEntryWire[];
  /** The next page's cursor, `null` on the last. */
  readonly nextCursor: string | null;
  /** Sessions left out because their stored log is damaged (the server's `UpcomingDamage`). */
  readonly damaged?: readonly UpcomingDamageWire[];
}

/** A session the host left out of the list because its stored log is damaged (`UpcomingDamage`). */
export interface UpcomingDamageWire {
  /** The session. */
  readonly sessionId: string;
  /** The damaged event's seq; absent for a damaged header. */
  readonly seq?: number;
}

/** The feed link as the host last answered: `undefined` before it answered. */
export type FeedLink = string | null | undefined;

/** Rows per page. */
export const UPCOMING_PAGE = 50;

/** The name of the reminders panel Open brings into view. */
const REMINDERS = "reminders";

/** The Upcoming view's state and actions. */
export interface UpcomingModel extends PageViewModel {
  /** The rows loaded so far, in the host's order. */
  readonly rows: Readable<readonly UpcomingEntryWire[]>;
  /** Whether a later page exists. */
  readonly more: Readable<boolean>;
  /** `loading` until the first page answered, then `ready` (or `failed`). */
  readonly status: Readable<"loading" | "ready" | "failed">;
  /** The sessions the host could not read (damaged storage), as the last page named them. */
  readonly damaged: Readable<readonly UpcomingDamageWire[]>;
  /** The all-sessions feed's path with its key; `null`: none issued. */
  readonly feed: Readable<FeedLink>;
  /** Whether this page revoked the feed's key (until a new one is issued). */
  readonly revoked: Readable<boolean>;
  /** What each click led to, by row key. */
  readonly outcomes: Readable<ReadonlyMap<string, ReminderOutcome>>;
  /** The schedule services of one session's rows (their actions go through its routes). */
  servicesFor(sessionId: string): Readonly<Record<string, unknown>>;
  /** Reloads the rows shown so far (at least one page). */
  reload(): Promise<void>;
  /** Loads the next page. */
  loadMore(): Promise<void>;
  /** Opens a row's session at the reminder. */
  open(row: UpcomingEntryWire): void;
  /** Issues the feed's key (or reads the one issued). */
  issueFeed(): Promise<void>;
  /** Revokes the feed's key: the URL stops working at once. */
  revokeFeed(): Promise<void>;
}

/** The Upcoming model: `new UpcomingViewModel(host)`; dispose it with the page. */
export const UpcomingViewModel: new (host: PageViewHost) => UpcomingModel = createModel((
  host: PageViewHost,
) => {
  const rows = signal<readonly UpcomingEntryWire[]>([]);
  const cursor = signal<string | null>(null);
  const status = signal<"loading" | "ready" | "failed">("loading");
  const damaged = signal<readonly UpcomingDamageWire[]>([]);
  const feed = signal<FeedLink>(undefined);
  const revoked = signal(false);
  let asked = 0;

  const fetchPage = (limit: number, after?: string) => {
    const q = new URLSearchParams({ limit: String(limit) });
    if (after !== undefined) q.set("cursor", after);
    return host.api<UpcomingPageWire>(`/reminders?${q}`);
  };
  const reload = async (): Promise<void> => {
    const mine = ++asked;
    try {
      const page = await fetchPage(Math.min(200, Math.max(UPCOMING_PAGE, rows.peek().length)));
      if (mine !== asked) return;
      rows.value = page.reminders;
      cursor.value = page.nextCursor;
      damaged.value = page.damaged ?? [];
      status.value = "ready";
    } catch (err) {
      if (mine !== asked) return;
      if (status.peek() === "loading") status.value = "failed";
      host.fail(err);
    }
  };
  const actions = sessionActions({ request: host.request, after: () => void reload() });

  const readFeed = async (run: () => Promise<{ url: string | null }>) => {
    try {
      feed.value = (await run()).url;
      if (feed.peek() !== null) revoked.value = false;
    } catch (err) {
      host.fail(err);
    }
  };

  /** Rows of each session, for its services. */
  const bySession = computed(() => {
    const out = new Map<string, ActiveReminderWire[]>();
    for (const r of rows.value) {
      const list = out.get(r.sessionId) ?? [];
      list.push(r.reminder);
      out.set(r.sessionId, list);
    }
    return out;
  });

  return {
    rows,
    status,
    damaged,
    feed,
    revoked,
    outcomes: computed(() => actions.outcomes.value),
    more: computed(() => cursor.value !== null),
    reload,
    servicesFor(sessionId: string): Readonly<Record<string, unknown>> {
      const lent: ScheduleServices = listServices(
        actions,
        sessionId,
        bySession.value.get(sessionId) ?? [],
        actions.outcomes.value,
      );
      return { [SCHEDULE_SERVICES]: lent };
    },
    async loadMore(): Promise<void> {
      const after = cursor.peek();
      if (after === null) return;
      const mine = ++asked;
      try {
        const page = await fetchPage(UPCOMING_PAGE, after);
        if (mine !== asked) return;
        const seen = new Set(rows.peek().map((r) => `${r.sessionId}/${r.reminder.id}`));
        rows.value = [
          ...rows.peek(),
          ...page.reminders.filter((r) => !seen.has(`${r.sessionId}/${r.reminder.id}`)),
        ];
        cursor.value = page.nextCursor;
        damaged.value = page.damaged ?? [];
      } catch (err) {
        host.fail(err);
      }
    },
    open(row: UpcomingEntryWire): void {
      host.open({ sessionId: row.sessionId, panel: REMINDERS, item: row.reminder.id });
    },
    issueFeed: () => readFeed(() => host.api("/reminders/feed", { method: "POST", body: {} })),
    revokeFeed: () =>
      readFeed(async () => {
        await host.api("/reminders/feed", { method: "DELETE" });
        revoked.value = true;
        return { url: null };
      }),
    shown(): void {
      void reload();
      void readFeed(() => host.api("/reminders/feed"));
    },
    [Symbol.dispose](): void {
      asked++;
    },
  };
});
