import { equal } from "node:assert/strict";
import { initialLang, LANG_KEY, saveLang } from "./i18n.ts";

function memory() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

Deno.test("the language choice persists across reloads and wins over the browser language", () => {
  const store = memory();
  equal(initialLang(store, "en-US"), "en");
  saveLang("zh", store);
  equal(store.map.get(LANG_KEY), "zh");
  equal(initialLang(store, "en-US"), "zh", "a reload starts in the chosen language");
  saveLang("en", store);
  equal(initialLang(store, "zh-CN"), "en");
  store.map.set(LANG_KEY, "klingon");
  equal(initialLang(store, "zh-TW"), "zh", "an unknown stored value falls back");
  const broken = {
    getItem(): string | null {
      throw new Error("denied");
    },
    setItem() {
      throw new Error("denied");
    },
  };
  equal(initialLang(broken, "zh"), "zh");
  saveLang("en", broken); // never throws
  equal(initialLang(undefined, undefined), "en");
});
