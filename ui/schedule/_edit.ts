/**
 * The edit control of a reminder card or panel row (docs/recurring.md "Host and page"): a
 * disclosure with a small form for the text, the date and time (in the reminder's zone, shown)
 * and the repeat rule (a choice of common rules, or an RFC 5545 RRULE typed in), which posts
 * only what changed to `POST …/reminders/:id/update`, the same transaction as `schedule_update`.
 * A common rule is written with the form's time (`FREQ=DAILY;BYHOUR=10;BYMINUTE=0`), so moving
 * a daily reminder to 10:00 moves its rule too.
 *
 * @module
 */
import type { VNode } from "preact";
import { el } from "../_el.ts";
import { icon } from "../icons.ts";
import type { RenderContext } from "../registry.ts";
import { localParts } from "./_local_time.ts";
import { SERIES_TEXT } from "./_series_strings.ts";
import type { ScheduleServices } from "./_services.ts";
import type { ActiveReminderWire, ReminderUpdateBody } from "../wire.ts";

/** The common rules the form offers, and `custom` (the RRULE field). */
export const RULE_PRESETS = [
  "none",
  "daily",
  "weekdays",
  "weekly",
  "monthly",
  "yearly",
  "custom",
] as const;

/** One of {@linkcode RULE_PRESETS}. */
export type RulePreset = typeof RULE_PRESETS[number];

/** What the form edits. */
export interface EditTarget {
  /** The reminder. */
  readonly id: string;
  /** Its text. */
  readonly prompt: string;
  /** Its next target, UTC. */
  readonly scheduledAt: string;
  /** The zone its times are in (the rule's, else the session's). */
  readonly timeZone: string;
  /** A series' rule. */
  readonly rrule?: string;
  /** The next occurrence's wall-clock time in the zone (`YYYY-MM-DDTHH:MM`), when previewed. */
  readonly local?: string;
}

/**
 * What the Edit form of a listed reminder edits: its text, next time and rule, in the rule's
 * zone (a one-time reminder: the viewer's, which is the session's).
 *
 * @param row the host's listed row
 * @param ctx the viewer's zone
 * @returns the target
 */
export function editTargetOf(row: ActiveReminderWire, ctx: RenderContext): EditTarget {
  const local = row.preview?.[0]?.local;
  return {
    id: row.id,
    prompt: row.prompt,
    scheduledAt: row.scheduledAt,
    timeZone: row.repeat?.timeZone ?? ctx.timeZone,
    ...(row.repeat ? { rrule: row.repeat.rrule } : {}),
    ...(local ? { local } : {}),
  };
}

/** The form's values. */
export interface EditFields {
  /** The text. */
  readonly prompt: string;
  /** `YYYY-MM-DD`. */
  readonly date: string;
  /** `HH:MM`. */
  readonly time: string;
  /** The chosen rule. */
  readonly repeat: RulePreset;
  /** The RRULE field. */
  readonly rrule: string;
}

const WEEKDAYS = "MO,TU,WE,TH,FR";
const DAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];

function parts(rrule: string): Map<string, string> {
  return new Map(
    rrule.split(";").filter(Boolean).map((p) => {
      const i = p.indexOf("=");
      return [p.slice(0, i).toUpperCase(), p.slice(i + 1).toUpperCase()] as [string, string];
    }),
  );
}

/**
 * The common rule a series' RRULE is (same frequency, at most one day, month and time of day),
 * or `custom`; `none` without a rule.
 *
 * @param rrule the rule
 * @returns its preset
 */
export function presetOf(rrule: string | undefined): RulePreset {
  if (!rrule) return "none";
  const p = parts(rrule);
  const single = (k: string) => !p.has(k) || /^\d+$/.test(p.get(k)!);
  const only = (...keys: string[]) =>
    [...p.keys()].every((k) => ["FREQ", "BYHOUR", "BYMINUTE", ...keys].includes(k)) &&
    single("BYHOUR") && single("BYMINUTE");
  const byday = p.get("BYDAY");
  switch (p.get("FREQ")) {
    case "DAILY":
      return only() ? "daily" : "custom";
    case "WEEKLY":
      if (!only("BYDAY")) return "custom";
      if (byday && byday.split(",").sort().join() === WEEKDAYS.split(",").sort().join()) {
        return "weekdays";
      }
      return !byday || DAYS.includes(byday) ? "weekly" : "custom";
    case "MONTHLY":
      return only("BYMONTHDAY") && single("BYMONTHDAY") ? "monthly" : "custom";
    case "YEARLY":
      return only("BYMONTH", "BYMONTHDAY") && single("BYMONTH") && single("BYMONTHDAY")
        ? "yearly"
        : "custom";
  }
  return "custom";
}

/**
 * A common rule at a local date and time.
 *
 * @param preset the rule (`none` and `custom` have none)
 * @param date `YYYY-MM-DD` (the weekday, day of month and month come from it)
 * @param time `HH:MM`
 * @returns the RRULE, or `undefined`
 */
export function composeRule(preset: RulePreset, date: string, time: string): string | undefined {
  const [y, mo, d] = date.split("-").map(Number);
  const [h, mi] = time.split(":").map(Number);
  const at = `BYHOUR=${h};BYMINUTE=${mi}`;
  switch (preset) {
    case "daily":
      return `FREQ=DAILY;${at}`;
    case "weekdays":
      return `FREQ=WEEKLY;BYDAY=${WEEKDAYS};${at}`;
    case "weekly":
      return `FREQ=WEEKLY;BYDAY=${DAYS[new Date(Date.UTC(y!, mo! - 1, d!)).getUTCDay()]};${at}`;
    case "monthly":
      return `FREQ=MONTHLY;BYMONTHDAY=${d};${at}`;
    case "yearly":
      return `FREQ=YEARLY;BYMONTH=${mo};BYMONTHDAY=${d};${at}`;
  }
  return undefined;
}

/** Two rules are the same when they have the same parts in any order. */
function sameRule(a: string, b: string): boolean {
  const pa = parts(a), pb = parts(b);
  return pa.size === pb.size && [...pa].every(([k, v]) => pb.get(k) === v);
}

/** The form's defaults: the target's text, date, time and rule. */
export function editDefaults(target: EditTarget): EditFields {
  const [date, time] = target.local?.split("T") ??
    Object.values(localParts(target.scheduledAt, target.timeZone));
  return {
    prompt: target.prompt,
    date: date!,
    time: time!,
    repeat: presetOf(target.rrule),
    rrule: target.rrule ?? "",
  };
}

/**
 * The update body of a submitted form: only what changed (`undefined` when nothing did). A
 * custom rule left as it was follows a new time (its `BYHOUR` and `BYMINUTE`).
 *
 * @param target what was edited
 * @param fields the submitted values
 * @returns the body, or `undefined`
 */
export function editBody(target: EditTarget, fields: EditFields): ReminderUpdateBody | undefined {
  const was = editDefaults(target);
  const prompt = fields.prompt.trim();
  const moved = fields.date !== was.date || fields.time !== was.time;
  let rule: string | undefined;
  if (fields.repeat === "custom") {
    rule = fields.rrule.trim().replace(/^RRULE:/i, "");
    if (rule === was.rrule && moved) {
      const [h, m] = fields.time.split(":").map(Number);
      rule = rule.replace(/BYHOUR=\d+/i, `BYHOUR=${h}`).replace(/BYMINUTE=\d+/i, `BYMINUTE=${m}`);
    }
  } else rule = composeRule(fields.repeat, fields.date, fields.time);
  const body: { -readonly [K in keyof ReminderUpdateBody]: ReminderUpdateBody[K] } = {};
  if (prompt && prompt !== target.prompt) body.prompt = prompt;
  // A series moves through its rule (the update route takes `at` or `repeat`, never both).
  if (moved && !rule) body.at = { date: fields.date, time: fields.time };
  if (rule && !(target.rrule && sameRule(rule, target.rrule))) body.repeat = { rrule: rule };
  return Object.keys(body).length ? body : undefined;
}

/** The value of a named control of a form. */
function valueOf(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? "";
}

/**
 * The submit handler of an edit form: posts the changes, closes the disclosure once accepted.
 *
 * @param target what is edited
 * @param key the card or row that shows the outcome
 * @param s the page's services
 * @returns the handler
 */
export function submitEdit(
  target: EditTarget,
  key: string,
  s: ScheduleServices,
): (e: Event) => void {
  return (e) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const details = form.closest?.("details");
    const body = editBody(target, {
      prompt: valueOf(form, "prompt"),
      date: valueOf(form, "date"),
      time: valueOf(form, "time"),
      repeat: (valueOf(form, "repeat") || "none") as RulePreset,
      rrule: valueOf(form, "rrule"),
    });
    if (body === undefined || !s.update) {
      if (details) details.open = false;
      return;
    }
    void s.update(target.id, body, key).then((ok) => {
      if (ok && details) details.open = false;
    });
  };
}

/**
 * The `keydown` of an Edit or Pick a time disclosure: Escape closes it (only it, not the phone
 * sheet around it) and gives the focus back to its summary.
 *
 * @param e the key event
 */
export function closeOnEscape(e: Event): void {
  const d = e.currentTarget as HTMLDetailsElement;
  if ((e as KeyboardEvent).key !== "Escape" || !d.open) return;
  e.preventDefault();
  e.stopPropagation();
  d.open = false;
  (d.querySelector?.("summary") as HTMLElement | null)?.focus();
}

/**
 * The primary submit button of a reminder form (disabled while a click is in flight).
 *
 * @param label its text
 * @param testid its `data-testid`
 * @param pending a click is in flight
 * @returns the `<button type="submit">`
 */
export function submitButton(label: string, testid: string, pending: boolean): VNode {
  return el("button", {
    type: "submit",
    class: "primary",
    disabled: pending,
    "data-testid": testid,
  }, label);
}

const field = (label: string, control: VNode) =>
  el("label", { class: "field" }, el("span", null, label), control);

/**
 * The Edit disclosure: its summary is the button, its form the text, date, time (the zone named)
 * and repeat fields. A one-time reminder may become a series; a series keeps repeating (the
 * form offers no "does not repeat" for it).
 *
 * @param target what is edited
 * @param key the card or row that shows the outcome
 * @param ctx the UI language and the page's services
 * @param s the page's services
 * @param pending a click is in flight (Save is disabled)
 * @returns the `details.edit` element (`data-testid="reminder-edit"`), or `null` without update
 */
export function editControl(
  target: EditTarget,
  key: string,
  ctx: RenderContext,
  s: ScheduleServices,
  pending: boolean,
): VNode | null {
  if (!s.update) return null;
  const t = SERIES_TEXT[ctx.lang];
  const v = editDefaults(target);
  const presets = RULE_PRESETS.filter((p) => !(p === "none" && target.rrule));
  return el(
    "details",
    { class: "edit", "data-testid": "reminder-edit", onKeyDown: closeOnEscape },
    el("summary", { class: "chip-button", "data-testid": "edit-open" }, icon("edit"), ` ${t.edit}`),
    el(
      "form",
      {
        key: `${target.prompt}|${target.scheduledAt}|${target.rrule ?? ""}`,
        class: "reminder-form",
        "data-testid": "reminder-edit-form",
        "aria-label": t.editTitle,
        onSubmit: submitEdit(target, key, s),
      },
      field(
        t.text,
        el("input", { name: "prompt", type: "text", required: true, defaultValue: v.prompt }),
      ),
      el(
        "div",
        { class: "field-row" },
        field(
          t.date,
          el("input", { name: "date", type: "date", required: true, defaultValue: v.date }),
        ),
        field(
          t.time,
          el("input", { name: "time", type: "time", required: true, defaultValue: v.time }),
        ),
      ),
      el("p", { class: "zone small", "data-testid": "edit-zone" }, t.zone(target.timeZone)),
      field(
        t.repeat,
        el(
          "select",
          { name: "repeat" },
          ...presets.map((p) => el("option", { value: p, selected: p === v.repeat }, t.rules[p])),
        ),
      ),
      field(
        t.rrule,
        el("input", {
          name: "rrule",
          type: "text",
          defaultValue: v.rrule,
          spellcheck: false,
          autocapitalize: "characters",
          placeholder: "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
        }),
      ),
      el(
        "div",
        { class: "buttons" },
        submitButton(t.save, "edit-save", pending),
        el("button", {
          type: "button",
          class: "ghost",
          onClick: (e: Event) => {
            const d = (e.currentTarget as HTMLElement).closest?.("details");
            if (d) d.open = false;
          },
        }, t.cancel),
      ),
    ),
  );
}
