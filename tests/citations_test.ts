// Every comment that cites a design rule cites a file in the repo (CONTRIBUTING.md#docs): no
// source or Markdown file outside docs/ names a document a clone does not have (the seed, the old
// ARCHITECTURE and STYLE pages), and every link into docs/ (or to a root Markdown file) names an
// anchor its target holds: an `<a id>` or a GitHub heading slug.
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Folders never scanned: the docs themselves, build output, local data, dependencies. */
const SKIP_DIRS = new Set([
  ".git",
  "docs",
  "data",
  "coverage",
  "dist",
  "node_modules",
  "ui/dist",
  "tests/e2e/screenshots",
]);

/** Files not scanned for the outside-document forms (anchors are still checked). */
const ALLOWED = new Set([
  // Generated from ui/ (`deno task ui:build`).
  "ui/assets_generated.ts",
  // This file names the forms it forbids.
  "tests/citations_test.ts",
]);

/** Citations of documents outside the repo, matched on text whose wrapped lines are joined. */
const OUTSIDE: readonly RegExp[] = [
  /ARCHITECTURE\.md/,
  /STYLE\.md/,
  /shared\/seed/,
  /\bseed(?:'s)?\s*§/,
  /\(seed: \w+ \w+/, // `(seed: <paraphrase>)`, not a parameter `(seed: number)`
  /\bseed "/, // `seed "Commit-aware …"`
  /§\s*"[^"]*[\u4e00-\u9fff]/, // a section title in Chinese: the seed's
];

/** Root Markdown files a comment may link to besides docs/. */
const ROOT_DOCS = ["README.md", "CONTRIBUTING.md", "AGENTS.md"];

async function* files(dir: URL, path = "", skip = SKIP_DIRS): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const sub = path === "" ? entry.name : `${path}/${entry.name}`;
    if (entry.isDirectory) {
      if (!skip.has(sub)) yield* files(new URL(`${entry.name}/`, dir), sub, skip);
    } else if (/\.(?:tsx?|md)$/.test(entry.name)) yield sub;
  }
}

/** The GitHub anchor of a heading: lowercase, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors of a Markdown text: explicit `<a id>`s and heading slugs (repeats get `-N`). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const m of markdown.matchAll(/<a id="([^"]+)"><\/a>/g)) anchors.add(m[1]!);
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Joins comment lines wrapped inside a citation (`(seed` ⏎ ` * §"…"`). */
function joined(text: string): string {
  return text.replace(/[ \t]*\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, " ");
}

/** The `file#anchor` references of a text, for docs/ and the root Markdown files. */
function references(text: string): { target: string; anchor: string }[] {
  const roots = ROOT_DOCS.map((f) => f.replace(".", "\\.")).join("|");
  const re = new RegExp(`(?<![\\w/.-])((?:\\.\\./)*(?:docs/[\\w-]+\\.md|${roots}))#([\\w-]+)`, "g");
  return [...text.matchAll(re)].map((m) => ({
    target: m[1]!.replace(/^(?:\.\.\/)+/, ""),
    anchor: m[2]!,
  }));
}

const anchorCache = new Map<string, Set<string> | null>();

async function anchorsOfFile(path: string): Promise<Set<string> | null> {
  if (!anchorCache.has(path)) {
    const text = await Deno.readTextFile(new URL(path, ROOT)).catch(() => null);
    anchorCache.set(path, text === null ? null : anchorsOf(text));
  }
  return anchorCache.get(path)!;
}

Deno.test("no file outside docs/ cites a document the repo does not have", async () => {
  const found: string[] = [];
  for await (const file of files(ROOT)) {
    if (ALLOWED.has(file)) continue;
    const text = joined(await Deno.readTextFile(new URL(file, ROOT)));
    for (const re of OUTSIDE) {
      const m = re.exec(text);
      if (m) found.push(`${file}: ${text.slice(Math.max(0, m.index - 40), m.index + 40)}`);
    }
  }
  assert.deepEqual(found, []);
});

Deno.test("every docs/ link outside docs/ names an anchor its target holds", async () => {
  const broken: string[] = [];
  let checked = 0;
  for await (const file of files(ROOT)) {
    if (file === "ui/assets_generated.ts") continue;
    for (const { target, anchor } of references(await Deno.readTextFile(new URL(file, ROOT)))) {
      checked++;
      const anchors = await anchorsOfFile(target);
      if (anchors === null) broken.push(`${file}: ${target} does not exist`);
      else if (!anchors.has(anchor)) broken.push(`${file}: ${target}#${anchor}`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked > 100, `only ${checked} anchored references found`); // the scan sees them
});

Deno.test("every anchored Markdown link, docs/ included, names an anchor its target holds", async () => {
  const broken: string[] = [];
  const skip = new Set([...SKIP_DIRS].filter((d) => d !== "docs"));
  for await (const file of files(ROOT, "", skip)) {
    if (!file.endsWith(".md")) continue;
    const text = await Deno.readTextFile(new URL(file, ROOT));
    for (const m of text.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/g)) {
      const target = m[1] === ""
        ? file
        : new URL(m[1]!, new URL(file, "file:///")).pathname.slice(1);
      const anchors = await anchorsOfFile(target);
      if (anchors === null || !anchors.has(m[2]!)) broken.push(`${file}: ${target}#${m[2]}`);
    }
  }
  assert.deepEqual(broken, []);
});

Deno.test("the checks catch what they are for", () => {
  const wrapped = joined('// the one skeleton (seed\n// §"Session 日志权威与工具"): FIFO');
  assert.ok(OUTSIDE.some((re) => re.test(wrapped)));
  assert.ok(OUTSIDE.some((re) => re.test(" * (seed: provenance is per prompt)")));
  assert.ok(!OUTSIDE.some((re) => re.test('seed: "Forked here", prng(seed: number), seedLength')));
  assert.deepEqual(references("see (docs/design.md#admission) and ../CONTRIBUTING.md#code."), [
    { target: "docs/design.md", anchor: "admission" },
    { target: "CONTRIBUTING.md", anchor: "code" },
  ]);
  const anchors = anchorsOf(
    '<a id="x"></a>\n## 7. Live `a/b` lifecycle\n## Tools (same)\n## Tools (same)',
  );
  assert.deepEqual([...anchors], ["x", "7-live-ab-lifecycle", "tools-same", "tools-same-1"]);
});

/** The `code → status` rows of the HTTP table of docs/errors.md. */
function httpTable(doc: string): Map<string, number> {
  const section = doc.slice(doc.indexOf("## HTTP"), doc.indexOf('<a id="tool-codes">'));
  const rows = section.matchAll(/^\| `([a-z_]+)` +\| (\d{3}) +\|/gm);
  return new Map([...rows].map((m) => [m[1]!, Number(m[2])]));
}

Deno.test("docs/errors.md names every HTTP error code the host answers with, at its status", async () => {
  const { STATUS_BY_CODE } = await import("@chime/host");
  const doc = await Deno.readTextFile(new URL("../docs/errors.md", import.meta.url));
  const table = httpTable(doc);
  const wrong = Object.entries(STATUS_BY_CODE).filter(([code, status]) =>
    table.get(code) !== status
  );
  assert.deepEqual(wrong, []);
  // The schedule plugin's routes map their own codes (schedule/web.ts `STATUS`).
  const web = await Deno.readTextFile(new URL("../schedule/web.ts", import.meta.url));
  const block = /const STATUS[^=]*= \{([^}]*)\}/.exec(web)?.[1] ?? "";
  const plugin = [...block.matchAll(/(\w+): (\d{3})/g)].map((m) => [m[1]!, Number(m[2])] as const);
  assert.ok(plugin.length >= 4, "schedule/web.ts STATUS read");
  assert.deepEqual(plugin.filter(([code, status]) => table.get(code) !== status), []);
}); // deno-fmt-ignore

/** The non-test `.ts`/`.tsx` files of a member, relative to its folder (`sessions/runtime.ts`). */
async function memberFiles(dir: URL, path = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const sub = path === "" ? entry.name : `${path}/${entry.name}`;
    if (entry.isDirectory) {
      if (!["dist", "coverage", "node_modules"].includes(entry.name)) {
        found.push(...await memberFiles(new URL(`${entry.name}/`, dir), sub));
      }
    } else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) found.push(sub);
  }
  return found.sort();
}

/** The backticked names of each row of the "Where things are" table, by member folder. */
function fileMap(doc: string): Map<string, Set<string>> {
  const start = doc.indexOf('<a id="files"></a>');
  const section = doc.slice(start, doc.indexOf("\n\n", doc.indexOf("\n| ", start)));
  const rows = new Map<string, Set<string>>();
  for (const m of section.matchAll(/^\| `([\w-]+)\/` +\|(.*)\|$/gm)) {
    rows.set(m[1]!, new Set([...m[2]!.matchAll(/`([^`]+)`/g)].map((n) => n[1]!)));
  }
  return rows;
}

Deno.test("docs/architecture.md's map names every member file", async () => {
  const members = (JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
    workspace: string[];
  }).workspace.map((m) => m.replace(/^\.\//, "").replace(/\/$/, ""));
  const rows = fileMap(await Deno.readTextFile(new URL("docs/architecture.md", ROOT)));
  assert.deepEqual([...rows.keys()].sort(), [...members].sort(), "one row per member");
  const missing: string[] = [];
  const stale: string[] = [];
  let checked = 0;
  for (const member of members) {
    const files = await memberFiles(new URL(`${member}/`, ROOT));
    const named = rows.get(member) ?? new Set();
    for (const file of files) {
      checked++;
      if (!named.has(file)) missing.push(`${member}/${file}`);
    }
    // A name that looks like a member file must be one: moved or deleted files leave the map.
    for (const name of named) {
      if (/^[\w/]+\.tsx?$/.test(name) && !files.includes(name)) stale.push(`${member}/${name}`);
    }
  }
  assert.deepEqual(missing, [], "files the map does not name in their member's row");
  assert.deepEqual(stale, [], "names in the map that are no file of their member");
  assert.ok(checked > 200, `only ${checked} member files found`); // the scan sees them
});

Deno.test("the map check reads rows and names as the table writes them", () => {
  const doc = [
    '<a id="files"></a>',
    "",
    "| member | files |",
    "| --- | --- |",
    "| `host/` | `main.ts` (the process); `sessions/`: `sessions/runtime.ts` (`HostRuntime`) |",
    "",
    "| `ui/` | `app.tsx` |",
  ].join("\n");
  assert.deepEqual(
    [...fileMap(doc)].map(([m, names]) => [m, [...names]]),
    [["host", ["main.ts", "sessions/", "sessions/runtime.ts", "HostRuntime"]]],
  );
});
