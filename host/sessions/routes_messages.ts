/**
 * Message routes: send, cancel the running turn, retry and edit (README.md#http-api,
 * docs/architecture.md#http). Each message's `clientTimeZone` is validated here and bound into
 * its immutable `user-rpc` provenance (docs/design.md#request-provenance).
 *
 * @module
 */
import { Hono } from "hono";
import { currentVersion } from "./_current_version.ts";
import { idempotencyKey, priorMessage } from "./_idempotency.ts";
import { HostError } from "../errors.ts";
import type { HostRuntime } from "./runtime.ts";
import {
  messageIdParam,
  readJsonObject,
  sessionIdParam,
  textField,
  timeZoneField,
} from "../http/_http.ts";

/**
 * The message sub-app, mounted at `/api/sessions`.
 *
 * @param runtime the host runtime
 * @returns a Hono app
 */
export function messageRoutes(runtime: HostRuntime): Hono {
  return new Hono()
    .post("/:id/messages", async (c) => {
      const id = sessionIdParam(c);
      const key = idempotencyKey(c.req.header("idempotency-key"));
      const body = await readJsonObject(c);
      const text = textField(body, "text");
      const clientTimeZone = timeZoneField(body, "clientTimeZone");
      const session = await runtime.resume(id);
      const agent = await runtime.agentFor(session);
      // A retry of a message this key already sent is answered with the original, once stored.
      const prior = key === undefined
        ? undefined
        : await priorMessage(runtime.store, session, key, { text, clientTimeZone });
      const event = prior ?? agent.submit({
        text,
        source: { kind: "web", clientTimeZone },
        ...(key === undefined ? {} : { idempotencyKey: key }),
      });
      await runtime.store.flush(session); // acknowledged only once the user-rpc is stored
      return c.json({ messageId: event.data.messageId, seq: event.seq }, 202);
    })
    .post("/:id/turns/current/cancel", async (c) => {
      const id = sessionIdParam(c);
      const session = runtime.store.live(id);
      const agent = session === undefined ? undefined : await runtime.existingAgent(session);
      if (agent === undefined) {
        if (!await runtime.exists(id) || await runtime.isDeleted(id)) {
          throw new HostError("session_not_found", `Cannot cancel: no session ${id}`);
        }
        throw new HostError("no_running_turn", "Cannot cancel: no turn is running");
      }
      const turnId = agent.turnId;
      agent.cancel();
      // The Stop's `turn/end` (appended synchronously by cancel) names every message it stopped:
      // the turn's own and the ones queued behind it, so the page can mark them at once.
      const end = session?.event(session.length - 1);
      const data = end?.type === "turn/end" ? end.data as { stoppedMessageIds?: unknown } : {};
      const stoppedMessageIds = Array.isArray(data.stoppedMessageIds) ? data.stoppedMessageIds : [];
      return c.json({ cancelled: true, turnId: turnId ?? null, stoppedMessageIds });
    })
    .post("/:id/messages/:messageId/retry", async (c) => {
      const id = sessionIdParam(c);
      const messageId = messageIdParam(c);
      await runtime.requireMessage(id, messageId, "retry");
      const session = await runtime.resume(id);
      const agent = await runtime.agentFor(session);
      // A message replaced by an edit is retried as it reads now: its newest edit.
      const current = await currentVersion(runtime.store, session, messageId);
      await agent.retry(current);
      await runtime.store.flush(session); // the retried message is stored
      return c.json({
        messageId: current,
        ...(current === messageId ? {} : { superseded: messageId }),
      }, 202);
    })
    .post("/:id/messages/:messageId/edit", async (c) => {
      const id = sessionIdParam(c);
      const messageId = messageIdParam(c);
      const text = textField(await readJsonObject(c), "text");
      await runtime.requireMessage(id, messageId, "edit");
      const session = await runtime.resume(id);
      const agent = await runtime.agentFor(session);
      const event = await agent.edit(messageId, text);
      await runtime.store.flush(session); // acknowledged only once the edit is stored
      return c.json({ messageId: event.data.messageId, seq: event.seq, edits: messageId }, 202);
    });
}
