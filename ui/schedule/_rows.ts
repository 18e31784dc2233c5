/**
 * The one-line rows of the non-dispatch `schedule/change` operations (create, update, delete,
 * stop, skip): a summary line with the record behind `<details>`.
 *
 * @module
 */
import type { VNode } from "preact";
import { el } from "../_el.ts";
import { TEXT, when } from "./_strings.ts";
import { icon, type IconName } from "../icons.ts";
import type { RenderContext } from "../registry.ts";
import { repeatLine } from "./text.ts";
import type { ScheduleRecordWire } from "../wire.ts";

/**
 * One change as a `<details>` row: an icon and a line, the raw body in a `<pre>`.
 *
 * @param kind the operation (`create`, `update`, `delete`, `stop`, `skip`), also the test id
 * @param glyph the icon
 * @param line the summary's parts
 * @param body what the `<pre>` shows as JSON
 * @returns the `details.schedule-row` element
 */
export function row(
  kind: string,
  glyph: IconName,
  line: (VNode | string | null)[],
  body: unknown,
): VNode {
  return el(
    "details",
    { class: `schedule-row ${kind}`, "data-testid": `schedule-${kind}` },
    el("summary", null, icon(glyph), " ", ...line),
    el("pre", null, JSON.stringify(body, null, 2)),
  );
}

/**
 * `: “prompt”` when the prompt is known.
 *
 * @param prompt the reminder's prompt, a text child (never HTML)
 * @returns the parts, empty when unknown
 */
export function quoted(prompt: string | undefined): (VNode | string)[] {
  return prompt === undefined ? [] : [": ", el("q", null, prompt)];
}

/**
 * When a record fires: "repeats … · first <when>" for a recurring one, else "<when>" (after
 * "until" for a snooze).
 *
 * @param record the created or updated record
 * @param ctx language and viewer zone
 * @returns the line's parts
 */
export function recordLine(record: ScheduleRecordWire, ctx: RenderContext): (VNode | string)[] {
  const t = TEXT[ctx.lang];
  if (record.kind === "recurring" && record.rrule && record.timeZone) {
    const repeat = { rrule: record.rrule, timeZone: record.timeZone, dtstart: record.dtstart };
    return [
      " · ",
      repeatLine(repeat, undefined, ctx),
      ` · ${t.first} `,
      when(record.scheduledAt, ctx),
    ];
  }
  return [record.snoozeOf ? ` ${t.until} ` : " ", when(record.scheduledAt, ctx)];
}
