/**
 * Pause, resume and skip by words (README "Configuration"), English and Chinese: "pause my standup
 * reminder" / "暂停站会提醒", "resume my standup reminder" / "恢复站会提醒", "skip next Monday's
 * standup" / "跳过下周一的站会", "skip it" / "跳过这一次". The reminder is found as a move finds
 * it (a `schedule_list` first, then its single match); the tests assert the tool calls the model
 * makes (`schedule_pause { id }`, `schedule_resume { id }`, `schedule_skip { id, occurrence_at? }`)
 * and the words it answers with. The tools' values are written here; series_edit_test.ts says
 * pause, resume and skip to the real schedule tools.
 *
 * The fixtures' clock: Sunday 2026-11-29 09:15 in Berlin (08:15Z).
 */
import assert from "node:assert/strict";
import { called, calls, complete, frame, result, TOOLS_V2, user } from "./_fixtures_test.ts";
import type { ModelMessage, ModelToolSpec } from "@chime/agent";
import { OfflineModel } from "./model.ts";
import { parseIntent } from "./parse.ts";

const TOOLS: readonly ModelToolSpec[] = [
  ...TOOLS_V2,
  ...["schedule_pause", "schedule_resume", "schedule_skip"].map((name) => ({
    name,
    description: name,
    parameters: { type: "object" },
  })),
];

const WEEKDAYS = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0";
const TEXT = { en: "every weekday at 09:00 (Europe/Berlin)", zh: "工作日 09:00（Europe/Berlin）" };
/** The next five weekdays at 09:00 in Berlin (+01:00), as `schedule_list` previews them. */
const PREVIEW = ["11-30", "12-01", "12-02", "12-03", "12-04"].map((d) => ({
  at: `2026-${d}T08:00:00.000Z`,
  local: `2026-${d}T09:00:00`,
  offset: "+01:00",
}));

function standup(prompt: string, extra: Record<string, unknown> = {}) {
  return {
    id: "sch_1",
    kind: "recurring",
    prompt,
    scheduledAt: "2026-11-30T08:00:00.000Z",
    status: "scheduled",
    repeat: {
      rrule: WEEKDAYS,
      timeZone: "Europe/Berlin",
      dtstart: "2026-11-30T09:00:00",
      text: TEXT,
    },
    preview: PREVIEW,
    ...extra,
  };
} // deno-fmt-ignore

const ONE_OFF = {
  id: "sch_2",
  kind: "at",
  prompt: "call the dentist",
  scheduledAt: "2026-11-29T15:00:00.000Z",
  status: "scheduled",
};

const listed = (...schedules: unknown[]) => ({
  ok: true,
  deliveryMode: "session-local",
  schedules,
});

/** The turn after `schedule_list` answered with `schedules`. */
function afterList(text: string, ...schedules: unknown[]): ModelMessage[] {
  return [
    user(text),
    called("call_1", "schedule_list", {}),
    result("call_1", listed(...schedules)),
  ];
}

const LANGS = [
  {
    lang: "English",
    prompt: "join the standup",
    pause: "pause my standup reminder",
    resume: "resume my standup reminder",
    skip: "skip next Monday's standup",
  },
  {
    lang: "Chinese",
    prompt: "参加站会",
    pause: "暂停站会提醒",
    resume: "恢复站会提醒",
    skip: "跳过下周一的站会",
  },
] as const; // deno-fmt-ignore

for (const l of LANGS) {
  Deno.test(`"${l.pause}" lists, then pauses the one series it names (${l.lang})`, async () => {
    const first = await complete([user(l.pause)], { tools: TOOLS });
    assert.deepEqual(calls(first).map((c) => [c.name, c.args]), [["schedule_list", {}]]);
    const second = await complete(afterList(l.pause, standup(l.prompt), ONE_OFF), { tools: TOOLS });
    assert.deepEqual(calls(second).map((c) => [c.name, c.args]), [["schedule_pause", { id: "sch_1" }]]);
    const done = await complete([
      ...afterList(l.pause, standup(l.prompt), ONE_OFF),
      called("call_2", "schedule_pause", { id: "sch_1" }),
      result("call_2", { ok: true, deliveryMode: "session-local", ...standup(l.prompt, { status: "paused" }) }),
    ], { tools: TOOLS });
    assert.deepEqual(done.toolCalls, []);
    assert.match(
      done.text,
      l.lang === "English"
        ? /^Paused “join the standup” — it won't fire until you resume it \(say "resume it"\)\.$/
        : /^已暂停“参加站会”：在你恢复之前不会再提醒（要恢复可以说“恢复这个提醒”）。$/,
    );
  });

  Deno.test(`"${l.resume}" resumes the paused one and says its next time (${l.lang})`, async () => {
    // Two standups; only one is paused: "resume" means that one.
    const other = { ...standup(`${l.prompt} 2`), id: "sch_3" };
    const paused = standup(l.prompt, { status: "paused" });
    const second = await complete(afterList(l.resume, other, paused), { tools: TOOLS });
    assert.deepEqual(calls(second).map((c) => [c.name, c.args]), [["schedule_resume", { id: "sch_1" }]]);
    const done = await complete([
      ...afterList(l.resume, other, paused),
      called("call_2", "schedule_resume", { id: "sch_1" }),
      result("call_2", { ok: true, deliveryMode: "session-local", ...standup(l.prompt) }),
    ], { tools: TOOLS });
    assert.match(
      done.text,
      l.lang === "English"
        ? /^Resumed “join the standup”, repeating every weekday at 09:00 \(Europe\/Berlin\); next: 2026-11-30 09:00 \(Europe\/Berlin\)\. Times missed while it was paused are not sent\.$/
        : /^已恢复“参加站会”，重复：工作日 09:00（Europe\/Berlin），下次：2026-11-30 09:00（Europe\/Berlin）；暂停期间错过的不会补发。$/,
    );
  });

  Deno.test(`"${l.skip}" skips Monday's occurrence, from the listed preview (${l.lang})`, async () => {
    const first = await complete([user(l.skip)], { tools: TOOLS });
    assert.deepEqual(calls(first).map((c) => c.name), ["schedule_list"]);
    const second = await complete(afterList(l.skip, standup(l.prompt)), { tools: TOOLS });
    assert.deepEqual(calls(second).map((c) => [c.name, c.args]), [[
      "schedule_skip",
      { id: "sch_1", occurrence_at: "2026-11-30T08:00:00.000Z" },
    ]]);
    const done = await complete([
      ...afterList(l.skip, standup(l.prompt)),
      called("call_2", "schedule_skip", { id: "sch_1", occurrence_at: "2026-11-30T08:00:00.000Z" }),
      result("call_2", { ok: true, deliveryMode: "session-local", ...standup(l.prompt, { scheduledAt: "2026-12-01T08:00:00.000Z" }) }),
    ], { tools: TOOLS });
    assert.match(
      done.text,
      l.lang === "English"
        ? /^Skipped “join the standup” on 2026-11-30 09:00 \(Europe\/Berlin\) — it still repeats; next: 2026-12-01 09:00 \(Europe\/Berlin\)\.$/
        : /^已跳过“参加站会”在 2026-11-30 09:00（Europe\/Berlin） 的那一次提醒，之后照常重复，下次：2026-12-01 09:00（Europe\/Berlin）。$/,
    );
  });

  Deno.test(`"${l.skip}" without a preview computes Monday's occurrence from the rule (${l.lang})`, async () => {
    const { preview: _, ...bare } = standup(l.prompt);
    const second = await complete(afterList(l.skip, bare), { tools: TOOLS });
    assert.deepEqual(calls(second).map((c) => [c.name, c.args]), [[
      "schedule_skip",
      { id: "sch_1", occurrence_at: "2026-11-30T08:00:00.000Z" },
    ]]);
  });
} // deno-fmt-ignore

for (
  const [lang, text, prompt, words] of [
    ["English", "skip Saturday's standup", "join the standup", /^"join the standup" doesn't fire on Saturday in the coming week \(it repeats every weekday at 09:00 \(Europe\/Berlin\)\), so I haven't skipped anything\.$/],
    ["Chinese", "跳过周六的站会", "参加站会", /^“参加站会”在周六没有要提醒的那一次（重复：工作日 09:00（Europe\/Berlin）），所以我没有跳过任何一次。$/],
  ] as const
) {
  Deno.test(`a skip on a day the series does not fire is answered, nothing skipped (${lang})`, async () => {
    const reply = await complete(afterList(text, standup(prompt)), { tools: TOOLS });
    assert.deepEqual(reply.toolCalls, []);
    assert.match(reply.text, words);
  });
} // deno-fmt-ignore

for (const text of ["skip it", "跳过这一次", "skip this one", "跳过下一次"]) {
  Deno.test(`"${text}" after a delivery skips that series' next occurrence, no list`, async () => {
    const delivered = frame({
      id: "sch_1",
      prompt: "join the standup",
      scheduledAt: "2026-11-27T08:00:00.000Z",
      occurrenceAt: "2026-11-27T08:00:00.000Z",
      missed: 0,
      recurring: { rrule: WEEKDAYS, timeZone: "Europe/Berlin", text: TEXT, nextAt: "2026-11-30T08:00:00.000Z" },
    });
    const reply = await complete([user(delivered), { role: "assistant", content: "Reminder!" }, user(text)], { tools: TOOLS });
    assert.deepEqual(calls(reply).map((c) => [c.name, c.args]), [["schedule_skip", { id: "sch_1" }]]);
  });
} // deno-fmt-ignore

for (
  const [text, words] of [
    ["pause the dentist reminder", /^That reminder doesn't repeat, so there's nothing to pause; say "cancel it"/],
    ["暂停看牙医的提醒", /^这个提醒不是重复提醒，没有可以暂停的重复；/],
    ["skip the dentist reminder", /nothing to skip/],
    ["跳过看牙医的提醒", /没有可以跳过的重复/],
  ] as const
) {
  Deno.test(`"${text}": words that match only a one-off are answered, never sent`, async () => {
    const dentist = { ...ONE_OFF, prompt: text.includes("牙医") ? "看牙医" : "call the dentist" };
    const reply = await complete(afterList(text, standup("join the standup"), dentist), { tools: TOOLS });
    assert.deepEqual(reply.toolCalls, []);
    assert.match(reply.text, words);
  });
} // deno-fmt-ignore

Deno.test("two matching series: the model asks which, in the user's language", async () => {
  const two = [standup("standup A"), { ...standup("standup B"), id: "sch_3" }];
  const en = await complete(afterList("pause my standup reminder", ...two), { tools: TOOLS });
  assert.deepEqual(en.toolCalls, []);
  assert.match(en.text, /^Which reminder should I pause \("standup"\)\? Tell me its id:\n- standup A .*\[sch_1\]\n- standup B .*\[sch_3\]$/);
  const zh = await complete(afterList("暂停standup提醒", ...two), { tools: TOOLS });
  assert.match(zh.text, /^要暂停哪一个提醒（“standup”）？请告诉我 id：/);
}); // deno-fmt-ignore

Deno.test("by id: pause, resume and a bare skip need no list", async () => {
  for (const [text, name] of [["pause sch_7", "schedule_pause"], ["恢复 sch_7", "schedule_resume"], ["skip sch_7", "schedule_skip"]] as const) {
    const reply = await complete([user(text)], { tools: TOOLS });
    assert.deepEqual(calls(reply).map((c) => [c.name, c.args]), [[name, { id: "sch_7" }]], text);
  }
}); // deno-fmt-ignore

for (
  const [text, words] of [
    ["pause my standup reminder", /^Pausing a repeating reminder isn't available with the reminder tools in this configuration, so I haven't changed anything\.$/],
    ["恢复站会提醒", /^当前配置的提醒工具不支持恢复已暂停的提醒，所以我没有做任何更改。$/],
    ["skip next Monday's standup", /^Skipping one time of a repeating reminder isn't available/],
    ["跳过这一次", /^当前配置的提醒工具不支持跳过重复提醒的某一次/],
  ] as const
) {
  Deno.test(`without the series tools "${text}" says so and calls nothing`, async () => {
    const reply = await complete([user(text)], { tools: TOOLS_V2 });
    assert.deepEqual(reply.toolCalls, []);
    assert.match(reply.text, words);
  });
} // deno-fmt-ignore

for (
  const [lang, text, words] of [
    ["English", "pause my standup reminder", /^That reminder is already paused\.$/],
    ["Chinese", "暂停站会提醒", /^这个提醒已经是暂停状态。$/],
  ] as const
) {
  Deno.test(`a pause the tool refuses is said in words, not as a code (${lang})`, async () => {
    const reply = await complete([
      ...afterList(text, standup("join the standup")),
      called("call_2", "schedule_pause", { id: "sch_1" }),
      result("call_2", { ok: false, error: { code: "schedule_paused", message: "Schedule sch_1 is already paused" } }),
    ], { tools: TOOLS });
    assert.match(reply.text, words);
  });
} // deno-fmt-ignore

Deno.test("help offers pause and skip only when their tools are registered", async () => {
  const with_ = await complete([user("hello")], { tools: TOOLS });
  assert.match(with_.text, /pause and resume a repeat \("pause my standup reminder"\).*skip one time \("skip next Monday's standup"\)/);
  const zh = await complete([user("你好")], { tools: TOOLS });
  assert.match(zh.text, /暂停和恢复重复提醒（“暂停站会提醒”）.*跳过一次（“跳过这一次”）/);
  const without = await complete([user("hello")], { tools: TOOLS_V2 });
  assert.doesNotMatch(without.text, /pause|skip/);
});

for (
  const [pause, resume, words] of [
    ["pause my standup reminder", "resume it", /^Resumed “join the standup”/],
    ["暂停站会提醒", "恢复这个提醒", /^已恢复“参加站会”/],
  ] as const
) {
  Deno.test(`"${resume}" after "${pause}" resumes the series just paused, no list`, async () => {
    const prompt = pause.startsWith("pause") ? "join the standup" : "参加站会";
    const paused = {
      ok: true,
      deliveryMode: "session-local",
      ...standup(prompt, { status: "paused" }),
    };
    const before: ModelMessage[] = [
      ...afterList(pause, standup(prompt)),
      called("call_2", "schedule_pause", { id: "sch_1" }),
      result("call_2", paused),
      { role: "assistant", content: "Paused." },
      user(resume),
    ];
    const reply = await complete(before, { tools: TOOLS });
    assert.deepEqual(calls(reply).map((c) => [c.name, c.args]), [["schedule_resume", {
      id: "sch_1",
    }]]);
    const done = await complete([
      ...before,
      called("call_3", "schedule_resume", { id: "sch_1" }),
      result("call_3", { ok: true, deliveryMode: "session-local", ...standup(prompt) }),
    ], { tools: TOOLS });
    assert.match(done.text, words);
  });
} // deno-fmt-ignore

Deno.test("a paused series is listed as paused (en, zh)", async () => {
  const paused = standup("join the standup", { status: "paused" });
  const list = (text: string) =>
    complete([user(text), called("call_1", "schedule_list", {}), result("call_1", listed(paused))], { tools: TOOLS });
  assert.match((await list("what reminders do I have")).text, /- join the standup — repeating every weekday at 09:00 .*, paused \[sch_1\]$/);
  assert.match((await list("我有哪些提醒")).text, /- join the standup — 重复：工作日 09:00.*，已暂停 \[sch_1\]$/);
});

for (
  const [text, kind] of [
    ["remind me to pause the music at 9pm", "create"],
    ["remind me every day at 7 to skip dessert", "create"],
    ["暂停下载，10分钟后提醒我", "create"],
    ["每天早上8点提醒我恢复训练", "create"],
    ["继续提醒我喝水", "resume"],
    ["pause my standup reminder", "pause"],
    ["跳过这一次", "skip"],
  ] as const
) {
  Deno.test(`"${text}" is read as ${kind}: a series word inside a new reminder's task is its text`, () => {
    assert.equal(
      parseIntent(text, { now: Date.parse("2026-11-29T08:15:00Z"), timeZone: "Europe/Berlin" })
        .kind,
      kind,
    );
  });
} // deno-fmt-ignore

// Monday 2026-11-30 08:00 in Berlin: today's standup (09:00) is still ahead.
const MONDAY = Date.parse("2026-11-30T07:00:00Z");
const WEEK = ["11-30", "12-01", "12-02", "12-03", "12-04", "12-07"].map((d) => ({
  at: `2026-${d}T08:00:00.000Z`,
}));

/** The model's reply at `now` in Berlin, with the series tools. */
function completeAt(now: number, messages: readonly ModelMessage[]) {
  const signal = new AbortController().signal;
  const context = { now, timeZone: "Europe/Berlin" };
  return new OfflineModel().complete({ messages, tools: TOOLS, signal, context });
}

for (
  const [text, at] of [
    ["skip Monday's standup", "2026-11-30T08:00:00.000Z"],
    ["skip today's standup", "2026-11-30T08:00:00.000Z"],
    ["跳过今天的站会", "2026-11-30T08:00:00.000Z"],
    ["跳过这周一的站会", "2026-11-30T08:00:00.000Z"],
    ["skip next Monday's standup", "2026-12-07T08:00:00.000Z"],
    ["跳过下周一的站会", "2026-12-07T08:00:00.000Z"],
    ["skip tomorrow's standup", "2026-12-01T08:00:00.000Z"],
    ["跳过明天的站会", "2026-12-01T08:00:00.000Z"],
  ] as const
) {
  Deno.test(`"${text}" on a Monday morning skips ${at}`, async () => {
    const prompt = /站会/.test(text) ? "参加站会" : "join the standup";
    const reply = await completeAt(MONDAY, afterList(text, standup(prompt, { preview: WEEK })));
    assert.deepEqual(calls(reply).map((c) => [c.name, c.args]), [["schedule_skip", {
      id: "sch_1",
      occurrence_at: at,
    }]]);
  });
} // deno-fmt-ignore

Deno.test("a skip of today's occurrence once it has passed is answered (en, zh)", async () => {
  const evening = Date.parse("2026-11-30T17:00:00Z");
  for (const [text, prompt, words] of [
    ["skip today's standup", "join the standup", /^"join the standup" doesn't fire today \(it repeats every weekday at 09:00 \(Europe\/Berlin\)\), so I haven't skipped anything\.$/],
    ["跳过今天的站会", "参加站会", /^“参加站会”今天没有要提醒的那一次（重复：工作日 09:00（Europe\/Berlin）），所以我没有跳过任何一次。$/],
  ] as const) {
    const reply = await completeAt(evening, afterList(text, standup(prompt, { preview: WEEK.slice(1) })));
    assert.deepEqual(reply.toolCalls, []);
    assert.match(reply.text, words);
  }
});
