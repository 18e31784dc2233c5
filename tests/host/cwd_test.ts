/**
 * The `cwd` of `POST /api/sessions` (README "HTTP API"): an absolute POSIX path with no control
 * character and no `.` or `..` segment, recorded as given; anything else is `400 invalid_request`
 * and stores nothing. A session stored earlier with an odd `cwd` still opens.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp, loadConfig } from "@chime/host";
import { MemoryBackend } from "@chime/session/testing";
import { postJson, testRuntime } from "./_helpers.ts";

const REFUSED: readonly unknown[] = [
  "rel",
  "",
  "\u0000",
  "/tmp/\u0000x",
  "/a\nb",
  "/a\u0085b",
  "../../etc",
  "/a/../b",
  "/a/..",
  "/a/./b",
  "/" + "a".repeat(1024),
  5,
  null,
  ["/"],
];

Deno.test("regression: POST /api/sessions refuses a cwd that is not an absolute path, storing nothing", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  for (const cwd of REFUSED) {
    const response = await app.request("/api/sessions", postJson({ timeZone: "UTC", cwd }));
    assert.equal(response.status, 400, JSON.stringify(cwd));
    const { error } = await response.json();
    assert.equal(error.code, "invalid_request", JSON.stringify(cwd));
    assert.equal(error.field, "cwd");
    assert.match(error.message, /^Cannot create session: cwd must be an absolute path \(.+\)$/);
  }
  assert.deepEqual(await runtime.store.list(), [], "nothing stored");
  const accepted = [
    "/",
    "/home/ana/project",
    "/a//b/",
    "/路径/项目 1",
    "/..a/b.",
    "/" + "a".repeat(1023),
  ];
  for (const cwd of accepted) {
    const response = await app.request("/api/sessions", postJson({ timeZone: "UTC", cwd }));
    assert.equal(response.status, 201, cwd);
    assert.equal((await response.json()).header.cwd, cwd, "recorded as given");
  }
  const defaulted = await app.request("/api/sessions", postJson({ timeZone: "UTC" }));
  assert.equal((await defaulted.json()).header.cwd, "/", "the configured cwd");
}); // deno-fmt-ignore

Deno.test("a session stored with an odd cwd still opens, resumes and takes messages", async () => {
  const backend = new MemoryBackend();
  await using runtime = await testRuntime({ backend });
  const app = createApp(runtime);
  const session = await runtime.store.create({ cwd: "rel/../x", id: "old", timeZone: "UTC" });
  await runtime.store.close(session);
  const got = await app.request("/api/sessions/old");
  assert.equal(got.status, 200);
  assert.equal((await got.json()).header.cwd, "rel/../x");
  assert.equal((await app.request("/api/sessions/old/history")).status, 200);
  assert.equal((await app.request("/api/sessions/old/resume", { method: "POST" })).status, 200);
  const sent = await app.request(
    "/api/sessions/old/messages",
    postJson({ text: "hi", clientTimeZone: "UTC" }),
  );
  assert.equal(sent.status, 202);
  const listed = await (await app.request("/api/sessions")).json();
  assert.deepEqual(listed.sessions.map((s: { header: { id: string } }) => s.header.id), ["old"]);
});

Deno.test("the configured cwd follows the same rule (config_invalid)", async () => {
  const files: Record<string, string> = {
    "/c/rel.jsonc": '{ "storage": { "kind": "jsonl", "dir": "d" }, "cwd": "projects" }',
    "/c/dots.jsonc": '{ "storage": { "kind": "jsonl", "dir": "d" }, "cwd": "/srv/../etc" }',
    "/c/ok.jsonc": '{ "storage": { "kind": "jsonl", "dir": "d" }, "cwd": "/srv/notes" }',
  };
  const readTextFile = (path: string) =>
    path in files ? Promise.resolve(files[path]!) : Promise.reject(new Deno.errors.NotFound(path));
  const load = (path: string) => loadConfig(path, { readTextFile, cwd: "/", env: {} });
  await assert.rejects(load("/c/rel.jsonc"), /cwd must be an absolute path \(it does not start/);
  await assert.rejects(
    load("/c/dots.jsonc"),
    /cwd must be an absolute path \(it holds a \. or \.\./,
  );
  assert.equal((await load("/c/ok.jsonc")).cwd, "/srv/notes");
}); // deno-fmt-ignore
