import { deepEqual, equal } from "node:assert/strict";
import type { ClientRenderer } from "../client_renderer.ts";
import { installAssets } from "./assets.ts";

function env(linked: string[] = [], workers: string[] | null = []) {
  return {
    hasSheet: (href: string) => linked.includes(href),
    linkSheet: (href: string) => void linked.push(href),
    ...(workers === null ? {} : {
      registerWorker: (url: string) => {
        workers.push(url);
        return Promise.reject(new Error("insecure origin"));
      },
    }),
  };
}

const module = (assets?: ClientRenderer["assets"]): ClientRenderer => ({
  name: "@test/fake",
  register: () => () => {},
  ...(assets === undefined ? {} : { assets }),
});

Deno.test("installAssets() links a module's sheet once and registers its worker", async () => {
  const linked: string[] = [];
  const workers: string[] = [];
  const done = installAssets([module({ css: "a{}", worker: "self.x=1" })], env(linked, workers));
  deepEqual(done, ["/renderers/test-fake.css", "/renderers/test-fake.sw.js"]);
  deepEqual(workers, ["/renderers/test-fake.sw.js"]);
  // A second enable (a new configuration) does not link the sheet twice.
  installAssets([module({ css: "a{}" })], env(linked, workers));
  deepEqual(linked, ["/renderers/test-fake.css"]);
  await Promise.resolve(); // the rejected registration is contained
});

Deno.test("installAssets() does nothing for a module without assets or without service workers", () => {
  equal(installAssets([module()], env()).length, 0);
  deepEqual(installAssets([module({ worker: "self.x=1" })], env([], null)), []);
});
