import { deepEqual, equal, ok } from "node:assert/strict";
import type { SessionWindow } from "../window.ts";
import type { EventView, HistoryPage, WireEvent, WireHeader } from "../wire.ts";
import type { AlertPermission, AlertsEnv } from "./alerts.ts";
import { ApiError } from "./api.ts";
import { type PageApi, PageModel } from "./model.ts";

const at = "2030-01-01T08:00:00.000Z";
const header = (id: string): WireHeader => ({ id, createdAt: at, origin: "web", lineage: null });
const ev = (seq: number, type: string, data: unknown = {}): WireEvent => ({ seq, type, at, data });
const card = (prompt: string): EventView => ({
  type: "schedule/change",
  presentation: { scheduleId: "sch_1", prompt, occurrenceAt: at },
});

/** An in-memory host: one log per session, calls recorded. */
function fakeHost() {
  const logs = new Map<string, { events: WireEvent[]; views: Record<string, EventView> }>();
  const calls: string[] = [];
  let fail: ApiError | null = null;
  const api: PageApi = {
    listSessions: (q) => {
      calls.push(`list ${q.limit} ${q.before ?? ""}`);
      const all = [...logs.entries()].map(([id, log]) => ({
        header: header(id),
        live: true,
        title: (log.events.find((e) => e.type === "user-rpc")?.data as { text?: string })?.text ??
          null,
      }));
      const start = q.before ? all.findIndex((s) => s.header.id === q.before) + 1 : 0;
      const page = all.slice(start, start + q.limit);
      const more = start + q.limit < all.length;
      return Promise.resolve({ sessions: page, nextBefore: more ? page.at(-1)!.header.id : null });
    },
    createSession: () => {
      const id = `s${logs.size + 1}`;
      logs.set(id, { events: [], views: {} });
      return Promise.resolve(header(id));
    },
    resumeSession: (id) => (calls.push(`resume ${id}`), Promise.resolve()),
    forkSession: (id) => {
      const child = `${id}-fork`;
      logs.set(child, { events: [...logs.get(id)!.events], views: {} });
      return Promise.resolve(header(child));
    },
    loadReminders: () => Promise.resolve({ reminders: [], deliveryMode: "session-local" }),
    sendMessage: (id, text) => {
      calls.push(`send ${id} ${text}`);
      return fail ? Promise.reject(fail) : Promise.resolve({});
    },
    loadHistory: (id): Promise<HistoryPage> => {
      const log = logs.get(id)!;
      return Promise.resolve({
        header: header(id),
        live: true,
        events: log.events,
        views: log.views,
        nextBefore: null,
      });
    },
    loadAfter: (id, after) =>
      Promise.resolve({ events: logs.get(id)!.events.filter((e) => e.seq > after), views: {} }),
    cancelTurn: () => Promise.reject(new ApiError("no_running_turn", "none")),
    retryMessage: (id, m) => (calls.push(`retry ${id} ${m}`), Promise.resolve()),
    editMessage: (id, m, t) => (calls.push(`edit ${id} ${m} ${t}`), Promise.resolve({})),
    snoozeReminder: (id, sid, seconds) => {
      calls.push(`snooze ${id} ${sid} ${seconds}`);
      if (fail) return Promise.reject(fail);
      return Promise.resolve({
        id: "sch_9",
        kind: "at",
        prompt: "p",
        scheduledAt: "2030-01-01T08:10:00.000Z",
        status: "scheduled",
        deliveryMode: "session-local",
        snoozeOf: { id: sid, occurrenceAt: at },
      });
    },
    stopReminder: (id, sid) => {
      calls.push(`stop ${id} ${sid}`);
      return fail ? Promise.reject(fail) : Promise.resolve();
    },
  };
  return {
    api,
    logs,
    calls,
    failNext(code: string) {
      fail = new ApiError(code, code);
    },
  };
}

function fakeAlerts() {
  const shown: { title: string; body: string; click(): void }[] = [];
  let hidden = false;
  let chimes = 0;
  const revealed: number[] = [];
  let permission: AlertPermission = "default";
  const env: AlertsEnv = {
    hidden: () => hidden,
    permission: () => permission,
    requestPermission: () => Promise.resolve(permission = "granted"),
    notify: (title, body, click) => shown.push({ title, body, click }),
    chime: () => void chimes++,
    reveal: (seq) => void revealed.push(seq),
  };
  return {
    env,
    shown,
    revealed,
    hide(h: boolean) {
      hidden = h;
    },
    get chimes() {
      return chimes;
    },
  };
}

/** A page model over the fake host; `pushed` feeds the open window like the stream. */
function page() {
  const host = fakeHost();
  const alerts = fakeAlerts();
  const connected: SessionWindow[] = [];
  const model = new PageModel({
    api: host.api,
    connect: (_id, w) => {
      connected.push(w);
      return { [Symbol.dispose]() {} };
    },
    navigate: (id) => void model.openSession(id),
    alerts: alerts.env,
    timeZone: "Asia/Shanghai",
  });
  return { host, alerts, model, connected };
}

Deno.test("openSession() resumes, loads the tail, connects, and asks the transcript to follow", async () => {
  const { host, model, connected } = page();
  host.logs.set("a", { events: [ev(0, "user-rpc", { text: "hi" })], views: {} });
  const before = model.follow.value;
  model.setDrawer(true);
  await model.openSession("a");
  equal(model.current.value, "a");
  equal(model.win.value?.events.value.length, 1);
  equal(connected.length, 1);
  ok(model.follow.value > before, "a session opens at its latest message");
  equal(model.drawer.value, false, "opening a session closes the phone drawer");
  ok(host.calls.includes("resume a"));
  model[Symbol.dispose]();
});

Deno.test("the first user message of an untitled session refreshes the list for its title", async () => {
  const { host, model } = page();
  host.logs.set("a", { events: [], views: {} });
  await model.refreshSessions();
  await model.openSession("a");
  equal(model.sessions.value[0]?.title, null);
  const lists = () => host.calls.filter((c) => c.startsWith("list")).length;
  const before = lists();
  host.logs.get("a")!.events.push(ev(0, "user-rpc", { text: "water the plants" }));
  model.win.value!.receive({ event: ev(0, "user-rpc", { text: "water the plants" }) });
  equal(lists(), before + 1);
  await model.refreshSessions();
  equal(model.sessions.value[0]?.title, "water the plants");
  model[Symbol.dispose]();
});

Deno.test("send, retry and edit bring the new turn into view; a failure shows the banner", async () => {
  const { host, model } = page();
  host.logs.set("a", { events: [], views: {} });
  await model.openSession("a");
  let follow = model.follow.value;
  equal(await model.send("remind me in 1 hour to water"), true);
  ok(model.follow.value > follow);
  follow = model.follow.value;
  await model.retry("m0");
  ok(model.follow.value > follow);
  follow = model.follow.value;
  await model.edit("m0", "again");
  ok(model.follow.value > follow);
  deepEqual(host.calls.filter((c) => /^(send|retry|edit)/.test(c)), [
    "send a remind me in 1 hour to water",
    "retry a m0",
    "edit a m0 again",
  ]);
  host.failNext("network");
  equal(await model.send("x"), false);
  equal(model.banner.value, "Cannot reach the server");
  model.dismissBanner();
  equal(model.banner.value, null);
  await model.stop(); // no running turn: not an error
  equal(model.banner.value, null);
  model[Symbol.dispose]();
});

Deno.test("a card that arrives while hidden notifies, counts in the title and clears when visible", async () => {
  const { host, model, alerts } = page();
  host.logs.set("a", {
    events: [ev(0, "schedule/change", { op: "dispatch", id: "old" })],
    views: { 0: card("old one") },
  });
  await model.openSession("a");
  const w = model.win.value!;
  equal(alerts.shown.length, 0, "cards already in the first load never alert");
  await model.alerts.askPermission();
  equal(model.alerts.permission.value, "granted");
  model.alerts.setChime(true);
  equal(alerts.chimes, 1, "turning the chime on plays it once");
  alerts.hide(true);
  w.receive({ event: ev(1, "schedule/change", { op: "dispatch", id: "sch_1" }) });
  equal(alerts.shown.length, 0, "a raw dispatch without its durable view is no card");
  w.receive({
    event: ev(1, "schedule/change", { op: "dispatch", id: "sch_1" }),
    view: card("blink"),
  });
  w.receive({ event: ev(2, "assistant/message", { text: "Time to blink." }) });
  w.receive({
    event: ev(3, "schedule/change", { op: "dispatch", id: "sch_2" }),
    view: card("sip"),
  });
  deepEqual(alerts.shown.map((s) => [s.title, s.body]), [["Reminder", "blink"], [
    "Reminder",
    "sip",
  ]]);
  equal(alerts.chimes, 3);
  equal(model.alerts.title.value, "(2) chime");
  equal(model.announcement.value, "Reminder: sip");
  alerts.shown[0]!.click();
  deepEqual(alerts.revealed, [1], "clicking the notification reveals its card");
  model.alerts.visible();
  equal(model.alerts.title.value, "chime");
  alerts.hide(false);
  w.receive({ event: ev(4, "schedule/change", { op: "dispatch", id: "sch_3" }), view: card("x") });
  equal(alerts.shown.length, 2, "a visible tab gets no notification");
  equal(model.alerts.unseen.value, 0);
  w.receive({ event: ev(5, "assistant/message", { text: "Noted." }) });
  equal(model.announcement.value, "Noted.", "new assistant messages are announced");
  model[Symbol.dispose]();
});

Deno.test("snooze and stop post to their routes and the card shows the outcome", async () => {
  const { host, model } = page();
  host.logs.set("a", { events: [], views: {} });
  await model.openSession("a");
  await model.snooze("sch_1", 600, "card:7");
  deepEqual(model.outcomes.value.get("card:7"), {
    state: "snoozed",
    until: "2030-01-01T08:10:00.000Z",
  });
  await model.stopRepeating("sch_1", "card:7");
  deepEqual(model.outcomes.value.get("card:7"), { state: "stopped" });
  host.failNext("schedule_not_active");
  await model.stopRepeating("sch_1", "row:sch_1");
  deepEqual(model.outcomes.value.get("row:sch_1"), {
    state: "failed",
    code: "schedule_not_active",
  });
  ok(host.calls.includes("snooze a sch_1 600") && host.calls.includes("stop a sch_1"));
  await model.openSession("a");
  equal(model.outcomes.value.size, 0, "outcomes belong to the open session");
  model[Symbol.dispose]();
});

Deno.test("the session list pages with nextBefore; new, fork and the phone panels", async () => {
  const { host, model } = page();
  for (let i = 0; i < 35; i++) host.logs.set(`s${i}`, { events: [], views: {} });
  await model.refreshSessions();
  equal(model.sessions.value.length, 30);
  equal(model.sessionsNext.value, "s29");
  await model.moreSessions();
  equal(model.sessions.value.length, 35);
  equal(model.sessionsNext.value, null);
  await model.newSession();
  equal(model.current.value, "s36");
  await model.fork();
  equal(model.current.value, "s36-fork");
  model.setSheet(true);
  equal(model.sheet.value, true);
  model.setDrawer(true);
  equal(model.sheet.value, false, "drawer and sheet never overlap");
  await model.openSession(null);
  equal(model.win.value, null);
  model[Symbol.dispose]();
});

Deno.test("a session owned by another host shows a link to it and opens no stream (issue 16)", async () => {
  const host = fakeHost();
  host.logs.set("a", { events: [ev(0, "user-rpc", { text: "hi" })], views: {} });
  let owned = true;
  const lost: ((url: string) => void)[] = [];
  const model = new PageModel({
    api: {
      ...host.api,
      resumeSession: () =>
        owned
          ? Promise.reject(new ApiError("session_owned_elsewhere", "elsewhere", "http://b/"))
          : Promise.resolve(),
    },
    connect: (_id, _w, _reopen, onLost) => {
      lost.push(onLost!);
      return { [Symbol.dispose]() {} };
    },
    navigate: () => {},
    alerts: fakeAlerts().env,
    timeZone: "Asia/Shanghai",
  });
  await model.openSession("a");
  equal(model.owner.value, "http://b/#/s/a");
  equal(model.banner.value, null);
  equal(model.win.value?.events.value.length, 1, "history stays readable");
  equal(lost.length, 0, "no stream while another host owns it");
  // Owned here, then taken over: the stream's session-lost shows the link.
  owned = false;
  await model.openSession("a");
  equal(model.owner.value, null);
  lost[0]!("http://c/");
  equal(model.owner.value, "http://c/#/s/a");
  model[Symbol.dispose]();
});
