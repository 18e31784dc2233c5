/**
 * The neutral, bilingual one-line summary of a tool result, for tools no renderer module
 * summarizes (`EventViewRegistry.summarizeTool`): "Tool <name>: done" or "Tool <name>: failed",
 * with the agent's own error codes in words (`invalid_arguments`, `unknown_tool`,
 * `tool_failed`: docs/errors.md#tool-codes) and any other code as given. The raw JSON stays
 * behind the row's expandable details.
 *
 * @module
 */
import type { Lang } from "./i18n.ts";
import type { ToolSummary } from "./registry.ts";

const TEXT = {
  en: {
    tool: (name: string | undefined) => (name === undefined ? "Tool call: " : `Tool ${name}: `),
    done: "done",
    failed: "failed",
    invalid_arguments: " — its arguments were invalid",
    unknown_tool: " — no such tool",
    tool_failed: "",
    code: (code: string) => ` (${code})`,
  },
  zh: {
    tool: (name: string | undefined) => (name === undefined ? "工具调用：" : `工具 ${name}：`),
    done: "完成",
    failed: "失败",
    invalid_arguments: " —— 参数无效",
    unknown_tool: " —— 没有该工具",
    tool_failed: "",
    code: (code: string) => `（${code}）`,
  },
} as const;

const GENERIC_CODES = ["invalid_arguments", "unknown_tool", "tool_failed"] as const;

/**
 * The error code of a failed tool result (`{ ok: false, error: { code } }`), `tool_failed` when
 * it names none, or `undefined` for a success.
 *
 * @param result the `tool/result` event's `result`
 * @returns the code, or `undefined`
 */
export function failureCode(result: unknown): string | undefined {
  const r = (result ?? {}) as { ok?: unknown; error?: { code?: unknown } };
  if (r.ok !== false) return undefined;
  return typeof r.error?.code === "string" ? r.error.code : "tool_failed";
}

/**
 * Summarizes any tool result neutrally.
 *
 * @param tool the tool name, or `undefined` when unknown
 * @param result the `tool/result` event's `result`
 * @param lang the UI language
 * @returns the summary
 * @example A tool nobody summarizes
 * ```ts
 * import { neutralToolSummary } from "./tool_summary.ts";
 * console.assert(neutralToolSummary("echo", { ok: true }, "en").text === "Tool echo: done");
 * ```
 */
export function neutralToolSummary(
  tool: string | undefined,
  result: unknown,
  lang: Lang,
): ToolSummary {
  const t = TEXT[lang];
  const code = failureCode(result);
  if (code === undefined) return { text: `${t.tool(tool)}${t.done}`, failed: false };
  const generic = GENERIC_CODES.find((c) => c === code);
  const detail = generic === undefined ? t.code(code) : t[generic];
  return { text: `${t.tool(tool)}${t.failed}${detail}`, failed: true, code };
}
