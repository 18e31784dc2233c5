/**
 * Private: the statements of one group commit of the libSQL backend. Every call of the group is
 * validated on its own against the stored lengths; the accepted rows of unfenced sessions go
 * into multi-row inserts (chunked below SQLite's bound-variable limit), and each fenced session
 * gets its own inserts guarded by its lease token inside the same write transaction
 * (`docs/long-sessions.md` §"Fenced appends").
 *
 * @module
 */
import type { Client, InStatement, InValue } from "@libsql/client";
import type { SessionHeader } from "../header.ts";
import { type CommitTarget, encodeRows, type Pending } from "../_group_commit.ts";
import { leaseHeld } from "./_libsql_read.ts";
import { guarded } from "./_libsql_errors.ts";
import { HEADER_COLUMNS, headerArgs } from "./_libsql_sql.ts";
import { type CopyRows, readCopies } from "./_libsql_copy.ts";

/** Rows per multi-row insert: 5,000 × 6 variables (+2 for a fence) stay below 32,766. */
const ROWS_PER_INSERT = 5_000;
/** Values per row: `session_id, seq, type, at, data, crc`. */
const WIDTH = 6;

const INSERT_EVENTS = "INSERT INTO events (session_id, seq, type, at, data, crc) VALUES ";
const INSERT_FENCED =
  "INSERT INTO events (session_id, seq, type, at, data, crc) SELECT * FROM (VALUES ";
const FENCE = ") WHERE EXISTS (SELECT 1 FROM session_leases WHERE session_id = ? AND token = ?)";

const insertCache = new Map<number, string>();
const fencedCache = new Map<number, string>();

/**
 * The insert of `n` rows (`(?, ?, ?, ?, ?, ?), …`), built once per size and kept as one flat
 * string: the driver reads the text of every statement it prepares.
 */
function insertSql(n: number, fenced: boolean): string {
  const cache = fenced ? fencedCache : insertCache;
  let sql = cache.get(n);
  if (sql === undefined) {
    const rows = Array.from({ length: n }, () => "(?, ?, ?, ?, ?, ?)").join(", ");
    sql = fenced ? INSERT_FENCED + rows + FENCE : INSERT_EVENTS + rows;
    cache.set(n, sql);
  }
  return sql;
}

function pushAll(into: InValue[], from: readonly InValue[]): void {
  for (let i = 0; i < from.length; i++) into.push(from[i]!);
}

function chunked(args: InValue[], fence: readonly InValue[] | undefined): InStatement[] {
  const out: InStatement[] = [];
  const per = ROWS_PER_INSERT * WIDTH;
  for (let i = 0; i < args.length; i += per) {
    const part = i === 0 && args.length <= per ? args : args.slice(i, i + per);
    const rows = part.length / WIDTH;
    out.push(
      fence === undefined
        ? { sql: insertSql(rows, false), args: part }
        : { sql: insertSql(rows, true), args: [...part, ...fence] },
    );
  }
  return out;
}

function headerStatement(
  header: SessionHeader,
  fence: readonly InValue[] | undefined,
): InStatement {
  const marks = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
  return fence === undefined
    ? {
      sql: `INSERT INTO sessions (${HEADER_COLUMNS}) VALUES (${marks})`,
      args: headerArgs(header),
    }
    : {
      sql: `INSERT INTO sessions (${HEADER_COLUMNS}) SELECT ${marks}` +
        " WHERE EXISTS (SELECT 1 FROM session_leases WHERE session_id = ? AND token = ?)",
      args: [...headerArgs(header), ...fence],
    };
}

/** A fenced session of a commit: which statement proves its lease held. */
export interface FencedSession {
  readonly id: string;
  /** Index of the statement that proves the token matched. */
  readonly probe: number;
  /** The probe is a `SELECT` (proven by a row) rather than a write (proven by rows affected). */
  readonly select: boolean;
}

/** The statements of one commit and how to read its outcome. */
export interface CommitPlan {
  readonly stmts: InStatement[];
  readonly fenced: FencedSession[];
}

function groupById(accepted: readonly Pending[]): Map<string, Pending[]> {
  const byId = new Map<string, Pending[]>();
  for (const p of accepted) {
    const list = byId.get(p.id);
    if (list === undefined) byId.set(p.id, [p]);
    else list.push(p);
  }
  return byId;
}

/**
 * Builds the statements of one commit for the accepted calls: per session its header, then its
 * fork copy's rows (read and re-checksummed under the child's id beforehand, `copies`), then the events of every unfenced session in shared multi-row inserts; a fenced session's
 * statements all carry its token guard, and its first one is the probe.
 *
 * @param accepted validated calls in queue order
 * @param fence the token held per session, `undefined` when unfenced; the function itself is
 *   `undefined` when no session is fenced (then no grouping by session is needed)
 * @param copies the rows each fork copies (`readCopies`), keyed by its call @default none
 * @returns the statements and the fenced probes
 */
export function planCommit(
  accepted: readonly Pending[],
  fence: ((id: string) => number | undefined) | undefined,
  copies: CopyRows = new Map(),
): CommitPlan {
  const stmts: InStatement[] = [];
  const fenced: FencedSession[] = [];
  const open: InValue[] = [];
  if (fence === undefined) {
    // Rows of one insert may come in any order; headers and fork copies precede it.
    for (const p of accepted) {
      if (p.header !== undefined) stmts.push(headerStatement(p.header, undefined));
      if (p.copy !== undefined) pushAll(open, copies.get(p) ?? []);
      pushAll(open, p.rows ?? encodeRows(p.id, p.events, p.texts));
    }
    stmts.push(...chunked(open, undefined));
    return { stmts, fenced };
  }
  for (const [id, calls] of groupById(accepted)) {
    const token = fence(id);
    const guard = token === undefined ? undefined : [id, token];
    const own: InValue[] = guard === undefined ? open : [];
    const probe = stmts.length;
    for (const p of calls) {
      if (p.header !== undefined) stmts.push(headerStatement(p.header, guard));
      if (p.copy !== undefined) pushAll(own, copies.get(p) ?? []);
      pushAll(own, p.rows ?? encodeRows(id, p.events, p.texts));
    }
    if (guard === undefined) continue;
    // The probe: a header insert or the first event insert (0 rows affected = lease lost); a
    // fenced append with nothing to write still proves its lease with a SELECT.
    const select = stmts.length === probe && own.length === 0;
    if (select) {
      stmts.push({
        sql: "SELECT 1 FROM session_leases WHERE session_id = ? AND token = ?",
        args: guard,
      });
    }
    stmts.push(...chunked(own, guard));
    fenced.push({ id, probe, select });
  }
  stmts.push(...chunked(open, undefined));
  return { stmts, fenced };
}

/**
 * The libSQL {@linkcode CommitTarget}: {@linkcode planCommit}'s statements in one write batch
 * (one statement alone is its own transaction: SQLite autocommit, same durability), a fenced
 * session lost when its probe matched nothing.
 *
 * @param client the one connection
 * @returns the target
 */
export function libsqlCommitTarget(client: Client): CommitTarget {
  return {
    async write(accepted, fence) {
      const plan = planCommit(accepted, fence, await readCopies(client, accepted));
      // One session's call (the group commit retries a failed group call by call) names it.
      const only = accepted.every((p) => p.id === accepted[0]?.id) ? accepted[0]?.id : undefined;
      const results = await guarded(
        only,
        async () =>
          plan.stmts.length === 1
            ? [await client.execute(plan.stmts[0]!)]
            : await client.batch(plan.stmts, "write"),
      );
      const lost = new Set<string>();
      for (const f of plan.fenced) {
        const probe = results[f.probe]!;
        if (f.select ? probe.rows.length === 0 : probe.rowsAffected === 0) lost.add(f.id);
      }
      return lost;
    },
    leaseHeld: (id, token) => leaseHeld(client, id, token),
  };
}
