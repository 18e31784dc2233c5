/**
 * The web part of the schedule plugin (docs/architecture.md "Plugins"; docs/recurring.md "Host
 * and page"): its session routes (the durable reminders list, the reminder card's snooze and
 * "stop repeating"), its commit-gated views, and the names of its client renderer
 * (`@chime/ui/schedule`) and page panel (`reminders`). A host mounts all of it only when the
 * plugin is loaded; with no schedule plugin there is no reminders route and no panel.
 *
 * The actions resume a cold session first and run the plugin's own transaction (no model
 * call); they are recorded in the log and the model hears of them at its next turn.
 *
 * @module
 */
import type {
  PluginWeb,
  RouteContext,
  SessionCounts,
  SessionRoute,
  WebHost,
} from "@chime/contract";
import { SessionError } from "@chime/session";
import {
  checkEditBody,
  checkSnoozeSeconds,
  checkUntil,
  type PageFailure,
  type ScheduleActions,
  scheduleActions,
} from "./actions.ts";
import type { ToolFailure } from "./errors.ts";
import { icsCreateRequests, type ImportFailure } from "./ics_import.ts";
import { missing } from "./_decide.ts";
import { foldSession } from "./fold.ts";
import { type HistoryEntry, reminderHistory } from "./history.ts";
import { LATE_CONTEXT_AFTER, LATE_CONTEXT_BEFORE, type LateCause, lateCause } from "./late.ts";
import { upcomingRoutes } from "./upcoming_web.ts";
import { scheduleOwnsTag } from "./notification_tags.ts";
import { scheduleValue } from "./value.ts";
import type { SessionHeader } from "@chime/session";
import { isScheduleId } from "./protocol.ts";
import { activeReminder, durableChanges, durableEvents, sessionReminders } from "./reminders.ts";
import { isStrictInstant } from "./rfc3339.ts";
import type { RecordResult } from "./value.ts";
import { scheduleViews } from "./views.ts";

/** The client renderer module that shows `schedule/change` events and the reminders panel. */
export const SCHEDULE_RENDERER = "@chime/ui/schedule";

/** The page panel of {@linkcode SCHEDULE_RENDERER} listing a session's active reminders. */
export const REMINDERS_PANEL = "reminders";

/** The page view of {@linkcode SCHEDULE_RENDERER} listing every session's reminders (docs/upcoming.md). */
export const UPCOMING_VIEW = "upcoming";

/** HTTP status of each failure code the actions answer with. */
const STATUS: Readonly<Record<string, 400 | 404 | 409 | 500 | 503>> = {
  invalid_arguments: 400,
  unsupported_rule: 400,
  invalid_time_zone: 400,
  nonexistent_local_time: 400,
  not_an_occurrence: 400,
  rule_never_occurs: 400,
  schedule_not_found: 404,
  schedule_not_active: 409,
  not_in_future: 409,
  timezone_confirmation_required: 409,
  persistence_uncertain: 503,
  storage_corrupt: 500,
};

/** A refused action: its code's status, `field` kept. */
function refused(failure: ToolFailure | PageFailure): Response {
  return problem(failure.error, STATUS[failure.error.code] ?? 400);
}

function pageRefusal(failure: PageFailure): Response {
  const field = "field" in failure && failure.field !== undefined ? { field: failure.field } : {};
  return problem({ ...failure.error, ...field }, STATUS[failure.error.code] ?? 400);
}

/** `200 { reminder }` for a record answer, else the refusal. */
function reminderAnswer(result: RecordResult | ToolFailure | PageFailure): Response {
  if (!result.ok) return pageRefusal(result);
  const { ok: _, ...value } = result;
  return Response.json({ reminder: activeReminder(value) });
}

/** A JSON error answer `{ error: { code, message, … } }`. */
function problem(error: ToolFailure["error"] | Record<string, unknown>, status: number): Response {
  return Response.json({ error }, { status });
}

/**
 * Refuses an action on a reminder id the durable log does not hold active, before anything can
 * activate a cold session (docs/errors.md "HTTP codes": a refusal changes nothing, so its overdue
 * reminders must not fire and no turn may run). A malformed id is `400 invalid_arguments`; an
 * unknown one `404 schedule_not_found`; an ended one `409 schedule_not_active`. A live session is
 * not checked here: its own transaction decides, over the same log.
 *
 * @returns the refusal, or `undefined` when the action may go on
 * @throws {SessionError} `session_not_found` for an unknown session
 */
async function preflight(context: RouteContext, action: string): Promise<Response | undefined> {
  const id = context.param("scheduleId");
  if (!isScheduleId(id)) {
    return problem({
      code: "invalid_arguments",
      message: `Cannot ${action}: bad id`,
    }, 400);
  }
  if (context.host.store.live(context.sessionId) !== undefined) return undefined;
  const stored = await durableChanges(context.host, context.sessionId);
  if (stored === undefined) {
    throw new SessionError(
      "session_not_found",
      `Cannot find session: no session ${context.sessionId}`,
    );
  }
  const state = foldSession(stored.header, stored.events);
  return state.active.has(id) ? undefined : refused(missing(state, id, action));
}

/**
 * The live agent's schedule actions, resuming a cold session first; {@linkcode preflight} has
 * refused ids the log does not hold active before any activation.
 */
async function actionsFor(
  context: RouteContext,
  action: string,
): Promise<ScheduleActions | Response> {
  const refusal = await preflight(context, action);
  if (refusal !== undefined) return refusal;
  return await sessionActions(context);
}

/** The session's actions, resuming it (every check of the request done before). */
async function sessionActions(context: RouteContext): Promise<ScheduleActions | Response> {
  const session = await context.host.resume(context.sessionId);
  const actions = scheduleActions(await context.host.agentFor(session));
  return actions ?? problem({
    code: "not_found",
    message: "Cannot act on reminders: the schedule plugin did not set up this session's agent",
  }, 404);
}

const list: SessionRoute = {
  method: "GET",
  path: "/reminders",
  // The durable log only, and never activating a cold session.
  async handle(_request, context) {
    const asOf = new URL(context.url).searchParams.get("asOf");
    if (asOf !== null) return await remindersAsOf(context, asOf);
    const page = await sessionReminders(context.host, context.sessionId);
    if (page === undefined) {
      throw new SessionError(
        "session_not_found",
        `Cannot find session: no session ${context.sessionId}`,
      );
    }
    return Response.json(page);
  },
};

const snooze: SessionRoute = {
  method: "POST",
  path: "/reminders/:scheduleId/snooze",
  async handle(_request, context) {
    const body = await context.json();
    const id = context.param("scheduleId");
    // Checked before the session is resumed: a bad body never activates a cold session.
    if (Object.hasOwn(body, "until") && Object.hasOwn(body, "seconds")) {
      return problem({
        code: "invalid_arguments",
        message: "Cannot snooze schedule: give seconds or until, not both",
        field: "until",
      }, 400);
    }
    if (Object.hasOwn(body, "until")) {
      const until = checkUntil(body.until);
      if ("ok" in until) return pageRefusal(until);
      const actions = await actionsFor(context, "snooze schedule");
      if (actions instanceof Response) return actions;
      return reminderAnswer(await actions.snoozeUntil(id, until));
    }
    const { seconds } = body;
    const bad = checkSnoozeSeconds(seconds);
    if (bad !== undefined) return problem({ ...bad.error, field: "seconds" }, 400);
    const actions = await actionsFor(context, "snooze schedule");
    if (actions instanceof Response) return actions;
    return reminderAnswer(await actions.snooze(id, seconds as number));
  },
};

/** `POST …/pause` and `…/resume`: `200 { reminder }`. */
function seriesRoute(op: "pause" | "resume"): SessionRoute {
  return {
    method: "POST",
    path: `/reminders/:scheduleId/${op}`,
    async handle(_request, context) {
      const actions = await actionsFor(context, `${op} schedule`);
      if (actions instanceof Response) return actions;
      return reminderAnswer(await actions[op](context.param("scheduleId")));
    },
  };
}

const skip: SessionRoute = {
  method: "POST",
  path: "/reminders/:scheduleId/skip",
  async handle(_request, context) {
    const body = await context.json(); // `{}` skips the next occurrence
    const { occurrenceAt } = body;
    const extra = Object.keys(body).find((key) => key !== "occurrenceAt");
    const bad = extra ??
      (occurrenceAt === undefined || isStrictInstant(occurrenceAt) ? undefined : "occurrenceAt");
    if (bad !== undefined) {
      return problem({
        code: "invalid_arguments",
        message: `Cannot skip occurrence: ${bad} is not an RFC 3339 occurrenceAt`,
        field: bad,
      }, 400);
    }
    const actions = await actionsFor(context, "skip occurrence");
    if (actions instanceof Response) return actions;
    const result = await actions.skip(context.param("scheduleId"), occurrenceAt as string);
    if (!result.ok) return refused(result);
    const { ok: _, skipped, ended, ...value } = result;
    return Response.json({
      reminder: activeReminder(value),
      skipped,
      ...(ended ? { ended } : {}),
    });
  },
};

const update: SessionRoute = {
  method: "POST",
  path: "/reminders/:scheduleId/update",
  async handle(_request, context) {
    const checked = checkEditBody(context.param("scheduleId"), await context.json());
    if (!checked.ok) return pageRefusal(checked);
    const actions = await actionsFor(context, "update schedule");
    if (actions instanceof Response) return actions;
    return reminderAnswer(await actions.update(checked.value));
  },
};

const importCalendar: SessionRoute = {
  method: "POST",
  path: "/reminders/import",
  // The text is parsed and every event checked before the session is resumed.
  async handle(_request, context) {
    const body = await context.json();
    const extra = Object.keys(body).find((key) => key !== "ics");
    if (extra !== undefined || typeof body.ics !== "string") {
      return problem({
        code: "invalid_arguments",
        message: "Cannot import calendar: the body must be { ics: string }",
        field: extra ?? "ics",
      }, 400);
    }
    const checked = icsCreateRequests(body.ics);
    if (!checked.ok) return importRefusal(checked);
    const actions = await sessionActions(context);
    if (actions instanceof Response) return actions;
    const result = await actions.importEvents(checked.value);
    if (!result.ok) return importRefusal(result);
    const { ok: _, created, past } = result;
    const reminders = created.map(({ uid, ...value }) => ({
      ...activeReminder(value),
      ...(uid === undefined ? {} : { uid }),
    }));
    return Response.json({ created: reminders, past });
  },
};

/** A refused import: its code's status, with the event's `index` and `property` when named. */
function importRefusal(failure: ImportFailure): Response {
  const { index, property } = failure;
  const at = { ...(index === undefined ? {} : { index }), ...(property ? { property } : {}) };
  return problem({ ...failure.error, field: "ics", ...at }, STATUS[failure.error.code] ?? 400);
}

const history: SessionRoute = {
  method: "GET",
  path: "/reminders/:scheduleId/history",
  // The durable log only, and never activating a cold session.
  async handle(_request, context) {
    const id = context.param("scheduleId");
    if (!isScheduleId(id)) {
      return problem({ code: "invalid_arguments", message: "Cannot read history: bad id" }, 400);
    }
    const stored = await durableChanges(context.host, context.sessionId);
    if (stored === undefined) {
      throw new SessionError(
        "session_not_found",
        `Cannot find session: no session ${context.sessionId}`,
      );
    }
    const entries = reminderHistory(stored.header, stored.events, id);
    if (entries === undefined) {
      return problem({
        code: "schedule_not_found",
        message: `Cannot read history: no schedule ${id}`,
        id,
      }, 404);
    }
    return Response.json({
      history: await withLateCauses(context.host, stored.header, id, entries),
    });
  },
};

/** A history with `cause` on each late delivery (log facts only, `./late.ts`). */
async function withLateCauses(
  host: Pick<WebHost, "store" | "durableLength">,
  header: SessionHeader,
  id: string,
  entries: readonly HistoryEntry[],
): Promise<(HistoryEntry & { cause?: LateCause })[]> {
  const zone = header.timeZone ?? "UTC";
  return await Promise.all(entries.map(async (entry) => {
    if (entry.kind !== "delivered" || (entry.latenessMs ?? 0) < 60_000) return entry;
    const from = Math.max(header.seedLength ?? 0, entry.seq - LATE_CONTEXT_BEFORE);
    const events = await durableEvents(host, header.id, from, entry.seq + LATE_CONTEXT_AFTER);
    const cause = lateCause(entry, entry.snoozeId ?? id, events, zone);
    return cause === undefined ? entry : { ...entry, cause };
  }));
}

/**
 * `GET …/reminders?asOf=SEQ`: the schedule as it stood just after event `SEQ` (the fold of the
 * own `schedule/change` events with `seq ≤ SEQ`, statuses at that event's `at`), each reminder
 * with `decidedBy`, the seqs of the events that made it what it is then.
 */
async function remindersAsOf(context: RouteContext, raw: string): Promise<Response> {
  const { host, sessionId } = context;
  const asOf = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  const bad = () =>
    problem({
      code: "invalid_arguments",
      message: "Cannot read reminders: asOf is not the seq of a committed event",
      field: "asOf",
    }, 400);
  if (!Number.isSafeInteger(asOf)) return bad();
  const stored = await durableChanges(host, sessionId);
  if (stored === undefined) {
    throw new SessionError("session_not_found", `Cannot find session: no session ${sessionId}`);
  }
  const [event] = await durableEvents(host, sessionId, asOf, asOf + 1);
  if (event === undefined) return bad();
  const events = stored.events.filter((e) => e.seq <= asOf);
  const now = Date.parse(event.at);
  const state = foldSession(stored.header, events);
  const records = [...state.active.values()].sort((a, b) =>
    Date.parse(a.scheduledAt) - Date.parse(b.scheduledAt)
  );
  const reminders = records.map((record) => ({
    ...activeReminder(scheduleValue(record, now)),
    decidedBy: (reminderHistory(stored.header, events, record.id) ?? []).map((e) => e.seq),
  }));
  return Response.json({ asOf, at: event.at, reminders, deliveryMode: "session-local" });
}

const stop: SessionRoute = {
  method: "POST",
  path: "/reminders/:scheduleId/stop",
  async handle(_request, context) {
    const actions = await actionsFor(context, "stop schedule");
    if (actions instanceof Response) return actions;
    const result = await actions.stop(context.param("scheduleId"));
    return result.ok ? Response.json({}) : refused(result);
  },
};

/**
 * A session's row counts in the sessions list: its durable active reminders, `pending` those
 * still to come and `late` the overdue ones (a cold session's wait for it to go live;
 * docs/design.md "session-local"); a paused series counts as neither.
 *
 * @param host the store and the durable bound
 * @param id the session id
 * @returns the counts, `undefined` for a session with no active reminder (or none at all)
 */
async function sessionCounts(host: WebHost, id: string): Promise<SessionCounts | undefined> {
  const page = await sessionReminders(host, id);
  if (page === undefined || page.reminders.length === 0) return undefined;
  const running = page.reminders.filter((r) => r.paused !== true);
  const late = running.filter((r) => r.status === "overdue").length;
  return { pending: running.length - late, late };
}

/**
 * The schedule plugin's web part (docs/recurring.md "Host and page"): `GET
 * /api/sessions/:id/reminders` → `{ reminders, deliveryMode }` (`404 session_not_found`);
 * `POST …/reminders/:scheduleId/snooze { seconds } | { until: { date, time } }` → `200 {
 * reminder }`; `POST …/stop` → `200 {}`; `POST …/pause` and `…/resume` → `200 { reminder }`;
 * `POST …/skip { occurrenceAt? }` → `200 { reminder, skipped, ended? }`; `POST …/update {
 * prompt?, at?, repeat? }` → `200 { reminder }`; `GET …/history` → `200 { history }`. Action
 * failures answer `{ error: { code, message, id?, field? } }` with `400` (`invalid_arguments`,
 * `unsupported_rule`, `rule_never_occurs`, `invalid_time_zone`, `nonexistent_local_time`,
 * `not_an_occurrence`),
 * `404 schedule_not_found`, `409` (`schedule_not_active`, `not_in_future`,
 * `timezone_confirmation_required`) or `503 persistence_uncertain`. Views:
 * {@linkcode scheduleViews}.
 *
 * @example What a host mounts
 * ```ts
 * import { scheduleWeb } from "@chime/schedule";
 * const web = scheduleWeb();
 * console.assert(web.routes?.map((r) => r.path).includes("/reminders"));
 * console.assert(web.renderer === "@chime/ui/schedule");
 * ```
 *
 * @param options `upcomingCacheDir`: the folder of the Upcoming start-up cache
 *   (docs/upcoming.md "The start-up cache"), @default none: every start reads the logs
 * @returns routes, views, renderer and panel
 */
export function scheduleWeb(options: { readonly upcomingCacheDir?: string } = {}): PluginWeb {
  const extra = upcomingRoutes(
    options.upcomingCacheDir === undefined ? {} : { cacheDir: options.upcomingCacheDir },
  );
  return {
    routes: [
      list,
      snooze,
      stop,
      seriesRoute("pause"),
      seriesRoute("resume"),
      skip,
      update,
      importCalendar,
      history,
      ...extra.sessionRoutes,
    ],
    apiRoutes: extra.apiRoutes,
    warm: extra.warm,
    onDeleted: extra.onDeleted,
    ownsTag: scheduleOwnsTag,
    views: scheduleViews,
    renderer: SCHEDULE_RENDERER,
    panels: [REMINDERS_PANEL, UPCOMING_VIEW],
    sessionCounts,
  };
}
