import { deepEqual, equal, match, ok } from "node:assert/strict";
import type { RenderContext } from "../registry.ts";
import {
  failureText,
  historyControl,
  historyLine,
  renderScheduleChange,
  tomorrowIn,
} from "./view.ts";
import { ctxWith, fakeServices, ONCE, SERIES } from "./_fixtures_test.ts";
import { RemindersPanel } from "./panel_view.tsx";
import { byTestId, vnodeText } from "../testing/vnode_text.ts";
import { presentEvent } from "../transcript.ts";
import type { ActiveReminderWire, EventView, ReminderHistoryEntryWire } from "../wire.ts";
import type { ReminderPanel } from "./panel.ts";
import { signal } from "@preact/signals";

const series = SERIES;
const once = ONCE;
const services = fakeServices;
const ctx = ctxWith;
const click = (node: unknown, id: string) => (byTestId(node, id)?.onClick as () => void)();

function panel(list: ActiveReminderWire[], c: RenderContext) {
  const model = {
    reminders: signal(list),
    damaged: signal([]),
    imported: signal(undefined),
  } as unknown as ReminderPanel;
  return RemindersPanel({ model, ctx: c, open: true, onClose: () => {} });
}

Deno.test("a series row: preview with the skipped one, Pause and Skip next; paused: Resume", () => {
  const { s, calls } = services([series]);
  const row = panel([series], ctx(s));
  const preview = vnodeText(byTestId(row, "reminder-preview")?.children);
  match(preview, /^Next occurrences \(Asia\/Shanghai\)/);
  match(preview, /Wed, Jan 2 09:00 · skipped/);
  match(preview, /Thu, Jan 3 09:00/);
  click(row, "pause");
  click(row, "skip-next");
  equal(byTestId(row, "resume"), undefined);
  equal(byTestId(row, "snooze-tomorrow"), undefined, "a series row has no snooze");
  ok(byTestId(row, "reminder-edit"));
  ok(byTestId(row, "reminder-history"));
  const paused = { ...series, paused: true as const };
  const p = services([paused]);
  const prow = panel([paused], ctx(p.s));
  equal(byTestId(prow, "active-reminder")?.["data-state"], "paused");
  equal(vnodeText(byTestId(prow, "reminder-paused")?.children), "Paused");
  equal(byTestId(prow, "pause"), undefined);
  equal(byTestId(prow, "skip-next"), undefined);
  click(prow, "resume");
  deepEqual([...calls, ...p.calls], [
    "pause sch_1 row:sch_1",
    "skip sch_1 row:sch_1",
    "resume sch_1 row:sch_1",
  ]);
  const zh = panel([paused], ctx(p.s, "zh"));
  equal(vnodeText(byTestId(zh, "reminder-paused")?.children), "已暂停");
  match(vnodeText(byTestId(zh, "resume")?.children), /恢复/);
  match(vnodeText(byTestId(panel([series], ctx(s, "zh")), "skip-next")?.children), /跳过下一次/);
  match(vnodeText(byTestId(panel([series], ctx(s, "zh")), "pause")?.children), /暂停/);
});

Deno.test("a one-time row: Tomorrow morning is 09:00 tomorrow in the session's zone; Pick a time", () => {
  const { s, calls } = services([once]);
  const row = panel([once], ctx(s));
  match(vnodeText(byTestId(row, "snooze-tomorrow")?.children), /Tomorrow morning/);
  click(row, "snooze-tomorrow");
  const form = byTestId(row, "snooze-pick-form")!;
  match(vnodeText(form.children), /Date.*Time.*Time zone: Asia\/Shanghai.*Snooze until/);
  const details = { open: true };
  const values: Record<string, string> = { date: "2030-01-05", time: "07:45" };
  (form.onSubmit as (e: Event) => void)({
    preventDefault: () => {},
    currentTarget: {
      elements: { namedItem: (n: string) => ({ value: values[n] }) },
      closest: () => details,
    },
  } as unknown as Event);
  equal(details.open, false);
  deepEqual(calls, [
    "until sch_2 2030-01-03 09:00 row:sch_2",
    "until sch_2 2030-01-05 07:45 row:sch_2",
  ]);
  const zh = panel([once], ctx(s, "zh"));
  match(vnodeText(byTestId(zh, "snooze-tomorrow")?.children), /明天早上/);
  match(
    vnodeText(byTestId(zh, "snooze-pick")?.children),
    /选择时间.*日期.*时间.*时区：Asia\/Shanghai.*推迟到/,
  );
  equal(tomorrowIn(new Date("2030-01-01T15:59:00Z"), "Asia/Shanghai"), "2030-01-02");
  equal(tomorrowIn(new Date("2030-01-01T16:00:00Z"), "Asia/Shanghai"), "2030-01-03");
});

const card: EventView = {
  type: "schedule/change",
  presentation: {
    scheduleId: "sch_1",
    prompt: "stretch",
    occurrenceAt: "2030-01-01T01:00:00.000Z",
    recurring: {
      rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      timeZone: "Asia/Shanghai",
      text: { en: "daily at 09:00 (Asia/Shanghai)", zh: "每天 09:00（Asia/Shanghai）" },
      nextAt: "2030-01-02T01:00:00.000Z",
      paused: true,
      preview: [{ at: "2030-01-02T01:00:00.000Z", local: "2030-01-02T09:00", offset: "+08:00" }],
    },
  },
};
const dispatch = presentEvent(
  {
    seq: 7,
    type: "schedule/change",
    at: "2030-01-01T01:00:00.000Z",
    data: { version: 2, op: "dispatch", id: "sch_1" },
  },
  card,
);

Deno.test("a recurring card: the host's list wins over the presentation for Paused and the preview", () => {
  // Listed, not paused: Pause, Skip next, Edit, the list's preview (with the skipped one).
  const { s, calls } = services([series]);
  const live = renderScheduleChange(dispatch, ctx(s));
  equal(byTestId(live, "reminder-paused"), undefined);
  match(vnodeText(byTestId(live, "reminder-preview")?.children), /skipped/);
  click(live, "pause");
  click(live, "skip-next");
  ok(byTestId(live, "reminder-edit"));
  match(vnodeText(byTestId(live, "snooze-tomorrow")?.children), /Tomorrow morning/);
  deepEqual(calls, ["pause sch_1 card:7", "skip sch_1 card:7"]);
  // Not listed (ended): the presentation's words, no series buttons, no Edit.
  const gone = renderScheduleChange(dispatch, ctx(services([]).s, "zh"));
  equal(vnodeText(byTestId(gone, "reminder-paused")?.children), "已暂停");
  match(vnodeText(byTestId(gone, "reminder-preview")?.children), /接下来的提醒/);
  equal(byTestId(gone, "resume"), undefined);
  equal(byTestId(gone, "reminder-edit"), undefined);
});

Deno.test("every refusal of the new actions is a sentence in both languages, never the code", () => {
  const codes = [
    "schedule_not_found",
    "schedule_not_active",
    "invalid_arguments",
    "unsupported_rule",
    "not_in_future",
    "not_an_occurrence",
    "persistence_uncertain",
    "network",
  ];
  for (const lang of ["en", "zh"] as const) {
    for (const action of ["pause", "resume", "skip", "edit", "history", "snooze"] as const) {
      for (const code of codes) {
        const said = failureText(code, action, lang);
        ok(
          said.length > 4 && !said.includes(code) && !said.includes("_"),
          `${lang} ${action} ${code}`,
        );
      }
    }
  }
  equal(
    failureText("unsupported_rule", "edit", "en"),
    "That repeat rule is not supported. Choose one of the common rules or check the RRULE.",
  );
  equal(failureText("not_in_future", "edit", "zh"), "该时间已经过去。请选择一个未来的时间。");
  equal(
    failureText("schedule_not_active", "pause", "en"),
    "This reminder has ended, so it can't be paused.",
  );
  // The outcome line shows it, with the code only as data.
  const { s } = services([series], {
    "row:sch_1": { state: "failed", code: "not_an_occurrence", action: "skip" },
  });
  const out = byTestId(panel([series], ctx(s)), "reminder-outcome")!;
  equal(vnodeText(out.children), "That time is not one of this reminder's occurrences.");
  equal(out["data-code"], "not_an_occurrence");
  for (
    const [state, en, zh] of [
      ["paused", "Paused", "已暂停"],
      ["resumed", "Resumed", "已恢复"],
      ["skipped", "Skipped the next occurrence", "已跳过下一次"],
      ["changed", "Saved", "已保存"],
    ] as const
  ) {
    const o = services([series], { "row:sch_1": { state } }).s;
    equal(vnodeText(byTestId(panel([series], ctx(o)), "reminder-outcome")?.children), en);
    equal(vnodeText(byTestId(panel([series], ctx(o, "zh")), "reminder-outcome")?.children), zh);
  }
});

const entries: ReminderHistoryEntryWire[] = [
  { seq: 3, at: "2030-01-01T00:00:00.000Z", kind: "created", nextAt: "2030-01-01T01:00:00.000Z" },
  {
    seq: 5,
    at: "2030-01-01T01:00:03.000Z",
    kind: "delivered",
    occurrenceAt: "2030-01-01T01:00:00.000Z",
    latenessMs: 3000,
    missed: 2,
  },
  { seq: 6, at: "2030-01-01T01:05:00.000Z", kind: "paused" },
  { seq: 7, at: "2030-01-01T01:06:00.000Z", kind: "resumed", nextAt: "2030-01-02T01:00:00.000Z" },
  {
    seq: 8,
    at: "2030-01-01T01:07:00.000Z",
    kind: "excluded",
    occurrenceAt: "2030-01-02T01:00:00.000Z",
  },
  {
    seq: 9,
    at: "2030-01-01T01:08:00.000Z",
    kind: "snoozed",
    nextAt: "2030-01-01T01:18:00.000Z",
    snoozeId: "sch_9",
  },
  { seq: 10, at: "2030-01-01T01:09:00.000Z", kind: "changed", nextAt: "2030-01-03T02:00:00.000Z" },
  { seq: 11, at: "2030-01-01T01:10:00.000Z", kind: "stopped" },
];

Deno.test("the History disclosure fetches when opened and lists each entry at its local time", () => {
  const { s, calls } = services([series]);
  const c = ctx(s);
  const closed = historyControl("sch_1", c, s);
  const toggle = (node: unknown, open: boolean) =>
    (byTestId(node, "reminder-history")?.onToggle as (e: Event) => void)(
      { currentTarget: { open } } as unknown as Event,
    );
  toggle(closed, false);
  toggle(closed, true);
  deepEqual(calls, ["history sch_1"]);
  match(vnodeText(byTestId(closed, "reminder-history")?.children), /History.*Loading…/);
  const loaded = historyControl("sch_1", c, {
    ...s,
    history: () => ({ state: "loaded", entries }),
  });
  const text = vnodeText(byTestId(loaded, "reminder-history")?.children);
  match(text, /Jan 1, 2030, 08:00 · Created · next Jan 1, 2030, 09:00/);
  match(text, /Delivered · for Jan 1, 2030, 09:00 · 3 s late · 2 missed/);
  match(text, /Paused.*Resumed · next Jan 2, 2030, 09:00/);
  match(text, /Skipped · for Jan 2, 2030, 09:00/);
  match(text, /Snoozed · until Jan 1, 2030, 09:18/);
  match(text, /Changed · next.*Stopped/);
  equal(byTestId(loaded, "history-entry")?.["data-kind"], "created");
  const zh = vnodeText(historyControl("sch_1", { ...c, lang: "zh" }, {
    ...s,
    history: () => ({ state: "loaded", entries }),
  }));
  match(
    zh,
    /历史.*已创建.*已送达 · 对应 .* · 晚了 3 秒 · 错过 2 次.*已暂停.*已恢复.*已跳过.*已推迟 · 至.*已修改.*已停止/,
  );
  const failed = historyControl("sch_1", c, {
    ...s,
    history: () => ({ state: "failed", code: "network" }),
  });
  match(vnodeText(failed), /Could not load the history/);
  match(
    vnodeText(
      historyControl("sch_1", c, { ...s, history: () => ({ state: "loaded", entries: [] }) }),
    ),
    /Nothing recorded yet/,
  );
  equal(
    historyLine({ seq: 1, at: entries[0]!.at, kind: "delivered", latenessMs: 200 }, c),
    "Delivered · on time",
  );
  equal(
    historyLine({ seq: 1, at: entries[0]!.at, kind: "delivered", latenessMs: 600_000 }, c),
    "Delivered · 10 min late",
  );
  equal(
    historyLine({ seq: 1, at: entries[0]!.at, kind: "deleted" }, { ...c, lang: "zh" }),
    "已删除",
  );
});

Deno.test("a history line of a late delivery names its cause in the viewer's zone", () => {
  const c = { lang: "en" as const, timeZone: "UTC" };
  const entry = {
    seq: 4,
    at: "2030-01-01T07:40:00.000Z",
    kind: "delivered" as const,
    occurrenceAt: "2030-01-01T02:30:00.000Z",
    latenessMs: 18_600_000,
    cause: {
      kind: "closed" as const,
      from: "2030-01-01T02:10:00.000Z",
      until: "2030-01-01T07:40:00.000Z",
      ms: 19_800_000,
    },
  };
  match(historyLine(entry, c), / · 5 h late · the session was closed from 02:10 to 07:40$/);
  match(historyLine(entry, { ...c, lang: "zh" }), /会话在 02:10 到 07:40 之间处于关闭状态$/);
});
