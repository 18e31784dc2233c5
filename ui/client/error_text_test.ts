import { deepEqual, equal } from "node:assert/strict";
import { ApiError, sendMessage } from "./api.ts";
import { errorText } from "./error_text.ts";
import { SessionWindow } from "../window.ts";

const tooLong = new ApiError("payload_too_large", "Cannot accept request: text is too long", "", {
  field: "text",
  limit: 32768,
});

Deno.test("regression: error banners are sentences in the UI language; too long names its limit", () => {
  equal(errorText(tooLong, "en"), "This text is too long: at most 32,768 characters.");
  equal(errorText(tooLong, "zh"), "文本太长：最多 32,768 个字符。");
  const missing = new ApiError("session_not_found", "Cannot find session: nosuchsession123");
  equal(errorText(missing, "zh"), "找不到这个会话：它不存在，或已被删除。");
  equal(errorText(missing, "en"), "This session does not exist, or it was deleted.");
  const cases: [string, string, string][] = [
    ["network", "Cannot reach the server", "无法连接服务器"],
    ["message_not_found", "That message is not in this session.", "这个会话里没有那条消息。"],
    [
      "invalid_request",
      "The server did not accept this request: part of it is not valid.",
      "服务器不接受这个请求：其中有无效的内容。",
    ],
    [
      "persistence_failed",
      "The server could not save this. Try again.",
      "服务器未能保存，请重试。",
    ],
    [
      "shutting_down",
      "The server is shutting down. Try again in a moment.",
      "服务器正在关闭，请稍后再试。",
    ],
    [
      "unauthorized",
      "Not signed in: the access token is missing or wrong.",
      "未登录：访问令牌缺失或错误。",
    ],
    [
      "forbidden_origin",
      "The server refuses requests from this page's address.",
      "服务器拒绝来自此页面地址的请求。",
    ],
    [
      "forbidden_host",
      "The server refuses requests from this page's address.",
      "服务器拒绝来自此页面地址的请求。",
    ],
  ];
  for (const [code, en, zh] of cases) {
    const err = new ApiError(code, `Cannot do it: ${code}`);
    deepEqual([errorText(err, "en"), errorText(err, "zh")], [en, zh], code);
  }
  // A body over the byte limit names bytes; without a limit, no number.
  const body = new ApiError("payload_too_large", "Cannot read body: it is too large", "", {
    limit: 1048576,
  });
  equal(errorText(body, "en"), "This request is too large: at most 1,048,576 bytes.");
  equal(errorText(new ApiError("payload_too_large", "x"), "zh"), "请求太大。");
  // Unknown codes (a plugin's, say) keep the host's sentence; other throws their message.
  equal(
    errorText(new ApiError("time_zone_conflict", "Cannot open: zones differ"), "zh"),
    "Cannot open: zones differ",
  );
  equal(errorText(new Error("boom"), "en"), "boom");
  equal(errorText("plain", "en"), "plain");
});

Deno.test("the client keeps an error's facts beside its code and message", async () => {
  const real = globalThis.fetch;
  globalThis.fetch = () =>
    Promise.resolve(
      Response.json({
        error: {
          code: "payload_too_large",
          message: "Cannot accept request: text is too long",
          field: "text",
          limit: 32768,
        },
      }, { status: 413 }),
    );
  try {
    const err = await sendMessage("a", "x").catch((e) => e);
    equal(err instanceof ApiError, true);
    deepEqual([err.code, err.details], ["payload_too_large", { field: "text", limit: 32768 }]);
  } finally {
    globalThis.fetch = real;
  }
});

Deno.test("regression: a window that cannot load keeps the failure for a sentence in the UI language", async () => {
  const missing = new ApiError("session_not_found", "Cannot find session: nosuchsession123");
  const w = new SessionWindow({
    loadHistory: () => Promise.reject(missing),
    loadAfter: () => Promise.reject(missing),
  });
  await w.start();
  equal(w.error.value, "Cannot find session: nosuchsession123");
  equal(w.failure.value?.err, missing);
  equal(errorText(w.failure.value?.err, "zh"), "找不到这个会话：它不存在，或已被删除。");
  w[Symbol.dispose]();
});
