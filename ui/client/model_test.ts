import { deepEqual, equal, ok } from "node:assert/strict";
import { lang } from "../i18n.ts";
import type { SessionWindow } from "../window.ts";
import type { EventView, HistoryPage, WireEvent, WireHeader } from "../wire.ts";
import type { AlertPermission, AlertsEnv } from "./alerts.ts";
import { ApiError } from "./api.ts";
import type { ClientConfigWire, PanelRequest } from "../client_renderer.ts";
import { EventViewRegistry } from "../registry.ts";
import { CLIENT_RENDERERS } from "../renderers.ts";
import type { ReminderPanel } from "../schedule/panel.ts";
import { type PageApi, PageModel } from "./model.ts";
import type { AlertHandlers } from "./page_deps.ts";

/** The client configuration of `examples/web-schedule/chime.jsonc`. */
const WEB_SCHEDULE: ClientConfigWire = { renderers: ["@chime/ui/schedule"], panels: ["reminders"] };
/** The client configuration of `config/default.jsonc`. */
const DEFAULT: ClientConfigWire = { renderers: [], panels: [] };

const at = "2030-01-01T08:00:00.000Z";
const header = (id: string): WireHeader => ({ id, createdAt: at, origin: "web", lineage: null });
const ev = (seq: number, type: string, data: unknown = {}): WireEvent => ({ seq, type, at, data });
const LISTED = { ok: true, schedules: [] };
const FRAME = "<schedule-reminder>\n{}\n</schedule-reminder>";
const card = (prompt: string, scheduleId = `sch_${prompt}`): EventView => ({
  type: "schedule/change",
  presentation: { scheduleId, prompt, occurrenceAt: at },
});

/** An in-memory host: one log per session, calls recorded. */
function fakeHost(config: ClientConfigWire) {
  const logs = new Map<string, { events: WireEvent[]; views: Record<string, EventView> }>();
  const calls: string[] = [];
  const keys: (string | undefined)[] = [];
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
    resumeSession: (id) =>
      logs.has(id)
        ? (calls.push(`resume ${id}`), Promise.resolve())
        : Promise.reject(new ApiError("session_not_found", `no session ${id}`)),
    renameSession: (id, title) => (calls.push(`rename ${id} ${title}`), Promise.resolve()),
    deleteSession: (id) => (calls.push(`delete ${id}`), logs.delete(id), Promise.resolve()),
    forkSession: (id) => {
      const child = `${id}-fork`;
      logs.set(child, { events: [...logs.get(id)!.events], views: {} });
      return Promise.resolve(header(child));
    },
    clientConfig: () => (calls.push("client-config"), Promise.resolve(config)),
    request: <T>(id: string, path: string, init?: PanelRequest): Promise<T> => {
      calls.push(`${init?.method ?? "GET"} ${id}${path} ${JSON.stringify(init?.body ?? null)}`);
      if (fail && init?.method === "POST") return Promise.reject(fail);
      if (path === "/reminders") {
        return Promise.resolve({ reminders: [], deliveryMode: "session-local" } as T);
      }
      if (path.endsWith("/snooze")) {
        return Promise.resolve({
          reminder: {
            id: "sch_9",
            kind: "at",
            prompt: "p",
            scheduledAt: "2030-01-01T08:10:00.000Z",
            status: "scheduled",
            deliveryMode: "session-local",
          },
        } as T);
      }
      return Promise.resolve({} as T);
    },
    sendMessage: (id, text, key) => {
      calls.push(`send ${id} ${text}`);
      keys.push(key);
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
  };
  return {
    api,
    logs,
    calls,
    keys,
    failNext(code: string, details: Record<string, unknown> = {}) {
      fail = new ApiError(code, code, undefined, details);
    },
    recover() {
      fail = null;
    },
  };
}

function fakeAlerts() {
  const shown: { title: string; body: string; tag: string; click(): void }[] = [];
  const closed: string[] = [];
  let hidden = false;
  let chimes = 0;
  const revealed: number[] = [];
  let permission: AlertPermission = "default";
  const env: AlertsEnv = {
    away: () => hidden,
    permission: () => permission,
    requestPermission: () => Promise.resolve(permission = "granted"),
    notify: (title, body, tag, click) => shown.push({ title, body, tag, click }),
    close: (tag) => void closed.push(tag),
    chime: () => void chimes++,
    reveal: (seq) => void revealed.push(seq),
  };
  return {
    env,
    shown,
    closed,
    revealed,
    hide(h: boolean) {
      hidden = h;
    },
    get chimes() {
      return chimes;
    },
  };
}

/** A page model over the fake host (web-schedule unless told); configured like `app.tsx`. */
async function page(config: ClientConfigWire = WEB_SCHEDULE) {
  const host = fakeHost(config);
  const registry = new EventViewRegistry();
  const alerts = fakeAlerts();
  const connected: SessionWindow[] = [];
  const reopens: (() => Promise<void>)[] = [];
  const model = new PageModel({
    api: host.api,
    connect: (_id, w, reopen) => {
      connected.push(w);
      reopens.push(reopen);
      return { [Symbol.dispose]() {} };
    },
    navigate: (id) => void model.openSession(id),
    alerts: alerts.env,
    timeZone: "Asia/Shanghai",
    renderers: CLIENT_RENDERERS,
    registry,
  });
  await model.configure();
  return { host, alerts, model, connected, registry, reopens };
}

Deno.test("openSession() resumes, loads the tail, connects, and asks the transcript to follow", async () => {
  const { host, model, connected } = await page();
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

Deno.test("routing to no session (the boot call) leaves a drawer the person opened open", async () => {
  const { model } = await page();
  model.setDrawer(true);
  await model.openSession(null);
  equal(model.drawer.value, true, "a tap on the menu before boot finished is kept");
  equal(model.current.value, null);
  model[Symbol.dispose]();
});

Deno.test("a reconnect (perhaps after a host restart) resumes and refreshes the list's live dots", async () => {
  const { host, model, reopens } = await page();
  host.logs.set("a", { events: [], views: {} });
  await model.openSession("a");
  const lists = () => host.calls.filter((c) => c.startsWith("list ")).length;
  const before = lists();
  await reopens[0]!();
  ok(host.calls.filter((c) => c === "resume a").length >= 2, "resumed again");
  await Promise.resolve();
  ok(lists() > before, "the session list is fetched again");
  model[Symbol.dispose]();
});

Deno.test("the first user message of an untitled session refreshes the list for its title", async () => {
  const { host, model } = await page();
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
  const { host, model } = await page();
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
  const { host, model, alerts } = await page();
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
  equal(alerts.shown[0]!.tag, `chime:a:sch_blink@${at}`, "tagged per occurrence");
  alerts.shown[0]!.click();
  deepEqual(alerts.revealed, [1], "clicking the notification reveals its card");
  equal(model.alerts.title.value, "chime", "opening the card sees the session");
  deepEqual(alerts.closed, [`chime:a:sch_blink@${at}`, `chime:a:sch_sip@${at}`], "they close");
  alerts.hide(false);
  w.receive({ event: ev(4, "schedule/change", { op: "dispatch", id: "sch_3" }), view: card("x") });
  equal(alerts.shown.length, 2, "a visible tab gets no notification");
  equal(model.alerts.unseen.value, 0);
  w.receive({ event: ev(5, "assistant/message", { text: "Noted." }) });
  equal(model.announcement.value, "Noted.", "new assistant messages are announced");
  model[Symbol.dispose]();
});

Deno.test("the reminders panel: fetched on open, snooze and stop post to their routes", async () => {
  const { host, model } = await page();
  equal(model.panels.value.length, 1);
  const panel = model.panels.value[0]!.model as ReminderPanel;
  host.logs.set("a", { events: [], views: {} });
  await model.openSession("a");
  ok(host.calls.includes("GET a/reminders null"), "the open session's reminders are fetched");
  await panel.snooze("sch_1", 600, "card:7");
  deepEqual(panel.outcomes.value.get("card:7"), {
    state: "snoozed",
    until: "2030-01-01T08:10:00.000Z",
    since: 0,
  });
  await panel.stopRepeating("sch_1", "card:7");
  deepEqual(panel.outcomes.value.get("card:7"), { state: "stopped", since: 0 });
  host.failNext("schedule_not_active");
  await panel.stopRepeating("sch_1", "row:sch_1");
  deepEqual(panel.outcomes.value.get("row:sch_1"), {
    state: "failed",
    code: "schedule_not_active",
    action: "stop",
  });
  ok(host.calls.includes('POST a/reminders/sch_1/snooze {"seconds":600}'));
  ok(host.calls.includes("POST a/reminders/sch_1/stop null"));
  const services = model.ctx.value.services?.schedule as { outcome(key: string): unknown };
  deepEqual(
    services.outcome("card:7"),
    { state: "stopped", since: 0 },
    "lent to the card renderer",
  );
  await model.openSession("a");
  equal(panel.outcomes.value.size, 0, "outcomes belong to the open session");
  model[Symbol.dispose]();
});

Deno.test("config/default.jsonc: no renderer, no panel, no reminders request, no schedule text", async () => {
  const { host, model, registry } = await page(DEFAULT);
  deepEqual(model.enabled.value, []);
  deepEqual(model.panels.value, []);
  equal(registry.has("schedule/change"), false, "no schedule renderer registered");
  equal(registry.summarizeTool("schedule_list", LISTED, model.ctx.value), undefined, "no words");
  equal(registry.followupLabel(FRAME, "en"), undefined, "no reminder follow-up label");
  equal(model.hasAlerts.value, false, "no notification settings");
  host.logs.set("a", { events: [ev(0, "user-rpc", { text: "hi" })], views: {} });
  await model.openSession("a");
  const w = model.win.value!;
  w.receive({ event: ev(1, "schedule/change", { op: "create" }) });
  w.receive({ event: ev(2, "x"), view: card("blink") });
  equal(host.calls.filter((c) => c.includes("reminders")).length, 0, "no reminders request");
  deepEqual(model.ctx.value.services, {});
  equal(model.announcement.value, "", "a view no module alerts on is not announced");
  ok(!/remind/i.test(model.placeholder.value + model.hello.value), "no reminder hints");
  model[Symbol.dispose]();
});

Deno.test("web-schedule: the schedule renderer, its panel, its alerts and its hints", async () => {
  const { model, registry } = await page();
  equal(registry.has("schedule/change"), true);
  ok(registry.summarizeTool("schedule_list", LISTED, model.ctx.value), "the schedule's words");
  equal(registry.followupLabel(FRAME, "en"), "Reminder delivered to the agent");
  equal(model.hasAlerts.value, true);
  deepEqual(model.panels.value.map((p) => p.definition.name), ["reminders"]);
  ok(/remind me/.test(model.placeholder.value));
  model.close();
  equal(registry.has("schedule/change"), false, "closing the page unregisters it");
  equal(registry.followupLabel(FRAME, "en"), undefined, "and its follow-up label");
  deepEqual(model.panels.value, []);
  model[Symbol.dispose]();
});

Deno.test("a renderer the page does not bundle, or a panel without its plugin, is skipped", async () => {
  const { model, registry } = await page({ renderers: ["@chime/ui/nope", "@chime/ui/schedule"] });
  deepEqual(model.enabled.value.map((r) => r.name), ["@chime/ui/schedule"]);
  equal(registry.has("schedule/change"), true, "the renderer shows events");
  deepEqual(model.panels.value, [], "no panel: its routes are absent");
  model[Symbol.dispose]();
});

Deno.test("the session list pages with nextBefore; new, fork and the phone panels", async () => {
  const { host, model } = await page();
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
  model.setSheet("reminders");
  equal(model.sheet.value, "reminders");
  model.setDrawer(true);
  equal(model.sheet.value, null, "drawer and sheet never overlap");
  await model.openSession(null);
  equal(model.win.value, null);
  model[Symbol.dispose]();
});

Deno.test("a session owned by another host shows a link to it and opens no stream", async () => {
  const host = fakeHost(DEFAULT);
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
    renderers: CLIENT_RENDERERS,
    registry: new EventViewRegistry(),
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

Deno.test("regression: the error banner is a sentence in the UI language, also after a switch", async () => {
  const { host, model } = await page();
  host.logs.set("a", { events: [], views: {} });
  await model.openSession("a");
  const before = lang.value;
  try {
    lang.value = "zh";
    host.failNext("payload_too_large", { field: "text", limit: 32768 });
    equal(await model.send("x".repeat(32769)), false);
    equal(model.banner.value, "文本太长：最多 32,768 个字符。");
    lang.value = "en";
    equal(model.banner.value, "This text is too long: at most 32,768 characters.");
  } finally {
    lang.value = before;
  }
  model[Symbol.dispose]();
});

Deno.test("a send that failed and is sent again reuses its idempotency key; a new send gets a new one", async () => {
  const { host, model } = await page();
  host.logs.set("a", { events: [], views: {} });
  await model.openSession("a");
  host.failNext("persistence_uncertain");
  equal(await model.send("call mum"), false);
  host.recover();
  equal(await model.send("call mum"), true, "sent again after the failure");
  equal(await model.send("call mum"), true, "a new message with the same words");
  const [failed, retried, fresh] = host.keys;
  ok(typeof failed === "string" && failed.length > 0);
  equal(retried, failed, "the retry carries the failed send's key");
  ok(fresh !== failed, "a later send is another message");
  model[Symbol.dispose]();
});

Deno.test("the alert stream alerts for a session not shown, marks its row, and one acknowledgement clears it", async () => {
  const host = fakeHost({ ...WEB_SCHEDULE, alerts: true });
  const acked: string[] = [];
  host.api.acknowledge = (id, tag) => (acked.push(`${id} ${tag}`), Promise.resolve());
  const alerts = fakeAlerts();
  const streams: { ids: readonly string[]; handlers: AlertHandlers; closed: boolean }[] = [];
  const model = new PageModel({
    api: host.api,
    connect: () => ({ [Symbol.dispose]() {} }),
    watchAlerts: (ids, handlers) => {
      const s = { ids, handlers, closed: false };
      streams.push(s);
      return { [Symbol.dispose]: () => void (s.closed = true) };
    },
    navigate: (id) => void model.openSession(id),
    alerts: alerts.env,
    timeZone: "UTC",
    renderers: CLIENT_RENDERERS,
    registry: new EventViewRegistry(),
  });
  await model.configure();
  await model.alerts.askPermission();
  host.logs.set("a", { events: [], views: {} });
  host.logs.set("b", { events: [], views: {} });
  await model.openSession("b");
  await model.openSession("a");
  deepEqual(model.watched.value, ["a", "b"], "newest first");
  const live = streams.filter((s) => !s.closed);
  equal(live.length, 1, "one stream per page");
  deepEqual(live[0]!.ids, ["a", "b"]);
  // A card of b (not shown) while a is looked at: notification with b's title, b's row marked.
  const event = ev(4, "schedule/change", { op: "dispatch", id: "sch_x" });
  live[0]!.handlers.alert({ sessionId: "b", title: "Kitchen", event, view: card("feed the cat") });
  live[0]!.handlers.alert({ sessionId: "b", title: "Kitchen", event, view: card("feed the cat") });
  const tag = `chime:b:sch_feed the cat@${at}`;
  deepEqual(alerts.shown.map((s) => [s.title, s.body, s.tag]), [
    ["Reminder — Kitchen", "feed the cat", tag],
  ], "once, though it arrived twice");
  deepEqual([...model.alerts.unread.value], [["b", [tag]]]);
  equal(model.alerts.title.value, "(1) chime");
  // Acknowledged on another device: closed here, the mark goes.
  live[0]!.handlers.acknowledged({ sessionId: "b", tag });
  deepEqual(alerts.closed, [tag]);
  equal(model.alerts.unseen.value, 0);
  // A card of the open session while the person looks at it: no alert, acknowledged at once.
  const shown = alerts.shown.length;
  const mine = ev(5, "schedule/change", { op: "dispatch", id: "sch_y" });
  live[0]!.handlers.alert({ sessionId: "a", title: null, event: mine, view: card("sip") });
  model.win.value!.receive({ event: mine, view: card("sip") });
  equal(alerts.shown.length, shown);
  deepEqual(acked, [`a chime:a:sch_sip@${at}`]);
  // Unfocused (away) with b's next card: opening b from its notification acknowledges it.
  alerts.hide(true);
  const next = ev(6, "schedule/change", { op: "dispatch", id: "sch_z" });
  live[0]!.handlers.alert({ sessionId: "b", title: "Kitchen", event: next, view: card("water") });
  alerts.hide(false);
  alerts.shown.at(-1)!.click();
  await Promise.resolve();
  equal(model.current.value, "b");
  ok(acked.includes(`b chime:b:sch_water@${at}`));
  equal(model.alerts.unseen.value, 0);
  model[Symbol.dispose]();
});

Deno.test("a session deleted elsewhere leaves the watched sessions; the open one shows not-found", async () => {
  const host = fakeHost({ ...WEB_SCHEDULE, alerts: true });
  const streams: { ids: readonly string[]; handlers: AlertHandlers; closed: boolean }[] = [];
  const deletions: (() => void)[] = [];
  const model = new PageModel({
    api: host.api,
    connect: (_id, _w, _reopen, _lost, onDeleted) => {
      if (onDeleted) deletions.push(onDeleted);
      return { [Symbol.dispose]() {} };
    },
    watchAlerts: (ids, handlers) => {
      const s = { ids, handlers, closed: false };
      streams.push(s);
      return { [Symbol.dispose]: () => void (s.closed = true) };
    },
    navigate: (id) => void model.openSession(id),
    alerts: fakeAlerts().env,
    timeZone: "UTC",
    renderers: CLIENT_RENDERERS,
    registry: new EventViewRegistry(),
  });
  await model.configure();
  for (const id of ["a", "b", "c"]) host.logs.set(id, { events: [], views: {} });
  await model.openSession("c");
  await model.openSession("b");
  await model.openSession("a");
  deepEqual(model.watched.value, ["a", "b", "c"]);
  // The alert stream says c was deleted: it leaves, and the stream is reopened without it.
  streams.find((s) => !s.closed)!.handlers.deleted!({ sessionId: "c", code: "session_not_found" });
  deepEqual(model.watched.value, ["a", "b"]);
  deepEqual(streams.filter((s) => !s.closed).map((s) => s.ids), [["a", "b"]]);
  equal(model.missing.value, null, "the open session is not touched");
  // The open session's own stream says it was deleted: the final state, and it is not watched.
  deletions.at(-1)!();
  equal(model.missing.value, "a");
  equal(model.win.value, null);
  deepEqual(model.watched.value, ["b"]);
  model[Symbol.dispose]();
});

Deno.test("an unknown session is one final state: no window, no stream, no banner; New session leaves it", async () => {
  const { model, connected, host } = await page();
  await model.openSession("ghost");
  equal(model.missing.value, "ghost");
  equal(model.win.value, null);
  equal(model.banner.value, null, "no error banner on top of the state");
  equal(connected.length, 0, "no stream, so nothing retries");
  await model.newSession();
  equal(model.missing.value, null);
  ok(host.calls.some((c) => c.startsWith("resume s")));
});

Deno.test("rename and delete the open session: the host is asked, a deleted one routes to none", async () => {
  const { model, host } = await page();
  await model.newSession();
  const id = model.current.value!;
  ok(await model.rename("Groceries"));
  ok(host.calls.includes(`rename ${id} Groceries`));
  ok(await model.remove());
  ok(host.calls.includes(`delete ${id}`));
  equal(model.current.value, null, "routed to no session");
  equal(model.sessions.value.some((s) => s.header.id === id), false);
});

Deno.test("regression: a malformed session id in the URL is the same final state, with no retries", async () => {
  const { model, connected, host } = await page();
  host.failNext("invalid_session_id");
  await model.openSession("..%2F..%2Fetc");
  equal(model.missing.value, "..%2F..%2Fetc");
  equal(model.win.value, null);
  equal(model.banner.value, null);
  equal(connected.length, 0, "no stream, so nothing retries");
  host.recover();
  model[Symbol.dispose]();
});
