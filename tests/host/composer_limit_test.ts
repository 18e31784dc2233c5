/**
 * The page's composer counts against the host's own message limit (README.md "HTTP API": a
 * message or edit `text` holds at most 32,768 UTF-16 code units): the two constants stay equal.
 *
 * @module
 */
import assert from "node:assert/strict";
import { MAX_TEXT } from "../../host/http/_http.ts";
import { COUNT_FROM, countWords, MESSAGE_LIMIT } from "../../ui/client/composer.tsx";

Deno.test("the composer's limit is the host's MAX_TEXT; the count starts at 90 % of it", () => {
  assert.equal(MESSAGE_LIMIT, MAX_TEXT);
  assert.equal(countWords(COUNT_FROM - 1, "en", "{n} too many"), null);
  assert.equal(countWords(29_600, "en", "{n} too many"), "29,600 / 32,768");
  assert.equal(countWords(32_800, "en", "{n} characters too many"), "32 characters too many");
  assert.equal(countWords(32_800, "zh-CN", "超出 {n} 个字符"), "超出 32 个字符");
});
