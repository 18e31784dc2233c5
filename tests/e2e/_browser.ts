/**
 * Real Chromium for the e2e lane: Debian's `/usr/bin/chromium` driven by `playwright-core`.
 * Tests use `ignore: !HAS_CHROMIUM` and {@linkcode skipNote} prints why they were skipped.
 *
 * @module
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/** The Debian Chromium binary. */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether the browser is installed. */
export const HAS_CHROMIUM: boolean = await Deno.stat(CHROMIUM).then((s) => s.isFile, () => false);

/** Prints the skip reason once per test file when Chromium is absent. */
export function skipNote(file: string): void {
  if (!HAS_CHROMIUM) console.log(`${file}: browser tests skipped, ${CHROMIUM} is absent`);
}

/** Where screenshots go (git-ignored). */
export const SHOTS: URL = new URL("./screenshots/", import.meta.url);

/** A launched browser that closes itself. */
export interface E2EBrowser extends AsyncDisposable {
  /** The browser. */
  readonly browser: Browser;
  /** Opens a context emulating a zone and a locale, collecting uncaught page errors. */
  open(timezoneId: string, locale?: string): Promise<{ context: BrowserContext; page: Page }>;
  /** Uncaught page errors so far, across every page. */
  readonly errors: string[];
}

/**
 * Launches headless Chromium with the flags of the environment notes.
 *
 * @returns the browser, closed by `await using`
 */
export async function launchBrowser(): Promise<E2EBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const errors: string[] = [];
  return {
    browser,
    errors,
    async open(timezoneId, locale = "en-US") {
      const context = await browser.newContext({
        timezoneId,
        locale,
        viewport: { width: 1280, height: 860 },
      });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      page.on("pageerror", (e) => errors.push(`${timezoneId}: ${e.message}`));
      return { context, page };
    },
    async [Symbol.asyncDispose]() {
      await browser.close();
    },
  };
}

/**
 * Saves a full-page screenshot into `tests/e2e/screenshots/<name>.png`.
 *
 * @param page the page
 * @param name file name without extension
 */
export async function shot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname });
}

/** The session id of the page's `#/s/<id>` route, once it is set. */
export async function sessionIdOf(page: Page): Promise<string> {
  await page.waitForURL(/#\/s\/.+/);
  return decodeURIComponent(new URL(page.url()).hash.slice("#/s/".length));
}

/** Waits until the page's stream is connected. */
export async function waitLive(page: Page): Promise<void> {
  await page.locator("[data-testid=connection-status][data-state=live]").waitFor();
}

/**
 * Opens the host's page, creates a session from it and waits until its stream is live.
 *
 * @param page the page
 * @param url the host's base URL
 * @returns the new session's id
 */
export async function openNewSession(page: Page, url: string): Promise<string> {
  await page.goto(url);
  await page.getByTestId("new-session").click();
  const id = await sessionIdOf(page);
  await waitLive(page);
  return id;
}

/** Types a message into the composer, sends it and waits until the composer is cleared. */
export async function say(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("composer-input");
  await input.fill(text);
  await page.getByTestId("composer-send").click();
  await page.waitForFunction(() =>
    (document.querySelector("[data-testid=composer-input]") as HTMLTextAreaElement | null)
      ?.value === ""
  );
}
