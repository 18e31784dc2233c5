import assert from "node:assert/strict";
import { throwsCode } from "./_fixtures_test.ts";
import {
  canonicalRule,
  catchUp,
  describeRule,
  nextOccurrence,
  parseDtstart,
  type RecurrenceSeries,
  validateSeries,
} from "./recurrence.ts";

/** The first `n` occurrences strictly after `from`, as zoned strings. */
function expand(series: RecurrenceSeries, from: string, n: number): string[] {
  const out: string[] = [];
  let t = Date.parse(from);
  for (let i = 0; i < n; i++) {
    const next = nextOccurrence(series, t);
    if (next === undefined) break;
    out.push(
      Temporal.Instant.fromEpochMilliseconds(next).toZonedDateTimeISO(series.timeZone).toString(),
    );
    t = next;
  }
  return out;
}

const s = (rrule: string, dtstart: string, timeZone: string): RecurrenceSeries => ({
  rrule,
  dtstart,
  timeZone,
});

Deno.test("`canonicalRule()` prints one spelling and refuses what the subset leaves out", () => {
  assert.equal(
    canonicalRule("rrule:byminute=0;byhour=9;freq=daily;interval=1;wkst=MO"),
    "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
  );
  assert.equal(
    canonicalRule("FREQ=WEEKLY;BYDAY=FR,MO,MO;BYHOUR=18,8;INTERVAL=2;UNTIL=20261231T000000Z"),
    "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;BYHOUR=8,18;UNTIL=20261231T000000Z",
  );
  assert.equal(
    canonicalRule("FREQ=MONTHLY;BYDAY=-1FR,1MO;BYMONTHDAY=-1,31;COUNT=3"),
    "FREQ=MONTHLY;BYDAY=-1FR,1MO;BYMONTHDAY=-1,31;COUNT=3",
  );
  for (
    const rule of [
      "FREQ=SECONDLY",
      "FREQ=DAILY;BYSECOND=5",
      "FREQ=HOURLY;BYMINUTE=5;BYSETPOS=1",
      "FREQ=WEEKLY;WKST=SU",
      "FREQ=WEEKLY;BYWEEKNO=1",
      "FREQ=WEEKLY;BYDAY=1MO",
      "FREQ=DAILY;BYDAY=-1FR",
      "FREQ=WEEKLY;BYMONTHDAY=1",
      "FREQ=DAILY;UNTIL=20261231",
      "FREQ=DAILY;UNTIL=20261231T000000",
    ]
  ) throwsCode(() => canonicalRule(rule), "unsupported_rule");
  for (
    const rule of [
      "",
      "BYHOUR=9",
      "FREQ=DAILY;FREQ=DAILY",
      "FREQ=DAILY;INTERVAL",
      "FREQ=DAILY;INTERVAL=0",
      "FREQ=DAILY;INTERVAL=x",
      "FREQ=DAILY;BYHOUR=24",
      "FREQ=DAILY;BYMINUTE=60",
      "FREQ=MONTHLY;BYMONTHDAY=0",
      "FREQ=MONTHLY;BYMONTHDAY=32",
      "FREQ=MONTHLY;BYDAY=0MO",
      "FREQ=MONTHLY;BYDAY=6MO",
      "FREQ=DAILY;BYDAY=XX",
      "FREQ=DAILY;COUNT=0",
      "FREQ=DAILY;COUNT=10001",
      "FREQ=DAILY;COUNT=2;UNTIL=20261231T000000Z",
      "FREQ=DAILY;UNTIL=20260230T000000Z",
      "FREQ=DAILY;UNTIL=20260101T240000Z",
    ]
  ) throwsCode(() => canonicalRule(rule), "invalid_arguments");
});

Deno.test("`validateSeries()` and `parseDtstart()` refuse bad zones and local date-times", () => {
  throwsCode(
    () => validateSeries(s("FREQ=DAILY", "2026-01-01T09:00:00", "Mars/Base")),
    "invalid_time_zone",
  );
  throwsCode(
    () => validateSeries(s("FREQ=DAILY", "2026-01-01T09:00:00", "+08:00")),
    "invalid_time_zone",
  );
  for (const bad of ["2026-01-01T09:00", "2026-02-29T09:00:00", "2026-01-01T24:00:00", "x"]) {
    throwsCode(() => parseDtstart(bad), "invalid_arguments");
  }
  assert.equal(parseDtstart("2028-02-29T23:59:59").day, 29);
});

Deno.test("a DST gap moves the local time forward by the gap (New York, spring)", () => {
  assert.deepEqual(
    expand(s("FREQ=DAILY", "2025-03-07T02:30:00", "America/New_York"), "2025-03-07T00:00:00Z", 4),
    [
      "2025-03-07T02:30:00-05:00[America/New_York]",
      "2025-03-08T02:30:00-05:00[America/New_York]",
      "2025-03-09T03:30:00-04:00[America/New_York]",
      "2025-03-10T02:30:00-04:00[America/New_York]",
    ],
  );
});

Deno.test("an ambiguous local time takes the earlier instant (New York, autumn)", () => {
  assert.deepEqual(
    expand(s("FREQ=DAILY", "2025-11-01T01:30:00", "America/New_York"), "2025-11-01T00:00:00Z", 3),
    [
      "2025-11-01T01:30:00-04:00[America/New_York]",
      "2025-11-02T01:30:00-04:00[America/New_York]",
      "2025-11-03T01:30:00-05:00[America/New_York]",
    ],
  );
});

Deno.test("Lord Howe's 30-minute shift: gap forward by 30 min, overlap earlier", () => {
  assert.deepEqual(
    expand(
      s("FREQ=DAILY", "2025-10-04T02:00:00", "Australia/Lord_Howe"),
      "2025-10-01T00:00:00Z",
      3,
    ),
    [
      "2025-10-04T02:00:00+10:30[Australia/Lord_Howe]",
      "2025-10-05T02:30:00+11:00[Australia/Lord_Howe]",
      "2025-10-06T02:00:00+11:00[Australia/Lord_Howe]",
    ],
  );
  assert.deepEqual(
    expand(
      s("FREQ=DAILY", "2025-04-05T01:45:00", "Australia/Lord_Howe"),
      "2025-04-01T00:00:00Z",
      3,
    ),
    [
      "2025-04-05T01:45:00+11:00[Australia/Lord_Howe]",
      "2025-04-06T01:45:00+11:00[Australia/Lord_Howe]",
      "2025-04-07T01:45:00+10:30[Australia/Lord_Howe]",
    ],
  );
});

Deno.test("southern hemisphere: Sydney springs forward in October, keeps 09:00 wall time", () => {
  assert.deepEqual(
    expand(
      s("FREQ=DAILY;BYHOUR=2;BYMINUTE=30", "2025-10-04T02:30:00", "Australia/Sydney"),
      "2025-10-01T00:00:00Z",
      3,
    ),
    [
      "2025-10-04T02:30:00+10:00[Australia/Sydney]",
      "2025-10-05T03:30:00+11:00[Australia/Sydney]",
      "2025-10-06T02:30:00+11:00[Australia/Sydney]",
    ],
  );
  assert.deepEqual(
    expand(
      s("FREQ=WEEKLY;BYDAY=SU;BYHOUR=9;BYMINUTE=0", "2026-03-29T09:00:00", "Australia/Sydney"),
      "2026-03-28T00:00:00Z",
      3,
    ),
    [
      "2026-03-29T09:00:00+11:00[Australia/Sydney]",
      "2026-04-05T09:00:00+10:00[Australia/Sydney]",
      "2026-04-12T09:00:00+10:00[Australia/Sydney]",
    ],
  );
});

Deno.test("an hourly series across a gap keeps one occurrence per instant", () => {
  assert.deepEqual(
    expand(
      s("FREQ=HOURLY;BYMINUTE=0,30", "2025-03-09T00:00:00", "America/New_York"),
      "2025-03-09T05:00:00Z",
      6,
    ),
    [
      "2025-03-09T00:30:00-05:00[America/New_York]",
      "2025-03-09T01:00:00-05:00[America/New_York]",
      "2025-03-09T01:30:00-05:00[America/New_York]",
      "2025-03-09T03:00:00-04:00[America/New_York]",
      "2025-03-09T03:30:00-04:00[America/New_York]",
      "2025-03-09T04:00:00-04:00[America/New_York]",
    ],
  );
});

Deno.test("BYMONTHDAY=31 skips short months; -1 is the last day; ordinals pick weekdays", () => {
  assert.deepEqual(
    expand(
      s("FREQ=MONTHLY;BYMONTHDAY=31", "2026-01-31T09:00:00", "Asia/Shanghai"),
      "2026-01-01T00:00:00Z",
      3,
    ),
    [
      "2026-01-31T09:00:00+08:00[Asia/Shanghai]",
      "2026-03-31T09:00:00+08:00[Asia/Shanghai]",
      "2026-05-31T09:00:00+08:00[Asia/Shanghai]",
    ],
  );
  assert.deepEqual(
    expand(s("FREQ=MONTHLY", "2026-01-31T09:00:00", "UTC"), "2026-01-01T00:00:00Z", 2),
    [
      "2026-01-31T09:00:00+00:00[UTC]",
      "2026-03-31T09:00:00+00:00[UTC]",
    ],
  );
  assert.deepEqual(
    expand(
      s("FREQ=MONTHLY;BYMONTHDAY=-1", "2028-01-01T08:00:00", "UTC"),
      "2028-01-01T00:00:00Z",
      2,
    ),
    [
      "2028-01-31T08:00:00+00:00[UTC]",
      "2028-02-29T08:00:00+00:00[UTC]",
    ],
  );
  assert.deepEqual(
    expand(
      s("FREQ=MONTHLY;BYDAY=-1FR,1MO", "2026-01-01T09:00:00", "UTC"),
      "2026-01-01T00:00:00Z",
      3,
    ),
    [
      "2026-01-05T09:00:00+00:00[UTC]",
      "2026-01-30T09:00:00+00:00[UTC]",
      "2026-02-02T09:00:00+00:00[UTC]",
    ],
  );
  assert.deepEqual(
    expand(
      s("FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR", "2026-01-01T09:00:00", "UTC"),
      "2026-01-01T00:00:00Z",
      2,
    ),
    [
      "2026-02-13T09:00:00+00:00[UTC]",
      "2026-03-13T09:00:00+00:00[UTC]",
    ],
  );
  assert.deepEqual(
    expand(
      s("FREQ=MONTHLY;BYMONTHDAY=1;BYDAY=2MO", "2026-01-01T09:00:00", "UTC"),
      "2026-01-01T00:00:00Z",
      0,
    ),
    [],
  );
});

Deno.test("COUNT counts from DTSTART; UNTIL is inclusive; both end the series", () => {
  const count = s("FREQ=DAILY;COUNT=3", "2026-01-01T09:00:00", "Europe/Berlin");
  assert.equal(expand(count, "2025-01-01T00:00:00Z", 9).length, 3);
  assert.equal(
    nextOccurrence(count, Date.parse("2026-01-02T12:00:00Z")),
    Date.parse("2026-01-03T08:00:00Z"),
  );
  assert.equal(nextOccurrence(count, Date.parse("2026-01-03T08:00:00Z")), undefined);
  const until = s("FREQ=DAILY;UNTIL=20260103T080000Z", "2026-01-01T09:00:00", "Europe/Berlin");
  assert.equal(
    expand(until, "2025-01-01T00:00:00Z", 9).at(-1),
    "2026-01-03T09:00:00+01:00[Europe/Berlin]",
  );
  assert.equal(expand(until, "2025-01-01T00:00:00Z", 9).length, 3);
  // DTSTART that does not match the rule is not an occurrence, and COUNT does not count it.
  const weekly = s("FREQ=WEEKLY;BYDAY=MO;COUNT=2", "2026-01-01T09:00:00", "UTC");
  assert.deepEqual(expand(weekly, "2025-12-31T00:00:00Z", 5), [
    "2026-01-05T09:00:00+00:00[UTC]",
    "2026-01-12T09:00:00+00:00[UTC]",
  ]);
});

Deno.test("minute and hour rules: intervals, filters and the seconds of DTSTART", () => {
  assert.deepEqual(
    expand(s("FREQ=MINUTELY;INTERVAL=7", "2026-01-01T00:00:30", "UTC"), "2026-01-01T00:10:00Z", 2),
    [
      "2026-01-01T00:14:30+00:00[UTC]",
      "2026-01-01T00:21:30+00:00[UTC]",
    ],
  );
  assert.deepEqual(
    expand(
      s("FREQ=MINUTELY;BYDAY=MO;BYHOUR=9;BYMINUTE=0,1;BYMONTHDAY=5", "2026-01-01T00:00:00", "UTC"),
      "2026-01-01T00:00:00Z",
      3,
    ),
    [
      "2026-01-05T09:00:00+00:00[UTC]",
      "2026-01-05T09:01:00+00:00[UTC]",
      "2026-10-05T09:00:00+00:00[UTC]",
    ],
  );
  assert.deepEqual(
    expand(
      s("FREQ=HOURLY;INTERVAL=2;BYHOUR=8,9,10", "2026-01-01T08:15:00", "UTC"),
      "2026-01-01T00:00:00Z",
      3,
    ),
    [
      "2026-01-01T08:15:00+00:00[UTC]",
      "2026-01-01T10:15:00+00:00[UTC]",
      "2026-01-02T08:15:00+00:00[UTC]",
    ],
  );
  assert.deepEqual(
    expand(
      s("FREQ=DAILY;INTERVAL=2;BYDAY=SA,SU", "2026-01-01T07:00:00", "UTC"),
      "2026-01-01T00:00:00Z",
      2,
    ),
    [
      "2026-01-03T07:00:00+00:00[UTC]",
      "2026-01-11T07:00:00+00:00[UTC]",
    ],
  );
});

Deno.test("a series past year 9999 ends", () => {
  const series = s("FREQ=MONTHLY", "9999-12-31T00:00:00", "Pacific/Kiritimati");
  assert.equal(
    nextOccurrence(series, Date.parse("9999-12-30T00:00:00Z")),
    Date.parse("9999-12-30T10:00:00Z"),
  );
  assert.equal(nextOccurrence(series, Date.parse("9999-12-30T10:00:00Z")), undefined);
  assert.equal(
    nextOccurrence(
      s("FREQ=DAILY", "9999-12-31T12:00:00", "UTC"),
      Date.parse("9999-12-31T13:00:00Z"),
    ),
    undefined,
  );
});

Deno.test("`catchUp()` counts the occurrences from the target through now", () => {
  const hourly = s("FREQ=HOURLY", "2026-01-01T00:00:00", "UTC");
  const from = Date.parse("2026-01-01T01:00:00Z");
  assert.deepEqual(catchUp(hourly, from, from + 5 * 3_600_000 + 1), {
    latest: from + 5 * 3_600_000,
    count: 6,
    next: from + 6 * 3_600_000,
  });
  const three = s("FREQ=DAILY;COUNT=3", "2026-01-01T09:00:00", "UTC");
  assert.deepEqual(
    catchUp(three, Date.parse("2026-01-01T09:00:00Z"), Date.parse("2027-01-01T00:00:00Z")),
    {
      latest: Date.parse("2026-01-03T09:00:00Z"),
      count: 3,
    },
  );
  assert.deepEqual(
    catchUp(three, Date.parse("2026-01-04T09:00:00Z"), Date.parse("2027-01-01T00:00:00Z")),
    { count: 0 },
  );
});

Deno.test("a year of FREQ=MINUTELY: look-ups start near the instant, not at DTSTART", () => {
  const minutely = s("FREQ=MINUTELY", "2026-01-01T00:00:00", "Europe/Berlin");
  const late = Date.parse("2026-12-20T10:00:30Z");
  const started = performance.now();
  for (let i = 0; i < 1000; i++) {
    assert.equal(nextOccurrence(minutely, late + i * 60_000), late + 30_000 + i * 60_000);
  }
  // Generous bound: enumerating from DTSTART would take ~0.5 M steps per call.
  assert.ok(performance.now() - started < 2_000);
  const day = catchUp(
    minutely,
    Date.parse("2026-06-01T00:00:00Z"),
    Date.parse("2026-06-04T00:00:00Z"),
  );
  assert.equal(day.count, 3 * 1440 + 1);
});

Deno.test("`describeRule()` speaks English and Chinese", () => {
  const cases: [string, string, string][] = [
    [
      "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
      "daily at 09:00 (Asia/Shanghai)",
      "每天 09:00（Asia/Shanghai）",
    ],
    [
      "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=30",
      "every weekday at 08:30 (Asia/Shanghai)",
      "工作日 08:30（Asia/Shanghai）",
    ],
    [
      "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=30",
      "every weekday at 08:30 (Asia/Shanghai)",
      "工作日 08:30（Asia/Shanghai）",
    ],
    ["FREQ=HOURLY;INTERVAL=2", "every 2 hours", "每隔2小时"],
    ["FREQ=HOURLY;BYMINUTE=15,45", "every hour at :15 and :45", "每小时的第15、45分"],
    [
      "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
      "every Monday at 09:00 (Asia/Shanghai)",
      "每周一 09:00（Asia/Shanghai）",
    ],
    [
      "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE",
      "every 2 weeks on Monday and Wednesday at 09:00 (Asia/Shanghai)",
      "每隔2周的周一、周三 09:00（Asia/Shanghai）",
    ],
    ["FREQ=WEEKLY", "every Tuesday at 09:00 (Asia/Shanghai)", "每周二 09:00（Asia/Shanghai）"],
    [
      "FREQ=DAILY;INTERVAL=3;BYHOUR=7,19;BYMINUTE=0",
      "every 3 days at 07:00 and 19:00 (Asia/Shanghai)",
      "每隔3天 07:00、19:00（Asia/Shanghai）",
    ],
    [
      "FREQ=DAILY;INTERVAL=2;BYDAY=SA",
      "every Saturday (every 2 days) at 09:00 (Asia/Shanghai)",
      "每隔2天（周六） 09:00（Asia/Shanghai）",
    ],
    [
      "FREQ=DAILY;BYMONTHDAY=1",
      "daily on day 1 of the month at 09:00 (Asia/Shanghai)",
      "每天（每月1日） 09:00（Asia/Shanghai）",
    ],
    [
      "FREQ=DAILY;BYMONTHDAY=-1",
      "daily on the last day of the month at 09:00 (Asia/Shanghai)",
      "每天（每月最后一天） 09:00（Asia/Shanghai）",
    ],
    [
      "FREQ=HOURLY;BYMONTHDAY=-2,-1,15",
      "every hour on day 2 from the end, the last day and day 15 of the month",
      "每小时（限每月倒数第2天、最后一天、15日）",
    ],
    [
      "FREQ=MONTHLY;BYMONTHDAY=-1",
      "monthly on the last day at 09:00 (Asia/Shanghai)",
      "每月最后一天 09:00（Asia/Shanghai）",
    ],
    ["FREQ=MINUTELY", "every minute", "每分钟"],
    [
      "FREQ=MINUTELY;INTERVAL=5;BYHOUR=9,10;BYMINUTE=0,30;BYDAY=SA;BYMONTHDAY=1",
      "every 5 minutes at minute 0 and 30 during hour 9 and 10 on Saturday on day 1 of the month",
      "每隔5分钟（限第0、30分，9、10点，周六，每月1日）",
    ],
    ["FREQ=HOURLY;BYDAY=MO,TU,WE,TH,FR", "every hour on weekdays", "每小时（限工作日）"],
    [
      "FREQ=MONTHLY;BYMONTHDAY=31;COUNT=1",
      "monthly on day 31 at 09:00 (Asia/Shanghai), 1 time",
      "每月31日 09:00（Asia/Shanghai），共1次",
    ],
    [
      "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-2,-1",
      "every 2 months on day 2 from the end and the last day at 09:00 (Asia/Shanghai)",
      "每隔2个月的倒数第2天、最后一天 09:00（Asia/Shanghai）",
    ],
    [
      "FREQ=MONTHLY;BYDAY=1MO,-1FR,-2SU;COUNT=3",
      "monthly on the second-to-last Sunday, the last Friday and the first Monday at 09:00 " +
      "(Asia/Shanghai), 3 times",
      "每月倒数第二个周日、最后一个周五、第一个周一 09:00（Asia/Shanghai），共3次",
    ],
    ["FREQ=MONTHLY", "monthly on day 1 at 09:00 (Asia/Shanghai)", "每月1日 09:00（Asia/Shanghai）"],
    [
      "FREQ=DAILY;UNTIL=20261231T000000Z",
      "daily at 09:00 (Asia/Shanghai), until 2026-12-31 08:00",
      "每天 09:00（Asia/Shanghai），直到2026-12-31 08:00",
    ],
    // The end keeps its clock time ("until 6pm"); the last minute of a day reads as the date.
    [
      "FREQ=DAILY;UNTIL=20261202T100000Z",
      "daily at 09:00 (Asia/Shanghai), until 2026-12-02 18:00",
      "每天 09:00（Asia/Shanghai），直到2026-12-02 18:00",
    ],
    [
      "FREQ=DAILY;UNTIL=20261202T155959Z",
      "daily at 09:00 (Asia/Shanghai), until 2026-12-02",
      "每天 09:00（Asia/Shanghai），直到2026-12-02",
    ],
  ];
  for (const [rrule, en, zh] of cases) {
    const series = s(canonicalRule(rrule), "2026-12-01T09:00:00", "Asia/Shanghai");
    assert.equal(describeRule(series, "en"), en, rrule);
    assert.equal(describeRule(series, "zh"), zh, rrule);
  }
  const seconds = s("FREQ=DAILY", "2026-12-01T09:00:07", "UTC");
  assert.equal(describeRule(seconds, "en"), "daily at 09:00:07 (UTC)");
});

Deno.test("a lone occurrence in a gap is released at year 9999; a rule that never matches is refused; many series stay cached", () => {
  // The last occurrence is in a DST gap and no later candidate comes to release it.
  const lone = s("FREQ=MONTHLY;INTERVAL=10000", "9500-03-11T02:30:00", "America/New_York");
  assert.deepEqual(expand(lone, "9500-01-01T00:00:00Z", 2), [
    "9500-03-11T03:30:00-04:00[America/New_York]",
  ]);
  const never = s("FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=30", "2026-02-01T09:00:00", "UTC");
  throwsCode(() => validateSeries(never), "rule_never_occurs");
  // Read from a log as written (the decoder's mustOccur: false), it simply never fires.
  validateSeries(never, { mustOccur: false });
  assert.equal(nextOccurrence(never, Date.parse("2026-01-01T00:00:00Z")), undefined);
  for (let minute = 0; minute < 300; minute++) {
    const series = s(
      "FREQ=DAILY",
      `2026-01-01T${String(minute % 24).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:${
        String(Math.floor(minute / 60)).padStart(2, "0")
      }`,
      "UTC",
    );
    validateSeries(series);
  }
});
