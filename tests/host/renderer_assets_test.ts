/**
 * `ClientRenderer.assets` (contract/page.ts): a renderer module's style sheet and service worker
 * are served by the host from the built page, for enabled modules only, under the host's CSP.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createApp, defaultAssets } from "@chime/host";
import { CONTENT_SECURITY_POLICY } from "@chime/host";
import { testRuntime } from "./_helpers.ts";

const FAKE = { "@test/fake": { css: ".fake{color:red}", worker: "self.onpush = () => {};" } };

Deno.test("an enabled renderer's worker and sheet are served with the page's CSP", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { assets: defaultAssets(["@test/fake"], FAKE) });
  const worker = await app.request("/renderers/test-fake.sw.js");
  assert.equal(worker.status, 200);
  assert.match(worker.headers.get("content-type") ?? "", /^text\/javascript/);
  assert.equal(worker.headers.get("service-worker-allowed"), "/");
  assert.equal(worker.headers.get("content-security-policy"), CONTENT_SECURITY_POLICY);
  assert.equal(await worker.text(), FAKE["@test/fake"].worker);
  const sheet = await app.request("/renderers/test-fake.css");
  assert.equal(sheet.status, 200);
  assert.match(sheet.headers.get("content-type") ?? "", /^text\/css/);
  assert.equal(await sheet.text(), FAKE["@test/fake"].css);
  assert.equal((await app.request("/")).status, 200, "the page itself is still served");
});

Deno.test("a renderer that is not enabled has none of its assets served", async () => {
  await using runtime = await testRuntime();
  const app = createApp(runtime, { assets: defaultAssets([], FAKE) });
  const worker = await app.request("/renderers/test-fake.sw.js");
  assert.equal(worker.status, 404);
  assert.equal((await worker.json()).error.code, "not_found");
});
