// The offline model's help text offers only what the registered tools allow: the full reminder
// help with the schedule tools, an honest "reminders are not enabled" without them (the default
// web configuration has no schedule plugin, docs/architecture.md "Plugins").
import assert from "node:assert/strict";
import { complete, TOOLS, TOOLS_V2, user } from "./_fixtures_test.ts";

const FULL_EN =
  'I\'m chime\'s offline model (no API key needed). I can set reminders — e.g. "remind me in 20 minutes to stretch", "remind me tomorrow at 9 to join the meeting", "every weekday at 8:30 remind me to stand up", "20分钟后提醒我喝水" — list them ("what reminders do I have"), cancel them ("stop the stretch reminder"), snooze them ("snooze it 10 minutes") and move them ("move it to 4pm"). For open-ended chat, set DEEPSEEK_API_KEY or CHIME_MODEL_* to use a real model.';
const FULL_ZH =
  "我是 chime 的离线模型（无需 API key）。我可以设置提醒，例如“20分钟后提醒我喝水”“明天上午9点提醒我开会”“每天早上8点提醒我吃药”“remind me in 20 minutes to stretch”；也可以列出提醒（“我有哪些提醒”）、取消提醒（“取消喝水提醒”）、推迟（“推迟10分钟”）和改时间（“改到下午4点”）。如需自由对话，请设置 DEEPSEEK_API_KEY 或 CHIME_MODEL_* 以使用真实模型。";
const NONE_EN =
  "I'm chime's offline model (no API key needed). In this configuration I can tell you the time (\"what time is it\"), but reminders are not enabled (the schedule tools are not registered), so I can't set any. For open-ended chat, set DEEPSEEK_API_KEY or CHIME_MODEL_* to use a real model.";
const NONE_ZH =
  "我是 chime 的离线模型（无需 API key）。当前配置下我可以告诉你现在的时间（“现在几点”），但未启用提醒功能（没有注册 schedule 工具），所以不能设置提醒。如需自由对话，请设置 DEEPSEEK_API_KEY 或 CHIME_MODEL_* 以使用真实模型。";

Deno.test("with the schedule tools the help text offers every reminder request", async () => {
  assert.equal((await complete([user("tell me a joke")], { tools: TOOLS_V2 })).text, FULL_EN);
  assert.equal((await complete([user("你好")], { tools: TOOLS_V2 })).text, FULL_ZH);
  assert.equal((await complete([], { tools: TOOLS_V2 })).text, FULL_EN, "an empty batch");
});

Deno.test("without the schedule tools the help text says reminders are not enabled", async () => {
  for (const tools of [[], [{ name: "echo", description: "", parameters: {} }]]) {
    const en = await complete([user("tell me a joke")], { tools });
    assert.equal(en.text, NONE_EN);
    assert.deepEqual(en.toolCalls, []);
    assert.equal((await complete([user("你好")], { tools })).text, NONE_ZH);
    assert.equal((await complete([], { tools })).text, NONE_EN, "an empty batch");
  }
  // What it offers does work there.
  const time = await complete([user("what time is it")], { tools: [] });
  assert.equal(time.text, "It's 09:15 on 2026-11-29 (Europe/Berlin).");
});

Deno.test("the help text offers only what the registered schedule tools serve", async () => {
  // Version 1: create, list, delete; no repeat, no snooze; a move is a delete and a create.
  const v1 = (await complete([user("tell me a joke")], { tools: TOOLS })).text;
  assert.match(v1, /list them .*, cancel them .* and move them /);
  assert.ok(!v1.includes("snooze") && !v1.includes("every weekday"), v1);
  const zh = (await complete([user("你好")], { tools: TOOLS })).text;
  assert.match(zh, /也可以列出提醒（“我有哪些提醒”）、取消提醒（“取消喝水提醒”）和改时间/);
  assert.ok(!zh.includes("推迟") && !zh.includes("每天早上8点"), zh);
  // Create alone: set reminders, nothing else to offer.
  const alone = (await complete([user("hi")], { tools: TOOLS.slice(0, 1) })).text;
  assert.match(alone, /"20分钟后提醒我喝水"\. For open-ended chat/);
  assert.ok(!/list them|cancel them|move them/.test(alone), alone);
});
