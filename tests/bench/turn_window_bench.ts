/**
 * Turns through the host on a long session (a plain script, not `Deno.bench`): for sessions of
 * 10,000 and 1,000,000 stored events (turn-shaped: prompt, turn, step, tool call and result,
 * answer), in a fresh child process each so RSS is its own, a real server (`startServer`,
 * default config, offline model, libSQL file) resumes the session over HTTP and takes 10
 * messages, one turn at a time. Storage is wrapped to count the events each read returns.
 *
 * Printed per size: RSS after the resume and after the 10 turns (and the growth), the events
 * read from storage by the first turn and the largest number read by a later one, against the
 * events each turn appended, and the events the agent's window holds (the memory kept per live
 * session for its model requests, docs/long-sessions.md "Model context within a budget").
 *
 * Run: `deno run -A tests/bench/turn_window_bench.ts [sizes…]`
 *
 * @module
 */
import { createClient } from "@libsql/client";
import { loadConfig, startServer } from "@chime/host";
import { LibsqlBackend, type PersistenceBackend, type SessionHeader } from "@chime/session";
import { ROOT } from "../host/_server.ts";
import { upgradeWithChecksums } from "../../session/libsql/_libsql_upgrade.ts";

const ID = "long";
const TURNS = 10;

/** One size's figures. */
interface Measured {
  readonly events: number;
  readonly rssResumedMb: number;
  readonly rssAfterMb: number;
  readonly firstRead: number;
  readonly laterReadMax: number;
  readonly appendedMax: number;
}

/** Stores a turn-shaped session of `count` events with one bulk `INSERT … SELECT`. */
async function build(url: string, count: number): Promise<void> {
  const header: SessionHeader = {
    version: 1,
    id: ID,
    cwd: "/",
    createdAt: "2026-01-01T00:00:00.000Z",
    origin: "bench",
    lineage: null,
    delegationDepth: 0,
    timeZone: "UTC",
  };
  {
    await using backend = await LibsqlBackend.open({ url });
    await backend.initialize(header, []);
  }
  const client = createClient({ url });
  try {
    await client.execute({
      sql: `WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < ? - 1)
        INSERT INTO events (session_id, seq, type, at, data)
        SELECT ?, x, CASE x % 8 WHEN 0 THEN 'user-rpc' WHEN 1 THEN 'turn/start'
          WHEN 2 THEN 'step/start' WHEN 3 THEN 'assistant/message' WHEN 4 THEN 'tool/call'
          WHEN 5 THEN 'tool/result' WHEN 6 THEN 'assistant/message' ELSE 'turn/end' END,
        '2026-01-01T00:00:00.000Z',
        CASE x % 8
          WHEN 0 THEN '{"messageId":"m' || (x / 8) || '","text":"question ' || (x / 8) ||
            ': what is on my list today?","source":{"kind":"web"}}'
          WHEN 1 THEN '{"turnId":"t' || (x / 8) || '"}'
          WHEN 2 THEN '{"turnId":"t' || (x / 8) || '","step":0,"messageIds":["m' || (x / 8) || '"]}'
          WHEN 3 THEN '{"turnId":"t' || (x / 8) || '","text":"","toolCalls":[{"id":"c' ||
            (x / 8) || '","name":"list","arguments":"{}"}]}'
          WHEN 4 THEN '{"turnId":"t' || (x / 8) || '","callId":"c' || (x / 8) ||
            '","name":"list","args":{}}'
          WHEN 5 THEN '{"turnId":"t' || (x / 8) || '","callId":"c' || (x / 8) ||
            '","result":{"ok":true,"n":' || (x / 8) || '}}'
          WHEN 6 THEN '{"turnId":"t' || (x / 8) || '","text":"answer ' || (x / 8) ||
            ': nothing due."}'
          ELSE '{"turnId":"t' || (x / 8) || '","outcome":"completed"}' END
        FROM n`,
      args: [count, ID],
    });
    // Bulk SQL rows have no checksum yet: compute each once, as the v16 upgrade does.
    await upgradeWithChecksums(client, []);
  } finally {
    client.close();
  }
}

/** The backend, adding the events each read returns to `counter.events`. */
function counting(backend: LibsqlBackend, counter: { events: number }): PersistenceBackend {
  const reads = new Set(["readEvents", "readByType", "tail", "load"]);
  return new Proxy(backend, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (typeof key !== "string" || !reads.has(key)) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        if (Array.isArray(result)) counter.events += result.length;
        else if (Array.isArray(result?.events)) counter.events += result.events.length;
        return result;
      };
    },
  });
}

async function post(url: string, body: unknown): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  await response.body?.cancel();
}

const mb = () => Deno.memoryUsage().rss / 1024 / 1024;

async function child(events: number): Promise<Measured> {
  const dir = await Deno.makeTempDir({ prefix: "chime-turn-bench-" });
  try {
    const url = `file:${dir}/chime.db`;
    await build(url, events);
    const counter = { events: 0 };
    const config = await loadConfig(`${ROOT}/config/default.jsonc`, { dataDir: dir });
    await using server = await startServer({
      config,
      port: 0,
      backend: counting(await LibsqlBackend.open({ url }), counter),
      reportError: () => {},
    });
    await post(`${server.url}api/sessions/${ID}/resume`, {});
    const session = server.runtime.store.liveSessions().find((s) => s.id === ID)!;
    const rssResumedMb = mb();
    const reads: number[] = [];
    const appended: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      const ended = Promise.withResolvers<void>();
      using _ = session.subscribe((event) => {
        if (event.type === "turn/end") ended.resolve();
      });
      const before = counter.events;
      const length = session.length;
      await post(`${server.url}api/sessions/${ID}/messages`, {
        text: `message ${i}: what is on my list?`,
        clientTimeZone: "UTC",
      });
      await ended.promise;
      reads.push(counter.events - before);
      appended.push(session.length - length);
    }
    await server.runtime.store.flush(session);
    return {
      events,
      rssResumedMb,
      rssAfterMb: mb(),
      firstRead: reads[0]!,
      laterReadMax: Math.max(...reads.slice(1)),
      appendedMax: Math.max(...appended),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (Deno.args[0] === "--child") {
  console.log(JSON.stringify(await child(Number(Deno.args[1]))));
} else {
  const sizes = Deno.args.length > 0 ? Deno.args.map(Number) : [10_000, 1_000_000];
  console.log(
    "| stored events | RSS after resume | after 10 turns | growth (target ≤ 20 MB) | " +
      "events read, turn 1 | events read, later turns (max) | appended per turn (max) |\n" +
      "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const size of sizes) {
    const { stdout, code } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(import.meta.url).pathname, "--child", String(size)],
      stderr: "inherit",
    }).output();
    if (code !== 0) Deno.exit(code);
    const m: Measured = JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").at(-1)!);
    console.log(
      `| ${m.events.toLocaleString("en")} | ${m.rssResumedMb.toFixed(0)} MB | ` +
        `${m.rssAfterMb.toFixed(0)} MB | ${(m.rssAfterMb - m.rssResumedMb).toFixed(1)} MB | ` +
        `${m.firstRead} | ${m.laterReadMax} | ${m.appendedMax} |`,
    );
  }
}
