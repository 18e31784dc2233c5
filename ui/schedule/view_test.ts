import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { RenderContext } from "../registry.ts";
import { describeRule } from "@chime/schedule/describe";
import {
  type ReminderOutcome,
  renderScheduleChange,
  repeatLine,
  SCHEDULE_SERVICES,
  type ScheduleServices,
} from "./view.ts";
import { byTestId, vnodeText } from "../testing/vnode_text.ts";
import { presentEvent } from "../transcript.ts";
import type { EventView, WireEvent } from "../wire.ts";

const at = "2030-01-01T00:00:00.000Z";
const e = (seq: number, data: unknown): WireEvent => ({ seq, type: "schedule/change", at, data });
const daily: EventView = {
  type: "schedule/change",
  presentation: {
    scheduleId: "sch_1",
    prompt: "take vitamins",
    occurrenceAt: "2030-01-01T01:00:00.000Z",
    recurring: {
      rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      timeZone: "Asia/Shanghai",
      // The host's words name the zone of a rule with a time of day (schedule/_describe.ts).
      text: { en: "daily at 09:00 (Asia/Shanghai)", zh: "每天 09:00（Asia/Shanghai）" },
      nextAt: "2030-01-02T01:00:00.000Z",
    },
    missed: 2,
  },
};

function services(active: string[], outcomes: Record<string, ReminderOutcome> = {}) {
  const calls: string[] = [];
  const s: ScheduleServices = {
    activeRecurring: new Set(active),
    promptOf: (id) => (id === "sch_1" ? "take vitamins" : undefined),
    outcome: (key) => outcomes[key],
    snooze: (id, seconds, key) => void calls.push(`snooze ${id} ${seconds} ${key}`),
    stop: (id, key) => void calls.push(`stop ${id} ${key}`),
  };
  return { s, calls };
}
const ctx = (s?: ScheduleServices, lang: "en" | "zh" = "en"): RenderContext => ({
  lang,
  timeZone: "Asia/Shanghai",
  ...(s ? { services: { [SCHEDULE_SERVICES]: s } } : {}),
});

Deno.test("a recurring card says how it repeats and when next, and its buttons call the services", () => {
  const { s, calls } = services(["sch_1"]);
  const card = renderScheduleChange(
    presentEvent(e(7, { version: 2, op: "dispatch", id: "sch_1" }), daily),
    ctx(s),
  );
  equal(
    vnodeText(byTestId(card, "reminder-repeat")?.children),
    " repeats daily at 09:00 (Asia/Shanghai) · next Jan 2, 2030, 09:00",
  );
  match(vnodeText(card), /2 earlier occurrences were missed/);
  (byTestId(card, "snooze-600")?.onClick as () => void)();
  (byTestId(card, "snooze-3600")?.onClick as () => void)();
  (byTestId(card, "stop-repeating")?.onClick as () => void)();
  deepEqual(calls, ["snooze sch_1 600 card:7", "snooze sch_1 3600 card:7", "stop sch_1 card:7"]);
  const zh = renderScheduleChange(
    presentEvent(e(7, { version: 2, op: "dispatch", id: "sch_1" }), daily),
    ctx(s, "zh"),
  );
  match(
    vnodeText(byTestId(zh, "reminder-repeat")?.children),
    /重复：每天 09:00（Asia\/Shanghai）· 下次/,
  );
  match(vnodeText(zh), /停止重复/);
});

Deno.test("Stop repeating shows only while the series is active; the card shows the outcome", () => {
  const node = presentEvent(e(7, { version: 2, op: "dispatch", id: "sch_1" }), daily);
  equal(byTestId(renderScheduleChange(node, ctx(services([]).s)), "stop-repeating"), undefined);
  const snoozed = services(["sch_1"], {
    "card:7": { state: "snoozed", until: "2030-01-01T01:10:00.000Z" },
  });
  const card = renderScheduleChange(node, ctx(snoozed.s));
  equal(
    vnodeText(byTestId(card, "reminder-outcome")?.children),
    "Snoozed until Jan 1, 2030, 09:10",
  );
  const stopped = renderScheduleChange(
    node,
    ctx(services(["sch_1"], { "card:7": { state: "stopped" } }).s),
  );
  equal(vnodeText(byTestId(stopped, "reminder-outcome")?.children), "Stopped repeating");
  equal(byTestId(stopped, "stop-repeating"), undefined);
  const failed = renderScheduleChange(
    node,
    ctx(
      services(["sch_1"], {
        "card:7": { state: "failed", code: "schedule_not_active", action: "stop" },
      }).s,
    ),
  );
  const said = vnodeText(byTestId(failed, "reminder-outcome")?.children);
  equal(said, "This reminder no longer repeats.");
  equal(byTestId(failed, "reminder-outcome")?.["data-code"], "schedule_not_active");
  const pending = renderScheduleChange(
    node,
    ctx(services(["sch_1"], { "card:7": { state: "pending" } }).s),
  );
  equal(byTestId(pending, "snooze-600")?.disabled, true);
  equal(
    byTestId(renderScheduleChange(node, ctx()), "snooze-600"),
    undefined,
    "no services, no buttons",
  );
});

Deno.test("v2 rows: recurring create, snooze, update, stop and skip read as one human line", () => {
  const { s } = services([]);
  const line = (data: unknown) => vnodeText(renderScheduleChange(presentEvent(e(1, data)), ctx(s)));
  const recurring = {
    id: "sch_1",
    kind: "recurring",
    prompt: "take vitamins",
    rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
    dtstart: "2030-01-01T09:00:00",
    timeZone: "Asia/Shanghai",
    scheduledAt: "2030-01-01T01:00:00.000Z",
  };
  match(
    line({ version: 2, op: "create", record: recurring }),
    /^ Repeating reminder set: take vitamins · repeats daily at 09:00 \(Asia\/Shanghai\) · first Jan 1, 2030, 09:00/,
  );
  const snooze = {
    id: "sch_2",
    kind: "at",
    prompt: "take vitamins",
    scheduledAt: "2030-01-01T01:10:00.000Z",
    snoozeOf: { id: "sch_1", occurrenceAt: "2030-01-01T01:00:00.000Z" },
  };
  match(line({ version: 2, op: "create", record: snooze }), /^ Snoozed: take vitamins until Jan 1/);
  match(
    line({ version: 2, op: "update", id: "sch_2", record: snooze }),
    /^ Reminder changed: take vitamins/,
  );
  match(line({ version: 2, op: "stop", id: "sch_1" }), /^ Stopped repeating: take vitamins/);
  match(line({ version: 2, op: "delete", id: "sch_1" }), /^ Reminder cancelled: take vitamins/);
  match(
    line({
      version: 2,
      op: "skip",
      id: "sch_1",
      occurrenceAt: at,
      missed: 0,
      nextAt: at,
      reason: "catch-up-window",
    }),
    /^ Skipped a missed occurrence/,
  );
  ok(
    !line({ version: 2, op: "delete", id: "sch_1" }).split("{")[0]!.includes("sch_1"),
    "no ids on the line",
  );
});

Deno.test("repeatLine() words a series as the server's describeRule does, in English and Chinese", () => {
  // One describer: schedule/_describe.ts, bundled into the page (docs/recurring.md "Host and page").
  const cases: [string, string, string][] = [
    ["FREQ=MINUTELY", "repeats every minute (UTC)", "重复：每分钟（UTC）"],
    ["FREQ=HOURLY;INTERVAL=2", "repeats every 2 hours (UTC)", "重复：每隔2小时（UTC）"],
    ["FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "repeats daily at 09:00 (UTC)", "重复：每天 09:00（UTC）"],
    [
      "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=30",
      "repeats every weekday at 08:30 (UTC)",
      "重复：工作日 08:30（UTC）",
    ],
    [
      "FREQ=MONTHLY;BYMONTHDAY=-1",
      "repeats monthly on the last day at 00:00 (UTC)",
      "重复：每月最后一天 00:00（UTC）",
    ],
    // Outside the subset, or no DTSTART: the rule itself, never a guess.
    ["FREQ=YEARLY", "repeats yearly on January 1 at 00:00 (UTC)", "重复：每年1月1日 00:00（UTC）"],
    ["FREQ=SECONDLY", "repeats FREQ=SECONDLY (UTC)", "重复：FREQ=SECONDLY（UTC）"],
  ];
  for (const [rrule, en, zh] of cases) {
    const repeat = { rrule, timeZone: "UTC", dtstart: "2030-01-01T00:00:00" };
    equal(repeatLine(repeat, undefined, ctx()), en, rrule);
    equal(repeatLine(repeat, undefined, ctx(undefined, "zh")), zh, rrule);
    equal(
      repeatLine({ ...repeat, dtstart: undefined }, undefined, ctx()),
      `repeats ${rrule} (UTC)`,
    );
  }
  const repeat = { rrule: "FREQ=MINUTELY", timeZone: "UTC", dtstart: "2030-01-01T00:00:00" };
  equal(repeatLine(repeat, null, ctx()), "repeats every minute (UTC) · no further occurrences");
  equal(
    repeatLine({ ...repeat, text: { en: "repeats each minute", zh: "" } }, undefined, ctx()),
    "repeats each minute (UTC)",
  );
});

Deno.test("regression: a monthly-by-weekday transcript row reads as its card and the server do", () => {
  // It read "repeats monthly at 10:00" while the card and schedule_list said the first Monday and
  // the count (the page had a describer of its own; now it bundles schedule/_describe.ts).
  const record = {
    id: "sch_3",
    kind: "recurring",
    prompt: "pay rent",
    rrule: "FREQ=MONTHLY;BYDAY=1MO;BYHOUR=10;BYMINUTE=0;COUNT=3",
    dtstart: "2030-01-07T10:00:00",
    timeZone: "Europe/Berlin",
    scheduledAt: "2030-01-07T09:00:00.000Z",
  };
  const words = describeRule(record, "en");
  equal(words, "monthly on the first Monday at 10:00 (Europe/Berlin), 3 times");
  const row = (lang: "en" | "zh") =>
    vnodeText(
      renderScheduleChange(
        presentEvent(e(1, { version: 2, op: "create", record })),
        ctx(undefined, lang),
      ),
    );
  ok(row("en").includes(` · repeats ${words} · first `), row("en"));
  equal(describeRule(record, "zh"), "每月第一个周一 10:00（Europe/Berlin），共3次");
  ok(row("zh").includes(`重复：${describeRule(record, "zh")}`), row("zh"));
});

Deno.test("regression: repeatLine() names the zone once when the host's words already carry it", () => {
  const next = "2030-01-02T01:00:00.000Z";
  const daily = {
    rrule: "FREQ=DAILY;COUNT=5;BYHOUR=9;BYMINUTE=0",
    timeZone: "Asia/Shanghai",
    // What schedule/_describe.ts says: the zone, then COUNT.
    text: {
      en: "daily at 09:00 (Asia/Shanghai), 5 times",
      zh: "每天 09:00（Asia/Shanghai），共5次",
    },
  };
  equal(
    repeatLine(daily, next, ctx()),
    "repeats daily at 09:00 (Asia/Shanghai), 5 times · next Jan 2, 2030, 09:00",
  );
  equal(
    repeatLine(daily, next, ctx(undefined, "zh")),
    "重复：每天 09:00（Asia/Shanghai），共5次· 下次 2030年1月2日 09:00",
  );
  // Words without a zone (the server's "every minute") get it added.
  const minutely = {
    rrule: "FREQ=MINUTELY",
    timeZone: "Asia/Shanghai",
    dtstart: "2030-01-01T09:00:00",
  };
  equal(
    repeatLine({ ...minutely, text: { en: "every minute", zh: "每分钟" } }, undefined, ctx()),
    "repeats every minute (Asia/Shanghai)",
  );
  equal(repeatLine(minutely, undefined, ctx(undefined, "zh")), "重复：每分钟（Asia/Shanghai）");
});

Deno.test("a late card says how late and why, from the cause its presentation carries, in en and zh", () => {
  const occurrenceAt = "2030-01-01T02:30:00.000Z";
  const late = (cause?: unknown): EventView => ({
    type: "schedule/change",
    presentation: {
      scheduleId: "sch_2",
      prompt: "tea",
      occurrenceAt,
      late: { ms: 18_600_000, ...(cause ? { cause } : {}) },
    },
  });
  const closed = {
    kind: "closed",
    from: "2030-01-01T02:10:00.000Z",
    until: "2030-01-01T07:40:00.000Z",
    ms: 19_800_000,
  };
  const line = (view: EventView, lang: "en" | "zh", timeZone = "UTC") =>
    byTestId(
      renderScheduleChange(presentEvent(e(3, { version: 1, op: "dispatch", id: "sch_2" }), view), {
        ...ctx(undefined, lang),
        timeZone,
      }),
      "reminder-late",
    )?.children;
  const card = renderScheduleChange(
    presentEvent(e(3, { version: 1, op: "dispatch", id: "sch_2" }), late(closed)),
    { ...ctx(undefined, "en"), timeZone: "UTC" },
  );
  equal(byTestId(card, "reminder-late")?.["data-cause"], "closed");
  equal(
    vnodeText(line(late(closed), "en")),
    "Delivered 5 hours late: the session was closed from 02:10 to 07:40",
  );
  equal(
    vnodeText(line(late(closed), "zh")),
    "晚了 5 小时送达：会话在 02:10 到 07:40 之间处于关闭状态",
  );
  // The viewer's zone, with the date when the stretch began on another day there.
  equal(
    vnodeText(line(late(closed), "en", "America/Los_Angeles")),
    "Delivered 5 hours late: the session was closed from 18:10 to 23:40",
  );
  const overnight = { ...closed, from: "2029-12-31T22:10:00.000Z" };
  equal(
    vnodeText(line(late(overnight), "en")),
    "Delivered 5 hours late: the session was closed from 2029-12-31 22:10 to 07:40",
  );
  const busy = { kind: "busy", from: occurrenceAt, until: "2030-01-01T02:33:00.000Z", ms: 180_000 };
  equal(vnodeText(line(late(busy), "en")), "Delivered 5 hours late: the agent was busy for 3 min");
  equal(vnodeText(line(late(busy), "zh")), "晚了 5 小时送达：Agent 忙碌了 3 分钟");
  const down = { ...closed, kind: "host-down" };
  equal(
    vnodeText(line(late(down), "en")),
    "Delivered 5 hours late: the host was down from 02:10 to 07:40",
  );
  const limit = { ...closed, kind: "hourly-limit" };
  equal(vnodeText(line(late(limit), "zh")), "晚了 5 小时送达：每小时提醒上限让它等待了");
  // No cause the log could tell: only how late; a cause of an unknown kind is not a lateness.
  equal(vnodeText(line(late(), "en")), "Delivered 5 hours late");
  equal(line(late({ ...closed, kind: "weather" }), "en"), undefined);
});
