/**
 * The offline model's confirmations (README.md "The page"): the session-local note and the id
 * once per conversation, no English inside a Chinese reply, the person's "my" echoed as "your",
 * and a cancel by words of a reminder that already fired or was cancelled says it is gone and
 * when, instead of asking for an id.
 */
import assert from "node:assert/strict";
import { world } from "./_world_test.ts";
import { yourWords } from "./reply.ts";

Deno.test("yourWords() turns the person's first person into the second", () => {
  assert.equal(yourWords("take my vitamins"), "take your vitamins");
  assert.equal(yourWords("call me back about mine"), "call you back about yours");
  assert.equal(yourWords("tell myself I'm done"), "tell yourself you're done");
  assert.equal(yourWords("My mom's birthday"), "Your mom's birthday");
  assert.equal(yourWords("email Jimmy"), "email Jimmy", "words that only contain 'my' stay");
});

Deno.test("English: the note and id once; the pronoun echo; a fired reminder is gone, with its time", async () => {
  await using w = await world("Europe/Berlin");
  const first = await w.say("remind me in 1 minute to take my vitamins");
  assert.match(first, /^OK — I'll remind you to take your vitamins at 09:01 \(Europe\/Berlin\)\./);
  assert.match(first, /session-local: it only fires while this session is open\. \(id: sch_/);
  const second = await w.say("remind me tomorrow at 6pm to call mom");
  assert.equal(second, "OK — I'll remind you to call mom at 2026-01-16 18:00 (Europe/Berlin).");
  await w.fireOnce();
  assert.equal(
    await w.say("cancel the vitamins reminder"),
    "The “take my vitamins” reminder is already gone: it fired at 09:01 (Europe/Berlin), so there is nothing to cancel.",
  );
  await w.say("cancel the call mom reminder");
  assert.equal(
    await w.say("cancel the call mom reminder"),
    "The “call mom” reminder is already gone: it was cancelled earlier in this conversation.",
  );
});

Deno.test("Chinese: no English note, the note once, a fired reminder is gone", async () => {
  await using w = await world("Asia/Shanghai");
  const first = await w.say("1分钟后提醒我吃维生素");
  assert.doesNotMatch(first, /session-local/);
  assert.match(first, /这个提醒仅在本会话内有效：只有会话打开时才会触发。（id：sch_/);
  const second = await w.say("明天下午6点提醒我给妈妈打电话");
  assert.equal(second, "好的——我会在 2026-01-16 18:00（Asia/Shanghai） 提醒你：给妈妈打电话。");
  await w.fireOnce();
  assert.equal(
    await w.say("取消吃维生素的提醒"),
    "“吃维生素”这个提醒已经没有了：它已在 16:01（Asia/Shanghai） 触发，所以没有可取消的。",
  );
});
