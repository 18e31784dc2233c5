/**
 * The series routes, faked inside the browser with `page.route` over a real host, so the page's
 * controls can be driven in Chromium apart from the server side: the listed rows
 * of a daily series gain `paused`, `exdates` and a five-occurrence `preview` (fixed-offset zones
 * only), and `…/pause`, `…/resume`, `…/skip`, `…/update` and `…/history` answer as
 * docs/recurring.md "Host and page" says. Anything else goes to the real host.
 *
 * @module
 */
import type { Page, Route } from "playwright-core";

interface Series {
  prompt: string;
  hour: number;
  minute: number;
  paused: boolean;
  exdates: string[];
  history: { seq: number; at: string; kind: string; occurrenceAt?: string; nextAt?: string }[];
}

/** What the fake holds, and the refusals it was told to give. */
export interface SeriesFake {
  /** Routes answered by the fake, as `METHOD action body`. */
  readonly calls: string[];
  /** The next `update` answers this error code (e.g. `unsupported_rule`), once. */
  refuseNextUpdate(code: string): void;
}

const DAY = 86_400_000;

/**
 * Installs the fake on a page.
 *
 * @param page the page
 * @param offsetHours the session zone's fixed offset (Asia/Shanghai: 8)
 * @returns the fake's record
 */
export async function fakeSeriesRoutes(page: Page, offsetHours: number): Promise<SeriesFake> {
  const series = new Map<string, Series>();
  const calls: string[] = [];
  let refusal: string | undefined;
  let seq = 1000;
  const stamp = () => new Date().toISOString();

  const occurrences = (s: Series, n: number) => {
    const now = Date.now();
    const local = new Date(now + offsetHours * 3_600_000);
    let t = Date.UTC(
      local.getUTCFullYear(),
      local.getUTCMonth(),
      local.getUTCDate(),
      s.hour - offsetHours,
      s.minute,
    );
    if (t <= now) t += DAY;
    const out: { at: string; local: string; offset: string; excluded?: string[] }[] = [];
    let excluded: string[] = [];
    while (out.length < n) {
      const at = new Date(t).toISOString();
      if (s.exdates.includes(at)) excluded.push(at);
      else {
        const wall = new Date(t + offsetHours * 3_600_000).toISOString().slice(0, 16);
        const offset = `+${String(offsetHours).padStart(2, "0")}:00`;
        out.push({ at, local: wall, offset, ...(excluded.length ? { excluded } : {}) });
        excluded = [];
      }
      t += DAY;
    }
    return out;
  };
  const rule = (s: Series) => `FREQ=DAILY;BYHOUR=${s.hour};BYMINUTE=${s.minute}`;
  const row = (base: Record<string, unknown>, s: Series) => {
    const preview = occurrences(s, 5);
    return {
      ...base,
      prompt: s.prompt,
      scheduledAt: preview[0]!.at,
      repeat: { ...(base.repeat as Record<string, unknown>), rrule: rule(s), text: undefined },
      ...(s.paused ? { paused: true } : {}),
      ...(s.exdates.length ? { exdates: s.exdates } : {}),
      preview,
    };
  };
  const json = (route: Route, status: number, body: unknown) =>
    route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });

  await page.route(/\/api\/sessions\/[^/]+\/reminders(\/.*)?$/, async (route) => {
    const req = route.request();
    const parts = new URL(req.url()).pathname.split("/").slice(3).map(decodeURIComponent);
    const [, , rid, action] = parts;
    if (rid === undefined) {
      const real = await route.fetch();
      const page = await real.json() as { reminders: Record<string, unknown>[] };
      const reminders = page.reminders.map((r) => {
        if (r.kind !== "recurring") return r;
        const id = r.id as string;
        if (!series.has(id)) {
          const m = /BYHOUR=(\d+);BYMINUTE=(\d+)/.exec(
            String((r.repeat as { rrule: string }).rrule),
          );
          series.set(id, {
            prompt: r.prompt as string,
            hour: Number(m?.[1] ?? 9),
            minute: Number(m?.[2] ?? 0),
            paused: false,
            exdates: [],
            history: [{
              seq: seq++,
              at: stamp(),
              kind: "created",
              nextAt: r.scheduledAt as string,
            }],
          });
        }
        return row(r, series.get(id)!);
      });
      return json(route, 200, { ...page, reminders });
    }
    const s = series.get(rid);
    if (!s || !["pause", "resume", "skip", "update", "history"].includes(action ?? "")) {
      return route.continue();
    }
    const body = req.postDataJSON() as Record<string, unknown> | null;
    calls.push(`${req.method()} ${action} ${JSON.stringify(body)}`);
    const answer = () => json(route, 200, { reminder: { id: rid, ...row({}, s) } });
    const log = (kind: string, extra: Record<string, string> = {}) =>
      s.history.push({ seq: seq++, at: stamp(), kind, ...extra });
    switch (action) {
      case "history":
        return json(route, 200, { history: s.history });
      case "pause":
        s.paused = true;
        log("paused");
        return answer();
      case "resume":
        s.paused = false;
        log("resumed", { nextAt: occurrences(s, 1)[0]!.at });
        return answer();
      case "skip": {
        const next = occurrences(s, 1)[0]!.at;
        s.exdates.push(next);
        log("excluded", { occurrenceAt: next });
        return answer();
      }
    }
    if (refusal) {
      const code = refusal;
      refusal = undefined;
      return json(route, 400, { error: { code, message: `refused: ${code}` } });
    }
    const b = body as { prompt?: string; at?: { time: string }; repeat?: { rrule: string } };
    // As the real route (schedule/_page.ts): `at` or `repeat`, never both.
    if (b.at && b.repeat) {
      return json(route, 400, { error: { code: "invalid_arguments", message: "at and repeat" } });
    }
    if (b.prompt) s.prompt = b.prompt;
    const m = /BYHOUR=(\d+);BYMINUTE=(\d+)/.exec(b.repeat?.rrule ?? "");
    const [h, mi] = m ? [m[1], m[2]] : (b.at?.time.split(":") ?? []);
    if (h !== undefined) [s.hour, s.minute] = [Number(h), Number(mi)];
    log("changed", { nextAt: occurrences(s, 1)[0]!.at });
    return answer();
  });
  return { calls, refuseNextUpdate: (code) => void (refusal = code) };
}
