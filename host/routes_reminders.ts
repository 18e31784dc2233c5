/**
 * Reminder routes (docs/recurring.md "Host and page"): the durable reminders list, and the
 * reminder card's snooze and "stop repeating" actions. The actions resume a cold session first
 * and run the schedule plugin's own transaction (no model call); they are recorded in the log
 * and the model hears of them at its next turn.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { scheduleActions, type ToolFailure } from "@chime/schedule";
import { SessionError } from "@chime/session";
import { HostError } from "./errors.ts";
import { activeReminder, sessionReminders } from "./reminders.ts";
import type { HostRuntime } from "./runtime.ts";
import { readJsonObject, sessionIdParam } from "./_http.ts";

/** HTTP status of each schedule failure code the actions answer with. */
const STATUS: Readonly<Record<string, 400 | 404 | 409 | 503>> = {
  invalid_arguments: 400,
  schedule_not_found: 404,
  schedule_not_active: 409,
  persistence_uncertain: 503,
};

function failure(c: Context, result: ToolFailure): Response {
  return c.json({ error: result.error }, STATUS[result.error.code] ?? 400);
}

/** The live agent's schedule actions, resuming a cold session first. */
async function actionsFor(runtime: HostRuntime, id: string) {
  const session = await runtime.resume(id);
  const actions = scheduleActions(await runtime.agentFor(session));
  if (actions === undefined) {
    throw new HostError("not_found", "Cannot act on reminders: the schedule plugin is not loaded");
  }
  return actions;
}

/**
 * The reminders sub-app, mounted at `/api/sessions`:
 * `GET /:id/reminders`, `POST /:id/reminders/:scheduleId/snooze { seconds }` → `200 { reminder }`
 * and `POST /:id/reminders/:scheduleId/stop` → `200 {}`. Action failures answer
 * `{ error: { code, message, id? } }` with `400 invalid_arguments`, `404 schedule_not_found`,
 * `409 schedule_not_active` or `503 persistence_uncertain`.
 *
 * @param runtime the host runtime
 * @returns a Hono app
 */
export function reminderRoutes(runtime: HostRuntime): Hono {
  return new Hono()
    .get("/:id/reminders", async (c) => {
      // The durable log only, and never activating a cold session.
      const id = sessionIdParam(c);
      const page = await sessionReminders(runtime, id);
      if (page === undefined) {
        throw new SessionError("session_not_found", `Cannot find session: no session ${id}`);
      }
      return c.json(page);
    })
    .post("/:id/reminders/:scheduleId/snooze", async (c) => {
      const id = sessionIdParam(c);
      const { seconds } = await readJsonObject(c);
      if (typeof seconds !== "number") {
        throw new HostError("invalid_arguments", "Cannot snooze: seconds must be a number", {
          field: "seconds",
        });
      }
      const actions = await actionsFor(runtime, id);
      const result = await actions.snooze(c.req.param("scheduleId"), seconds);
      if (!result.ok) return failure(c, result);
      const { ok: _, ...value } = result;
      return c.json({ reminder: activeReminder(value) });
    })
    .post("/:id/reminders/:scheduleId/stop", async (c) => {
      const actions = await actionsFor(runtime, sessionIdParam(c));
      const result = await actions.stop(c.req.param("scheduleId"));
      return result.ok ? c.json({}) : failure(c, result);
    });
}
