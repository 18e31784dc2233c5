import assert from "node:assert/strict";
import type { AgentHandle, AgentScope, Plugin, PreStepHook, StepBatch } from "@chime/agent";
import { Session, type SessionHeader, SessionStore } from "@chime/session";
import { FakeClock, MemoryBackend } from "@chime/session/testing";
import { hasTimeContextMarker, TIME_CONTEXT_MARKER } from "./marker.ts";
import { timeContextPlugin } from "./plugin.ts";
import { userRpc } from "./testing/user_rpc.ts";

// Thursday 2026-01-01 22:30 UTC: already Friday in Kiritimati and Tokyo.
const NOW = Date.UTC(2026, 0, 1, 22, 30);

function header(timeZone?: string): SessionHeader {
  const base = {
    version: 1,
    id: "s1",
    cwd: "/",
    createdAt: "2026-01-01T00:00:00.000Z",
    origin: "test",
    lineage: null,
    delegationDepth: 0,
  } as const;
  return timeZone === undefined ? base : { ...base, timeZone };
}

/** A fake agent whose plugin scope captures the registered pre-step hooks. */
class Harness implements AsyncDisposable {
  readonly clock = new FakeClock(NOW);
  readonly store = new SessionStore({ backend: new MemoryBackend() });
  readonly session: Session;
  readonly hooks: PreStepHook[] = [];
  readonly agent: AgentHandle;

  constructor(timeZone?: string) {
    this.session = new Session({ header: header(timeZone), now: () => this.clock.now() });
    const session = this.session;
    this.agent = {
      session,
      store: this.store,
      clock: this.clock,
      phase: "turn",
      append: (type, data) => session.append(type, data),
      runMaintenance: () => Promise.reject(new Error("not used")),
      whenIdle: () => Promise.resolve(),
      followup: () => {},
    };
  }

  async load(plugin: Plugin): Promise<void> {
    const hooks = this.hooks;
    const scope: AgentScope = {
      agent: this.agent,
      registerTool: () => assert.fail("time-context registers no tool"),
      addPreStep(hook) {
        hooks.push(hook);
        return { [Symbol.dispose]: () => hooks.splice(hooks.indexOf(hook), 1) };
      },
      own: () => assert.fail("time-context owns nothing"),
      signal: new AbortController().signal,
    };
    await plugin.setup(scope);
  }

  async run(batch: Omit<StepBatch, "step">): Promise<readonly string[] | void> {
    assert.equal(this.hooks.length, 1);
    return await this.hooks[0]!({ step: 0, ...batch }, this.agent);
  }

  markers(): unknown[] {
    return this.session.events().filter((e) => e.type === TIME_CONTEXT_MARKER).map((e) => e.data);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.clock[Symbol.dispose]();
    await this.store[Symbol.asyncDispose]();
  }
}

Deno.test("timeContextPlugin() is a Plugin named @chime/timecontext that adds one hook", async () => {
  await using h = new Harness("Europe/Berlin");
  const plugin: Plugin = timeContextPlugin();
  assert.equal(plugin.name, "@chime/timecontext");
  await h.load(plugin);
  assert.equal(h.hooks.length, 1);
});

Deno.test("the hook returns one reading and appends a marker that copies no zone facts", async () => {
  await using h = new Harness("Asia/Tokyo");
  await h.load(timeContextPlugin());
  const out = await h.run({ turnId: "t1", messages: [userRpc(0, "Asia/Tokyo")], followups: [] });
  assert.ok(out !== undefined && out.length === 1);
  const [reading] = out;
  assert.ok(reading!.startsWith("[time-context]\nNow (UTC): 2026-01-01T22:30:00.000Z\n"));
  assert.ok(reading!.includes("Session time zone: Asia/Tokyo, local time Friday 2026-01-02 07:30"));
  assert.ok(!reading!.includes("Client"));
  assert.deepEqual(h.markers(), [{ turnId: "t1" }]);
  const [marker] = h.session.events();
  assert.deepEqual(Object.keys(marker!.data as object), ["turnId"]);
  assert.ok(!JSON.stringify(marker).includes("Asia/Tokyo"));
  assert.equal(hasTimeContextMarker(h.session.events(), "t1"), true);
});

Deno.test("the hook samples the agent clock at each step", async () => {
  await using h = new Harness("Pacific/Kiritimati");
  await h.load(timeContextPlugin());
  const first = await h.run({
    turnId: "t1",
    messages: [userRpc(0, "Pacific/Kiritimati")],
    followups: [],
  });
  assert.ok(first?.[0]?.includes("local time Friday 2026-01-02 12:30 (UTC+14:00)"));
  await h.clock.advance(12 * 3_600_000);
  const second = await h.run({
    turnId: "t1",
    messages: [userRpc(1, "Pacific/Kiritimati")],
    followups: [],
  });
  assert.ok(second?.[0]?.includes("Now (UTC): 2026-01-02T10:30:00.000Z"));
  assert.ok(second?.[0]?.includes("local time Saturday 2026-01-03 00:30 (UTC+14:00)"));
  assert.deepEqual(h.markers(), [{ turnId: "t1" }, { turnId: "t1" }]);
});

Deno.test("the hook prefers an injected clock over the agent clock", async () => {
  await using h = new Harness("UTC");
  await h.load(timeContextPlugin({ clock: { now: () => Date.UTC(2030, 5, 15, 8, 5) } }));
  const out = await h.run({ turnId: "t1", messages: [userRpc(0, "UTC")], followups: [] });
  assert.ok(out?.[0]?.includes("Now (UTC): 2030-06-15T08:05:00.000Z"));
  assert.ok(out?.[0]?.includes("local time Saturday 2030-06-15 08:05 (UTC+00:00)"));
});

Deno.test("the hook reads mixed and missing client zones from the batch messages", async () => {
  await using h = new Harness("Europe/Berlin");
  await h.load(timeContextPlugin());
  const out = await h.run({
    turnId: "t1",
    messages: [userRpc(0, "Asia/Calcutta"), userRpc(1, "Europe/Berlin"), userRpc(2)],
    followups: [],
  });
  const reading = out?.[0] ?? "";
  assert.ok(
    reading.includes(
      "Asia/Calcutta (differs from the session time zone), local time Friday 2026-01-02 04:00",
    ),
  );
  assert.ok(reading.includes("Europe/Berlin (same as the session time zone)"));
  assert.ok(reading.includes("(mixed) client time zones"));
  assert.ok(reading.includes("Client time zone: missing"));
  assert.deepEqual(h.markers(), [{ turnId: "t1" }]);
});

Deno.test("the hook reads a legacy header as an unavailable session zone", async () => {
  await using h = new Harness();
  await h.load(timeContextPlugin());
  const out = await h.run({ turnId: "t1", messages: [userRpc(0, "Asia/Kolkata")], followups: [] });
  assert.ok(out?.[0]?.includes("Session time zone: unavailable"));
  assert.ok(
    out?.[0]?.includes("Client time zone of this request: Asia/Kolkata, local time Friday"),
  );
  assert.deepEqual(h.markers(), [{ turnId: "t1" }]);
});

Deno.test("a follow-up-only batch gets a reading from the header and no client provenance", async () => {
  await using h = new Harness("Europe/Berlin");
  await h.load(timeContextPlugin());
  const out = await h.run({ turnId: "t2", messages: [], followups: ["[reminder] stretch"] });
  assert.ok(
    out?.[0]?.includes("Session time zone: Europe/Berlin, local time Thursday 2026-01-01 23:30"),
  );
  assert.ok(out?.[0]?.includes("no client provenance"));
  assert.deepEqual(h.markers(), [{ turnId: "t2" }]);
});

Deno.test("an empty batch gets no reading and no marker", async () => {
  await using h = new Harness("Europe/Berlin");
  await h.load(timeContextPlugin());
  assert.equal(await h.run({ turnId: "t1", messages: [], followups: [] }), undefined);
  assert.equal(h.session.length, 0);
});
