/**
 * `@chime/schedule/describe`: a recurring series in words, English and Chinese — the one
 * describer the server's `schedule_list`, the frame, the reminder card and the page's rows and
 * panel share (docs/recurring.md "Host and page"). Pure: it loads no session, agent or npm code,
 * so the page bundles it (docs/architecture.md "Per-path exports").
 *
 * @example Word a monthly series
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeRule } from "@chime/schedule/describe";
 * const series = {
 *   rrule: "FREQ=MONTHLY;BYDAY=1MO;BYHOUR=10;BYMINUTE=0;COUNT=3",
 *   dtstart: "2026-12-07T10:00:00",
 *   timeZone: "Europe/Berlin",
 * };
 * assert.equal(
 *   describeRule(series, "en"),
 *   "monthly on the first Monday at 10:00 (Europe/Berlin), 3 times",
 * );
 * ```
 *
 * @module
 */
export { describeRule, type RuleLanguage } from "./_describe.ts";
