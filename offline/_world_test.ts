/**
 * The keyless model through the real agent loop with the real schedule and time-context plugins
 * (a `_test.ts` file so it is never published): what the user says, what the log holds, what
 * the model answered.
 */
import assert from "node:assert/strict";
import { Loader } from "@chime/agent";
import { foldSession, schedulePlugin, type ScheduleRecord } from "@chime/schedule";
import { flushMicrotasks } from "@chime/session/testing";
import { timeContextPlugin } from "@chime/timecontext";
import { OfflineModel } from "./model.ts";
import { type Harness, harness, ofType, web } from "../agent/testing/harness.ts";

/** A session with the offline model and the real schedule tools. */
export interface World extends AsyncDisposable {
  /** The agent harness (clock at 2026-01-15T08:00:00Z). */
  readonly h: Harness;
  /** Sends a message and waits until the agent is idle; returns the model's last text. */
  say(text: string): Promise<string>;
  /** The active records, as the log folds. */
  records(): ScheduleRecord[];
  /** The tool calls made since event `from`: name and arguments. */
  callsSince(from: number): { name: string; args: Record<string, unknown> }[];
  /** Lets a minutely series fire once and waits until the model has told the user. */
  fireOnce(): Promise<string>;
}

/**
 * Builds a world in `timeZone` (the session's and the browser's zone).
 *
 * @param timeZone IANA zone
 * @returns the world; dispose it with `await using`
 */
export async function world(timeZone: string): Promise<World> {
  const loader = new Loader();
  const plugins = [
    await loader.load(timeContextPlugin()),
    await loader.load(schedulePlugin({ logger: { warn() {}, error() {} } })),
  ];
  const h = await harness(new OfflineModel(), { timeZone });
  await loader.publish(h.agent);
  const lastText = () =>
    String(ofType<{ text: string }>(h.session, "assistant/message").at(-1)?.data.text);
  return {
    h,
    async say(text) {
      h.agent.submit({ text, source: web(timeZone) });
      await h.agent.whenIdle();
      return lastText();
    },
    records: () => [...foldSession(h.session.header, h.session.events()).active.values()],
    callsSince: (from) =>
      h.session.events(from).filter((e) => e.type === "tool/call")
        .map((e) => e.data as { name: string; args: Record<string, unknown> })
        .map(({ name, args }) => ({ name, args })),
    async fireOnce() {
      const replies = () => ofType(h.session, "assistant/message").length;
      const before = replies();
      await h.clock.advance(60_000);
      for (let i = 0; i < 100 && (replies() === before || h.agent.phase !== "idle"); i++) {
        await h.clock.advance(0);
        await flushMicrotasks(10);
      }
      assert.equal(replies(), before + 1, "the reminder was delivered and answered");
      await h.agent.whenIdle();
      return lastText();
    },
    async [Symbol.asyncDispose]() {
      await h[Symbol.asyncDispose]();
      for (const p of plugins) await p[Symbol.asyncDispose]();
      await loader[Symbol.asyncDispose]();
    },
  };
}
