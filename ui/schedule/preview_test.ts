import { deepEqual, equal, match } from "node:assert/strict";
import type { RenderContext } from "../registry.ts";
import { previewLines, previewList } from "./view.ts";
import { byTestId, vnodeText } from "../testing/vnode_text.ts";
import type { PreviewOccurrenceWire } from "../wire.ts";
import { type OccurrencePreview, previewOccurrences } from "@chime/schedule/recurrence";

const en: RenderContext = { lang: "en", timeZone: "Asia/Shanghai" };
const zh: RenderContext = { lang: "zh", timeZone: "Asia/Shanghai" };

// New York, spring 2027: 02:30 does not exist on Mar 14 (moved to 03:30); autumn: 01:30 twice.
const ny: PreviewOccurrenceWire[] = [
  { at: "2027-03-13T07:30:00Z", local: "2027-03-13T02:30", offset: "-05:00" },
  { at: "2027-03-14T07:30:00Z", local: "2027-03-14T03:30", offset: "-04:00", dst: "gap" },
  {
    at: "2027-11-07T05:30:00Z",
    local: "2027-11-07T01:30",
    offset: "-04:00",
    dst: "overlap",
    excluded: ["2027-11-06T05:30:00Z"],
  },
];

Deno.test("the preview notes a DST gap with the missing time, an overlap and a skipped date (en)", () => {
  const lines = previewLines(ny, "America/New_York", "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", en);
  deepEqual(lines.map((l) => [l.state, l.label, l.notes]), [
    ["next", "Sat, Mar 13 02:30", []],
    ["next", "Sun, Mar 14 03:30", ["moved to 03:30, 02:30 does not exist that day"]],
    ["skipped", "Sat, Nov 6 01:30", ["skipped"]],
    ["next", "Sun, Nov 7 01:30", ["the earlier 01:30"]],
  ]);
});

Deno.test("the preview says the same in Chinese", () => {
  const lines = previewLines(ny, "America/New_York", "FREQ=DAILY;BYHOUR=2;BYMINUTE=30", zh);
  deepEqual(lines.map((l) => l.notes), [
    [],
    ["改到 03:30：当天没有 02:30"],
    ["已跳过"],
    ["两次 01:30 中较早的一次"],
  ]);
  match(lines[0]!.label, /3月13日.*02:30$/);
});

Deno.test("skipped periods are named in the rule's frequency, in both languages", () => {
  const monthly: PreviewOccurrenceWire[] = [
    { at: "2027-01-31T01:00:00Z", local: "2027-01-31T09:00", offset: "+08:00" },
    { at: "2027-03-31T01:00:00Z", local: "2027-03-31T09:00", offset: "+08:00", skippedPeriods: 1 },
    { at: "2027-05-31T01:00:00Z", local: "2027-05-31T09:00", offset: "+08:00", skippedPeriods: 2 },
  ];
  const rule = "FREQ=MONTHLY;BYMONTHDAY=31;BYHOUR=9;BYMINUTE=0";
  deepEqual(previewLines(monthly, "Asia/Shanghai", rule, en).map((l) => l.notes), [
    [],
    ["no occurrence in 1 month"],
    ["no occurrence in 2 months"],
  ]);
  deepEqual(previewLines(monthly, "Asia/Shanghai", rule, zh).map((l) => l.notes), [
    [],
    ["1 个月内没有符合的日期"],
    ["2 个月内没有符合的日期"],
  ]);
  const yearly = [{ ...monthly[1]!, skippedPeriods: 3 }];
  deepEqual(previewLines(yearly, "Asia/Shanghai", "FREQ=YEARLY", en)[0]!.notes, [
    "no occurrence in 3 years",
  ]);
});

Deno.test("previewList names the zone once and marks skipped items; nothing without a preview", () => {
  const list = previewList(ny, "America/New_York", undefined, en);
  match(vnodeText(list), /^Next occurrences \(America\/New_York\)/);
  equal(byTestId(list, "preview-item")?.["data-state"], "next");
  match(
    vnodeText(previewList(ny, "America/New_York", undefined, zh)),
    /^接下来的提醒（America\/New_York）/,
  );
  equal(previewList(undefined, "UTC", undefined, en), null);
  equal(previewList([], "UTC", undefined, en), null);
});

Deno.test("the server's own previewOccurrences() reads as the page says (New York DST, a skip)", () => {
  const series = {
    rrule: "FREQ=DAILY;BYHOUR=2;BYMINUTE=30",
    dtstart: "2027-03-12T02:30:00",
    timeZone: "America/New_York",
    exdates: ["2027-03-15T06:30:00.000Z"],
  };
  // The host's shape is the wire's (a type check): the page reads what the server makes.
  const preview: readonly PreviewOccurrenceWire[] = previewOccurrences(
    series,
    Date.parse("2027-03-13T12:00:00Z"),
    3,
  ) satisfies readonly OccurrencePreview[];
  const lines = previewLines(preview, series.timeZone, series.rrule, en);
  deepEqual(lines.map((l) => [l.state, l.label, l.notes]), [
    ["next", "Sun, Mar 14 03:30", ["moved to 03:30, 02:30 does not exist that day"]],
    ["skipped", "Mon, Mar 15 02:30", ["skipped"]],
    ["next", "Tue, Mar 16 02:30", []],
    ["next", "Wed, Mar 17 02:30", []],
  ]);
});

Deno.test("a preview spanning years names each year (a yearly birthday), in both languages", () => {
  const birthday: PreviewOccurrenceWire[] = [
    { at: "2027-03-03T01:00:00Z", local: "2027-03-03T09:00", offset: "+08:00" },
    { at: "2028-03-03T01:00:00Z", local: "2028-03-03T09:00", offset: "+08:00" },
  ];
  const labels = (ctx: RenderContext) =>
    previewLines(birthday, "Asia/Shanghai", "FREQ=YEARLY", ctx).map((l) => l.label);
  deepEqual(labels(en), ["Wed, Mar 3, 2027 09:00", "Fri, Mar 3, 2028 09:00"]);
  deepEqual(labels(zh), ["2027年3月3日周三 09:00", "2028年3月3日周五 09:00"]);
});
