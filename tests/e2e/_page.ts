/**
 * Helpers of the page e2e lane against the fake API (`ui/testing/fake_api.ts`): a context per
 * viewport / colour scheme / language, the chat steps, scroll and overflow probes, and axe-core
 * injected from its npm package (`axe.source`).
 *
 * @module
 */
import axe from "axe-core";
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";
import { until } from "./_api.ts";
import { CHROMIUM, HAS_CHROMIUM } from "./_browser.ts";

/** Options of {@linkcode openPage}. */
export interface PageOptions {
  readonly width?: number;
  readonly height?: number;
  readonly colorScheme?: "light" | "dark";
  readonly locale?: string;
  readonly timezoneId?: string;
  readonly reducedMotion?: "reduce" | "no-preference";
}

/** Opens a page in a new context; uncaught page errors are collected in `errors`. */
export async function openPage(
  browser: Browser,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 820 },
    colorScheme: options.colorScheme ?? "light",
    locale: options.locale ?? "en-US",
    timezoneId: options.timezoneId ?? "Europe/Berlin",
    reducedMotion: options.reducedMotion ?? "no-preference",
  });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Creates a session from the page and waits until its stream is live. */
export async function newSession(page: Page): Promise<void> {
  const before = page.url();
  await page.getByTestId("new-session").click();
  await page.waitForURL((u) => u.toString() !== before && /#\/s\//.test(u.toString()));
  await page.locator("[data-testid=connection-status][data-state=live]").waitFor();
}

/** Sends a prompt and waits for the composer to clear. */
export async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId("composer-input").fill(text);
  await page.getByTestId("composer-send").click();
  await page.waitForFunction(() =>
    (document.querySelector("[data-testid=composer-input]") as HTMLTextAreaElement).value === ""
  );
}

/** Pixels between the transcript's bottom edge and its scrolled position. */
export function gapToBottom(page: Page): Promise<number> {
  return page.getByTestId("transcript").evaluate((c) =>
    c.scrollHeight - c.scrollTop - c.clientHeight
  );
}

/**
 * In the page, once per animation frame: reads the transcript (for `top`, scrolls it back to the
 * top first) until the state held on three reads in a row. An evaluated promise, not
 * `waitForFunction`: Playwright does not await a promise a `waitForFunction` predicate returns
 * (microsoft/playwright#29132), so an async predicate passes at once.
 *
 * @throws {Error} after 20 s, with what was last seen
 */
async function holdTranscript(page: Page, at: "bottom" | "top"): Promise<void> {
  const seen = await page.evaluate((at) =>
    new Promise<string>((resolve) => {
      const deadline = performance.now() + 20_000;
      let held = 0;
      const step = () => {
        const c = document.querySelector<HTMLElement>("[data-testid=transcript]");
        let ok = false;
        let state = "no transcript";
        if (c && at === "bottom") {
          const gap = c.scrollHeight - c.scrollTop - c.clientHeight;
          ok = gap <= 2;
          state = `gap ${gap} px`;
        } else if (c) {
          ok = c.scrollTop === 0 && c.dataset.following === "false";
          state = `scrollTop ${c.scrollTop} px, following ${c.dataset.following}`;
          // A render that landed before the page saw the scroll snapped it back: scroll again.
          if (c.scrollTop !== 0) c.scrollTop = 0;
        }
        held = ok ? held + 1 : 0;
        if (held >= 3) resolve("");
        else if (performance.now() > deadline) resolve(state);
        else requestAnimationFrame(step);
      };
      step();
    }), at);
  if (seen !== "") throw new Error(`the transcript did not rest at its ${at} (${seen})`);
}

/** Waits until the transcript rests at its bottom (within 2 px on three reads, one a frame). */
export function waitAtBottom(page: Page): Promise<void> {
  return holdTranscript(page, "bottom");
}

/** Resolves after two animation frames of the page: layout effects and `useEffect`s have run. */
export async function frames(page: Page): Promise<void> {
  await page.evaluate(() =>
    new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())))
  );
}

/**
 * Reloads the page and resolves once its reminders panel's own request
 * (`GET /api/sessions/:id/reminders`) has answered and two frames have rendered it, so a check
 * that no row is listed is judged on the host's list, not on the empty panel before it.
 */
export async function reloadListed(page: Page): Promise<void> {
  const listed = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/reminders"));
  await page.reload();
  await (await listed).finished();
  await frames(page);
}

/**
 * Scrolls the transcript to its top and waits until the page has taken the scroll: it no longer
 * follows (`data-following="false"`, "Jump to latest" shown) and stays at the top.
 */
export function scrollToTop(page: Page): Promise<void> {
  return holdTranscript(page, "top");
}

/**
 * Waits until the rendered text of `locator` matches `pattern` (renders are asynchronous).
 *
 * @param locator one element
 * @param pattern what the text must match
 * @returns the matching text
 * @throws {Error} after 20 s, naming the last text seen
 */
export function waitText(locator: Locator, pattern: RegExp): Promise<string> {
  return until(`text ${pattern}`, async () => {
    const text = await locator.innerText();
    if (pattern.test(text)) return text;
    throw new Error(`the text is ${JSON.stringify(text)}`);
  });
}

/** Elements wider than the viewport, and whether the document scrolls sideways. */
export async function overflow(page: Page): Promise<{ doc: boolean; wide: string[] }> {
  // Drawer and sheet slide in with CSS transitions: measure once they have finished.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) =>
      !(a instanceof CSSTransition) || a.playState !== "running"
    )
  );
  return await page.evaluate(() => {
    const root = document.scrollingElement!;
    const wide: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      if (getComputedStyle(el).visibility === "hidden") continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.right > innerWidth + 1 || r.left < -1)) {
        // A closed <details> shows only its summary (Chromium may still lay out the rest).
        const folded = el.closest("details:not([open]) > :not(summary)");
        if (!folded && !el.closest(".sidebar:not(.open), .reminders:not(.open), .sr-only")) {
          wide.push(
            `${el.tagName.toLowerCase()}.${el.getAttribute("class") ?? ""}@${Math.round(r.left)}..${
              Math.round(r.right)
            }`,
          );
        }
      }
    }
    return { doc: root.scrollWidth > root.clientWidth, wide };
  });
}

/** One axe violation, shortened. */
export interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: string[];
}

/** Runs axe-core (WCAG 2.x A/AA, 2.2 AA) in the page; returns serious and critical violations. */
export async function axeSerious(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, so a Content-Security-Policy does not block it.
  if (!(await page.evaluate(() => "axe" in globalThis))) {
    await page.evaluate((axe as unknown as { source: string }).source);
  }
  const violations = await page.evaluate(async () => {
    const a = (globalThis as unknown as {
      axe: {
        run(
          ctx: Document,
          opts: unknown,
        ): Promise<
          { violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }
        >;
      };
    }).axe;
    const result = await a.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Chromium flags of the fake-API page lanes. */
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"];

/** A browser test of the fake-API lanes (skipped without Chromium). */
export const e2e = (name: string, fn: () => Promise<void>): void =>
  Deno.test({ name, ignore: !HAS_CHROMIUM, sanitizeOps: false, sanitizeResources: false, fn });

/** Launches Chromium for a fake-API lane; closed by `await using`. */
export async function launch(): Promise<{ browser: Browser } & AsyncDisposable> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  return { browser, [Symbol.asyncDispose]: () => browser.close() };
}

/**
 * An init script that records every Notification (`__notes`: title, body, the object), each
 * permission request (`__asked()`) and chime tone (`__tones()`) the page makes.
 */
export function recordAlerts(): void {
  const w = globalThis as unknown as Record<string, unknown>;
  const Real = w.Notification as typeof Notification;
  const notes: { title: string; body: string; n: Notification }[] = [];
  let asked = 0;
  class Recorded extends Real {
    constructor(title: string, init?: NotificationOptions) {
      super(title, init);
      notes.push({ title, body: init?.body ?? "", n: this });
    }
    static override requestPermission() {
      asked++;
      return Real.requestPermission();
    }
    static override get permission() {
      return Real.permission;
    }
  }
  w.Notification = Recorded;
  w.__notes = notes;
  w.__asked = () => asked;
  let tones = 0;
  const osc = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function (this: AudioContext) {
    tones++;
    return osc.call(this);
  };
  w.__tones = () => tones;
}

/** In the page: emulates the tab being hidden (or shown again) and tells the page. */
export function setHidden(hidden: boolean): void {
  Object.defineProperty(document, "visibilityState", {
    configurable: true,
    get: () => (hidden ? "hidden" : "visible"),
  });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event("visibilitychange"));
}
