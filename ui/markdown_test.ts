import { equal, match, ok } from "node:assert/strict";
import { renderMarkdown } from "./markdown.ts";

Deno.test("renderMarkdown() renders emphasis, lists and code", () => {
  const html = renderMarkdown("**Done** — `sch_1`\n\n- one\n- two");
  match(html, /<strong>Done<\/strong>/);
  match(html, /<code>sch_1<\/code>/);
  match(html, /<li>one<\/li>/);
});

Deno.test("renderMarkdown() shows raw HTML as text", () => {
  const html = renderMarkdown('<img src=x onerror="alert(1)"> <script>alert(1)</script>');
  ok(!html.includes("<img") && !html.includes("<script"), html);
  match(html, /&lt;script&gt;/);
});

Deno.test("renderMarkdown() refuses javascript:, data:, vbscript: and relative links", () => {
  for (
    const href of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,x",
      "vbscript:x",
      "/api/x",
      "file:///etc/passwd",
    ]
  ) {
    const html = renderMarkdown(`[click](${href})`);
    ok(!html.includes("<a"), `${href} is not a link: ${html}`);
  }
  ok(!renderMarkdown("<javascript:alert(1)>").includes("<a"));
  ok(!renderMarkdown("![x](https://tracker.example/p.png)").includes("<img"), "no remote images");
});

Deno.test("renderMarkdown() links open in a new tab with rel noopener noreferrer", () => {
  const html = renderMarkdown("see [docs](https://example.com/a?b=1) or https://deno.com");
  equal(html.match(/rel="noopener noreferrer"/g)?.length, 2);
  equal(html.match(/target="_blank"/g)?.length, 2);
  match(html, /href="https:\/\/example.com\/a\?b=1"/);
  match(renderMarkdown("[m](mailto:a@b.c)"), /href="mailto:a@b.c"/);
});

Deno.test("renderMarkdown() writes table alignment as classes, never style attributes", () => {
  const html = renderMarkdown("| a | b |\n|:-|-:|\n| 1 | 2 |");
  ok(!html.includes("style="), html);
  match(html, /<th class="align-left">a<\/th>/);
  match(html, /<td class="align-right">2<\/td>/);
});
