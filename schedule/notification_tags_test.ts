import { equal } from "node:assert/strict";
import { SessionStore } from "@chime/session";
import { MemoryBackend } from "@chime/session/testing";
import { scheduleOwnsTag } from "./notification_tags.ts";

const AT = "2030-01-01T08:00:00.000Z";

Deno.test("scheduleOwnsTag() names the tags of durable cards only, in their own session", async () => {
  await using store = new SessionStore({ backend: new MemoryBackend() });
  const session = await store.create({ cwd: "/w", timeZone: "UTC" });
  let durable = 0;
  const host = { store, durableLength: () => durable };
  const record = { id: "sch_AbCdEfGh1234", kind: "at", prompt: "stretch", scheduledAt: AT };
  session.append("schedule/change", { version: 1, op: "create", record });
  session.append("schedule/change", { version: 1, op: "dispatch", id: record.id });
  await store.flush(session);
  const tag = `chime:${session.id}:${record.id}@${AT}`;
  equal(await scheduleOwnsTag(host, session.id, tag), false, "not below the durable bound yet");
  durable = session.length;
  equal(await scheduleOwnsTag(host, session.id, tag), true);
  equal(await scheduleOwnsTag(host, session.id, `${tag}0`), false, "another occurrence");
  equal(await scheduleOwnsTag(host, "other", tag), false, "another session's prefix");
  equal(await scheduleOwnsTag(host, session.id, `chime:${session.id}:x`), false);
});
