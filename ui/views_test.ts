import { deepStrictEqual as eq, equal, ok } from "node:assert/strict";
import { registerConversationViews } from "./conversation.ts";
import { detectLang } from "./i18n.ts";
import { EventViewRegistry, type RenderContext } from "./registry.ts";
import {
  formatOccurrence,
  registerScheduleView,
  reminderPresentation,
  SESSION_LOCAL_LABEL,
} from "./schedule/view.ts";
import { byTestId, vnodeText } from "./testing/vnode_text.ts";
import { presentEvent, TranscriptAdapter } from "./transcript.ts";
import { uiAsset } from "./assets.ts";
import type { EventView, WireEvent } from "./wire.ts";

const at = "2030-01-01T00:00:00.000Z";
const e = (seq: number, type: string, data: unknown): WireEvent => ({ seq, type, at, data });
const en: RenderContext = { lang: "en", timeZone: "Asia/Shanghai" };
const zh: RenderContext = { lang: "zh", timeZone: "Asia/Shanghai" };
const record = {
  id: "sch_1",
  kind: "at",
  prompt: "<i>call mom</i>",
  scheduledAt: "2030-01-01T01:00:00.000Z",
};
const view: EventView = {
  type: "schedule/change",
  presentation: { scheduleId: "sch_1", prompt: record.prompt, occurrenceAt: record.scheduledAt },
};

function registry(): EventViewRegistry {
  const r = new EventViewRegistry();
  registerConversationViews(r);
  registerScheduleView(r);
  return r;
}

Deno.test("TranscriptAdapter keys nodes by durable type and seq and reuses unchanged nodes", () => {
  const adapter = new TranscriptAdapter();
  const events = [
    e(0, "user-rpc", { text: "hi" }),
    e(1, "schedule/change", { op: "dispatch", id: "x" }),
  ];
  const first = adapter.present(events, new Map());
  eq(first.map((n) => n.key), ["user-rpc#0", "schedule/change#1"]);
  const second = adapter.present(events, new Map([[1, view]]));
  equal(second[0], first[0]);
  ok(second[1] !== first[1]);
  eq(second[1]?.view, view);
});

Deno.test("the registry falls back to expandable JSON for unknown types and throwing renderers", () => {
  const r = registry();
  equal(r.slot, "conversation.chat.eventview");
  const unknown = r.render(presentEvent(e(3, "mystery/type", { a: 1 })), en);
  ok(byTestId(unknown, "event-json"));
  ok(vnodeText(unknown).includes('"a": 1'));
  const off = r.register("boom", () => {
    throw new Error("x");
  });
  ok(byTestId(r.render(presentEvent(e(4, "boom", {})), en), "event-json"));
  off();
  equal(r.has("boom"), false);
});

Deno.test("a dispatch with a view renders the reminder card with the prompt as text", () => {
  const r = registry();
  const card = r.render(
    presentEvent(e(5, "schedule/change", { version: 1, op: "dispatch", id: "sch_1" }), view),
    en,
  );
  ok(byTestId(card, "reminder-card"));
  equal(vnodeText(byTestId(card, "reminder-prompt")?.children), "<i>call mom</i>");
  const text = vnodeText(card);
  ok(text.includes(SESSION_LOCAL_LABEL.en));
  ok(text.includes("2030-01-01 01:00 UTC"));
  ok(text.includes("Asia/Shanghai"));
  ok(
    vnodeText(
      r.render(presentEvent(e(5, "schedule/change", { op: "dispatch", id: "sch_1" }), view), zh),
    )
      .includes(SESSION_LOCAL_LABEL.zh),
  );
});

Deno.test("schedule rows: create and delete are compact; a dispatch without a view is no card", () => {
  const r = registry();
  const pending = r.render(
    presentEvent(e(6, "schedule/change", { op: "dispatch", id: "sch_1" })),
    en,
  );
  equal(byTestId(pending, "reminder-card"), undefined);
  ok(byTestId(pending, "schedule-dispatch-pending"));
  ok(
    byTestId(
      r.render(presentEvent(e(7, "schedule/change", { op: "create", record })), en),
      "schedule-create",
    ),
  );
  ok(
    byTestId(
      r.render(presentEvent(e(8, "schedule/change", { op: "delete", id: "sch_1" })), zh),
      "schedule-delete",
    ),
  );
  ok(byTestId(r.render(presentEvent(e(9, "schedule/change", { op: "weird" })), en), "event-json"));
  equal(reminderPresentation({ type: "other", presentation: {} }), undefined);
});

Deno.test("conversation renderers: messages, compact tools, turn errors, hidden bookkeeping", () => {
  const r = registry();
  ok(
    byTestId(
      r.render(presentEvent(e(0, "user-rpc", { text: "hi", source: { kind: "web" } })), en),
      "message-user",
    ),
  );
  ok(
    byTestId(
      r.render(presentEvent(e(1, "assistant/message", { text: "yo" })), en),
      "message-assistant",
    ),
  );
  equal(r.render(presentEvent(e(1, "assistant/message", { text: "", toolCalls: [] })), en), null);
  equal(
    r.render(presentEvent(e(2, "tool/call", { name: "schedule_list", args: {} })), en),
    null,
    "one line per tool action: the call is shown by its result",
  );
  ok(
    byTestId(
      r.render(presentEvent(e(3, "tool/result", { result: { ok: false } })), en),
      "tool-result",
    ),
  );
  const err = r.render(presentEvent(e(4, "turn/end", { outcome: "error", error: "503" })), zh);
  ok(byTestId(err, "turn-error"));
  ok(vnodeText(err).includes("503"));
  equal(r.render(presentEvent(e(5, "turn/end", { outcome: "completed" })), en), null);
  ok(
    vnodeText(r.render(presentEvent(e(5, "turn/end", { outcome: "cancelled" })), en)).includes(
      "cancelled",
    ),
  );
  for (const t of ["turn/start", "step/start", "time-context/marker"]) {
    equal(r.render(presentEvent(e(6, t, {})), en), null);
  }
  ok(byTestId(r.render(presentEvent(e(7, "followup", { frame: "f" })), en), "followup"));
  ok(
    vnodeText(r.render(presentEvent(e(8, "session/end-seed", { seedLength: 9 })), en)).includes(
      "Forked",
    ),
  );
});

Deno.test("formatOccurrence() renders the viewer zone and UTC, falling back to UTC", () => {
  const f = formatOccurrence("2030-01-01T08:20:00.000Z", { lang: "en", timeZone: "Not/AZone" });
  equal(f.zone, "UTC");
  equal(f.utc, "2030-01-01 08:20 UTC");
  equal(formatOccurrence("nonsense", en).local, "nonsense");
  // Off the whole minute ("in 1 minute" at 03:12:58): the seconds show, in both renderings.
  const odd = formatOccurrence("2030-01-01T03:13:58.000Z", { lang: "en", timeZone: "UTC" });
  equal(odd.utc, "2030-01-01 03:13:58 UTC");
  equal(odd.local.includes("3:13:58"), true, odd.local);
  const zh = formatOccurrence("2030-01-01T03:13:58.000Z", {
    lang: "zh",
    timeZone: "Asia/Shanghai",
  });
  equal(zh.local.includes("11:13:58"), true, zh.local);
  equal(formatOccurrence("2030-01-01T03:13:00.000Z", en).local.includes(":00"), false);
  equal(detectLang("zh-Hans-CN"), "zh");
  equal(detectLang(undefined), "en");
});

Deno.test("the embedded assets serve the page, the bundle and the stylesheet", () => {
  ok(uiAsset("/")?.body.includes('<script type="module" src="/app.js">'));
  // The icon is inline, so the browser's icon request never 404s.
  ok(/<link rel="icon"\s+href="data:image\/svg\+xml,/.test(uiAsset("/")?.body ?? ""));
  equal(uiAsset("/app.js")?.contentType, "text/javascript; charset=utf-8");
  ok(uiAsset("/style.css")?.body.includes(".reminder-card"));
  equal(uiAsset("/nope"), undefined);
  equal(uiAsset("/toString"), undefined);
});
