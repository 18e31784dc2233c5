import { deepEqual, equal, match } from "node:assert/strict";
import {
  closeOnEscape,
  composeRule,
  editBody,
  type EditFields,
  type EditTarget,
  presetOf,
  reminderActions,
} from "./view.ts";
import { byTestId, vnodeText } from "../testing/vnode_text.ts";
import { ctxWith, fakeServices, SERIES } from "./_fixtures_test.ts";

const daily: EditTarget = {
  id: "sch_1",
  prompt: "stretch",
  scheduledAt: "2030-01-02T01:00:00.000Z",
  timeZone: "Asia/Shanghai",
  rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
  local: "2030-01-02T09:00",
};
const fields: EditFields = {
  prompt: "stretch",
  date: "2030-01-02",
  time: "09:00",
  repeat: "daily",
  rrule: "",
};

Deno.test("presetOf() reads the common rules and calls anything else custom", () => {
  equal(presetOf(undefined), "none");
  equal(presetOf("FREQ=DAILY;BYHOUR=9;BYMINUTE=0"), "daily");
  equal(presetOf("FREQ=WEEKLY;BYDAY=FR,MO,TU,WE,TH;BYHOUR=9;BYMINUTE=0"), "weekdays");
  equal(presetOf("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0"), "weekly");
  equal(presetOf("FREQ=MONTHLY;BYMONTHDAY=3;BYHOUR=9;BYMINUTE=0"), "monthly");
  equal(presetOf("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=9;BYMINUTE=0"), "yearly");
  equal(presetOf("FREQ=DAILY;INTERVAL=2;BYHOUR=9"), "custom");
  equal(presetOf("FREQ=DAILY;BYHOUR=9;BYMINUTE=0,30"), "custom");
  equal(presetOf("FREQ=WEEKLY;BYDAY=MO,WE"), "custom");
  equal(presetOf("FREQ=MONTHLY;BYDAY=-1FR"), "custom");
  equal(presetOf("FREQ=HOURLY"), "custom");
});

Deno.test("composeRule() writes the form's time and date into a common rule", () => {
  equal(composeRule("daily", "2030-01-02", "10:00"), "FREQ=DAILY;BYHOUR=10;BYMINUTE=0");
  equal(
    composeRule("weekdays", "2030-01-02", "07:30"),
    "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=7;BYMINUTE=30",
  );
  equal(composeRule("weekly", "2030-01-02", "09:05"), "FREQ=WEEKLY;BYDAY=WE;BYHOUR=9;BYMINUTE=5");
  equal(
    composeRule("monthly", "2030-01-31", "09:00"),
    "FREQ=MONTHLY;BYMONTHDAY=31;BYHOUR=9;BYMINUTE=0",
  );
  equal(
    composeRule("yearly", "2030-03-03", "09:00"),
    "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=9;BYMINUTE=0",
  );
  equal(composeRule("none", "2030-03-03", "09:00"), undefined);
  equal(composeRule("custom", "2030-03-03", "09:00"), undefined);
});

Deno.test("editBody() sends only what changed; a new time moves a common rule's time too", () => {
  equal(editBody(daily, fields), undefined, "nothing changed");
  // A series moves through its rule: the route takes `at` or `repeat`, never both.
  deepEqual(editBody(daily, { ...fields, time: "10:00" }), {
    repeat: { rrule: "FREQ=DAILY;BYHOUR=10;BYMINUTE=0" },
  });
  deepEqual(editBody(daily, { ...fields, prompt: "  drink water " }), { prompt: "drink water" });
  deepEqual(editBody(daily, { ...fields, prompt: "  " }), undefined, "an empty text is not sent");
  deepEqual(editBody(daily, { ...fields, repeat: "weekdays" }), {
    repeat: { rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0" },
  });
  // A custom rule left as it was follows the new time; one typed in is sent as typed.
  const custom = { ...daily, rrule: "FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0" };
  deepEqual(
    editBody(custom, { ...fields, repeat: "custom", rrule: custom.rrule, time: "10:15" }),
    {
      repeat: { rrule: "FREQ=DAILY;INTERVAL=2;BYHOUR=10;BYMINUTE=15" },
    },
  );
  deepEqual(
    editBody(custom, { ...fields, repeat: "custom", rrule: "RRULE:FREQ=MONTHLY;BYDAY=-1FR" }),
    {
      repeat: { rrule: "FREQ=MONTHLY;BYDAY=-1FR" },
    },
  );
  // A one-time reminder: its time in the session's zone; it may become a series.
  const once: EditTarget = {
    id: "sch_2",
    prompt: "call mum",
    scheduledAt: "2030-01-02T10:00:00.000Z",
    timeZone: "Asia/Shanghai",
  };
  const onceFields = { ...fields, prompt: "call mum", time: "18:00", repeat: "none" as const };
  equal(editBody(once, onceFields), undefined);
  deepEqual(editBody(once, { ...onceFields, repeat: "daily" }), {
    repeat: { rrule: "FREQ=DAILY;BYHOUR=18;BYMINUTE=0" },
  });
});

const services = (accept: boolean) => fakeServices([SERIES], {}, accept);
const ctx = ctxWith;
/** A submit event of a form with these values inside an open `<details>`. */
function submit(values: Readonly<Record<string, string>> | EditFields) {
  const v = values as Readonly<Record<string, string>>;
  const details = { open: true };
  const form = {
    elements: { namedItem: (n: string) => (n in v ? { value: v[n] } : null) },
    closest: () => details,
  };
  let prevented = false;
  return {
    details,
    event: {
      preventDefault: () => void (prevented = true),
      currentTarget: form,
    } as unknown as Event,
    prevented: () => prevented,
  };
}

Deno.test("the Edit form is labelled, names the zone and posts the changes; closes once accepted", async () => {
  const { s, calls } = services(true);
  const row = reminderActions(
    "sch_1",
    "row:sch_1",
    { snooze: false, stop: true, edit: daily },
    ctx(s),
  );
  const form = byTestId(row, "reminder-edit-form")!;
  equal(form["aria-label"], "Edit reminder");
  const text = vnodeText(form.children);
  for (const label of ["Text", "Date", "Time", "Repeat", "Time zone: Asia/Shanghai", "RRULE"]) {
    match(text, new RegExp(label.replace(/[()]/g, "\\$&")));
  }
  match(text, /Every day/);
  equal(/Does not repeat/.test(text), false, "a series keeps repeating");
  const sent = submit({ ...fields, time: "10:00" });
  (form.onSubmit as (e: Event) => void)(sent.event);
  equal(sent.prevented(), true);
  const body = { repeat: { rrule: "FREQ=DAILY;BYHOUR=10;BYMINUTE=0" } };
  deepEqual(calls, [`update sch_1 ${JSON.stringify(body)} row:sch_1`]);
  await Promise.resolve();
  await Promise.resolve();
  equal(sent.details.open, false);
  // A refused edit leaves the form open (the outcome line says why).
  const refused = services(false);
  const f2 = byTestId(
    reminderActions(
      "sch_1",
      "row:sch_1",
      { snooze: false, stop: true, edit: daily },
      ctx(refused.s),
    ),
    "reminder-edit-form",
  )!;
  const again = submit({ ...fields, prompt: "move" });
  (f2.onSubmit as (e: Event) => void)(again.event);
  await Promise.resolve();
  await Promise.resolve();
  equal(again.details.open, true);
  // Unchanged: nothing posted, the form closes.
  const same = submit(fields);
  (f2.onSubmit as (e: Event) => void)(same.event);
  equal(refused.calls.length, 1);
  equal(same.details.open, false);
});

Deno.test("the Edit form in Chinese", () => {
  const { s } = services(true);
  const row = reminderActions(
    "sch_1",
    "row:sch_1",
    { snooze: false, stop: true, edit: daily },
    ctx(s, "zh"),
  );
  const text = vnodeText(byTestId(row, "reminder-edit")?.children);
  for (
    const label of [
      "编辑",
      "内容",
      "日期",
      "时间",
      "重复",
      "时区：Asia/Shanghai",
      "每天",
      "保存",
      "取消",
    ]
  ) {
    match(text, new RegExp(label));
  }
  // Without an update service there is no Edit.
  const { update: _, ...bare } = s;
  equal(
    byTestId(
      reminderActions("sch_1", "k", { snooze: false, stop: true, edit: daily }, ctx(bare)),
      "reminder-edit",
    ),
    undefined,
  );
});

Deno.test("Escape closes an open disclosure, only it, and focuses its summary", () => {
  let focused = false;
  let stopped = false;
  const d = { open: true, querySelector: () => ({ focus: () => void (focused = true) }) };
  const key = (k: string) =>
    ({
      key: k,
      currentTarget: d,
      preventDefault: () => {},
      stopPropagation: () => void (stopped = true),
    }) as unknown as Event;
  closeOnEscape(key("Enter"));
  equal(d.open, true);
  closeOnEscape(key("Escape"));
  deepEqual([d.open, focused, stopped], [false, true, true]);
  stopped = false;
  closeOnEscape(key("Escape"));
  equal(stopped, false, "a closed one lets Escape close the sheet");
});
