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
import type { PluginWeb, RouteContext, SessionRoute } from "@chime/contract";
import { SessionError } from "@chime/session";
import { checkSnoozeSeconds, type ScheduleActions, scheduleActions } from "./actions.ts";
import type { ToolFailure } from "./errors.ts";
import { activeReminder, sessionReminders } from "./reminders.ts";
import { scheduleViews } from "./views.ts";

/** The client renderer module that shows `schedule/change` events and the reminders panel. */
export const SCHEDULE_RENDERER = "@chime/ui/schedule";

/** The page panel of {@linkcode SCHEDULE_RENDERER} listing a session's active reminders. */
export const REMINDERS_PANEL = "reminders";

/** HTTP status of each failure code the actions answer with. */
const STATUS: Readonly<Record<string, 400 | 404 | 409 | 503>> = {
  invalid_arguments: 400,
  schedule_not_found: 404,
  schedule_not_active: 409,
  persistence_uncertain: 503,
};

/** A JSON error answer `{ error: { code, message, … } }`. */
function problem(error: ToolFailure["error"] | Record<string, unknown>, status: number): Response {
  return Response.json({ error }, { status });
}

/** The live agent's schedule actions, resuming a cold session first. */
async function actionsFor(context: RouteContext): Promise<ScheduleActions | Response> {
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
    const { seconds } = await context.json();
    // Checked before the session is resumed: a bad body never activates a cold session.
    const refused = checkSnoozeSeconds(seconds);
    if (refused !== undefined) return problem({ ...refused.error, field: "seconds" }, 400);
    const actions = await actionsFor(context);
    if (actions instanceof Response) return actions;
    const result = await actions.snooze(context.param("scheduleId"), seconds as number);
    if (!result.ok) return problem(result.error, STATUS[result.error.code] ?? 400);
    const { ok: _, ...value } = result;
    return Response.json({ reminder: activeReminder(value) });
  },
};

const stop: SessionRoute = {
  method: "POST",
  path: "/reminders/:scheduleId/stop",
  async handle(_request, context) {
    const actions = await actionsFor(context);
    if (actions instanceof Response) return actions;
    const result = await actions.stop(context.param("scheduleId"));
    return result.ok ? Response.json({}) : problem(result.error, STATUS[result.error.code] ?? 400);
  },
};

/**
 * The schedule plugin's web part: `GET /api/sessions/:id/reminders` → `{ reminders,
 * deliveryMode }` (`404 session_not_found`); `POST …/reminders/:scheduleId/snooze { seconds }`
 * → `200 { reminder }`; `POST …/reminders/:scheduleId/stop` → `200 {}`. Action failures answer
 * `{ error: { code, message, id? } }` with `400 invalid_arguments`, `404 schedule_not_found`,
 * `409 schedule_not_active` or `503 persistence_uncertain`. Views: {@linkcode scheduleViews}.
 *
 * @example What a host mounts
 * ```ts
 * import { scheduleWeb } from "@chime/schedule";
 * const web = scheduleWeb();
 * console.assert(web.routes?.map((r) => r.path).includes("/reminders"));
 * console.assert(web.renderer === "@chime/ui/schedule");
 * ```
 *
 * @returns routes, views, renderer and panel
 */
export function scheduleWeb(): PluginWeb {
  return {
    routes: [list, snooze, stop],
    views: scheduleViews,
    renderer: SCHEDULE_RENDERER,
    panels: [REMINDERS_PANEL],
  };
}
