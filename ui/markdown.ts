/**
 * Assistant Markdown rendered safely with `markdown-it` (README.md#the-page): raw
 * HTML off (it shows as text), links only to `http:`, `https:` and `mailto:` (so `javascript:`,
 * `data:`, `vbscript:` and relative links stay plain text), every link opens in a new tab with
 * `rel="noopener noreferrer"`, no remote images, and table alignment as classes instead of
 * `style` attributes (the host's Content-Security-Policy has no inline styles).
 *
 * @module
 */
import MarkdownIt from "markdown-it";

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
md.disable(["image"]);
md.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim());
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!;
  token.attrSet("target", "_blank");
  token.attrSet("rel", "noopener noreferrer");
  return self.renderToken(tokens, idx, options);
};
md.core.ruler.push("align_classes", (state) => {
  for (const token of state.tokens) {
    if (token.type !== "th_open" && token.type !== "td_open") continue;
    const align = /text-align:(left|right|center)/.exec(String(token.attrGet("style") ?? ""))?.[1];
    if (!align) continue;
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== "style");
    token.attrJoin("class", `align-${align}`);
  }
});

/**
 * Renders assistant Markdown to an HTML string that is safe to mount.
 *
 * @param source the assistant's text (Markdown)
 * @returns HTML with no raw HTML from the source, safe links only, no `style` attributes
 * @example A link and a refused scheme
 * ```ts
 * import { renderMarkdown } from "./markdown.ts";
 * const html = renderMarkdown("[ok](https://example.com) [bad](javascript:alert(1))");
 * console.assert(html.includes('rel="noopener noreferrer"') && !html.includes("href=\"javascript"));
 * ```
 */
export function renderMarkdown(source: string): string {
  return md.render(source);
}
