/**
 * The one PostgreSQL helper of the tests: a throw-away cluster (`initdb` into a temp dir owned
 * by the `postgres` user, `pg_ctl start` on a random free loopback port and a private unix
 * socket directory), a fresh database per test, and `pg_ctl stop -m immediate` plus removal on
 * dispose. PostgreSQL refuses to run as root, so as root the binaries run through
 * `runuser -u postgres`. When no PostgreSQL is installed, {@linkcode postgresAvailable} is
 * false and the PostgreSQL lanes skip, printing one line that says so (`.ci/run` installs it).
 *
 * @module
 */
import { join } from "node:path";

/** Where Debian's `postgresql` package puts the binaries (overridable with `CHIME_PG_BIN`). */
const BIN_DIRS = [
  "/usr/lib/postgresql/17/bin",
  "/usr/lib/postgresql/16/bin",
  "/usr/lib/postgresql/15/bin",
];

function findBin(): string | undefined {
  const own = Deno.env.get("CHIME_PG_BIN");
  const dirs = own === undefined ? BIN_DIRS : [own, ...BIN_DIRS];
  for (const dir of dirs) {
    try {
      if (Deno.statSync(join(dir, "initdb")).isFile) return dir;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const BIN = findBin();
const ROOT = Deno.uid() === 0;

/** Whether a PostgreSQL server can be started here (the lanes skip otherwise). */
export const postgresAvailable: boolean = BIN !== undefined &&
  (!ROOT || (() => {
    try {
      return new Deno.Command("id", { args: ["-u", "postgres"], stdout: "null", stderr: "null" })
        .outputSync().success;
    } catch {
      return false;
    }
  })());

let said = false;

/**
 * Whether the PostgreSQL lanes run; prints once why they skip when they do not.
 *
 * @returns {@linkcode postgresAvailable}
 */
export function postgresLanes(): boolean {
  if (!postgresAvailable && !said) {
    said = true;
    console.log(
      "PostgreSQL lanes SKIPPED: no PostgreSQL server binaries (initdb) found; " +
        "`.ci/run` installs Debian's postgresql package",
    );
  }
  return postgresAvailable;
}

async function run(args: readonly string[], what: string): Promise<string> {
  const [command, ...rest] = ROOT ? ["runuser", "-u", "postgres", "--", ...args] : args;
  const out = await new Deno.Command(command!, {
    args: rest,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${what} failed: ${text}`);
  return text;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A running throw-away cluster. */
export interface PostgresCluster extends AsyncDisposable {
  /** The loopback TCP port. */
  readonly port: number;
  /** The superuser's password (`""` for a trust cluster). */
  readonly password: string;
  /**
   * A URL of a database on the cluster (created by {@linkcode PostgresCluster.database}).
   *
   * @param db the database name
   */
  url(db: string): string;
  /**
   * Creates a fresh database and returns its URL.
   *
   * @param name a prefix for the name @default "t"
   */
  database(name?: string): Promise<string>;
  /** Stops the server immediately (crash-like) and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops the server (`-m immediate`). */
  stop(): Promise<void>;
  /** Starts a stopped server. */
  start(): Promise<void>;
  /** Stops the server and removes its directory, synchronously (at process unload). */
  stopSync(): void;
}

let serial = 0;

/**
 * Starts a cluster: `initdb` (trust, or password authentication when `password` is given),
 * `pg_ctl start` on a random loopback port, its socket in the cluster's own directory.
 *
 * @param options `password` makes TCP logins require it (scram-sha-256)
 * @returns the cluster; dispose it to stop and remove it
 * @throws {Error} when PostgreSQL is not installed or does not start
 */
export async function startPostgres(options: { password?: string } = {}): Promise<PostgresCluster> {
  if (BIN === undefined) throw new Error("PostgreSQL is not installed");
  const dir = await Deno.makeTempDir({ prefix: "chime-pg-" });
  await Deno.chmod(dir, 0o755);
  const data = join(dir, "data");
  const socket = join(dir, "sock");
  await Deno.mkdir(socket);
  if (ROOT) await run_("chown", ["-R", "postgres:postgres", dir]);
  const password = options.password ?? "";
  const initArgs = [join(BIN, "initdb"), "-D", data, "-U", "postgres", "--no-sync", "-E", "UTF8"];
  if (password === "") {
    initArgs.push("-A", "trust");
  } else {
    const file = join(dir, "pw");
    await Deno.writeTextFile(file, password);
    if (ROOT) await run_("chown", ["postgres:postgres", file]);
    initArgs.push("--auth-local=trust", "--auth-host=scram-sha-256", `--pwfile=${file}`);
  }
  await run(initArgs, "initdb");
  const port = freePort();
  const ctl = (action: string, extra: string[] = []) =>
    run([join(BIN, "pg_ctl"), action, "-D", data, "-w", "-t", "60", ...extra], `pg_ctl ${action}`);
  const start = () =>
    ctl("start", [
      "-l",
      join(dir, "log"),
      "-o",
      `-p ${port} -k ${socket} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200`,
    ]).then(() => {});
  const stop = () => ctl("stop", ["-m", "immediate"]).then(() => {}, () => {});
  await start();
  const auth = password === "" ? "postgres" : `postgres:${encodeURIComponent(password)}`;
  const url = (db: string) => `postgres://${auth}@127.0.0.1:${port}/${db}`;
  return {
    port,
    password,
    url,
    async database(name = "t") {
      const db = `${name}_${Deno.pid}_${++serial}`;
      await run(
        [join(BIN, "createdb"), "-h", socket, "-p", String(port), "-U", "postgres", db],
        "createdb",
      );
      return url(db);
    },
    async restart() {
      await stop();
      await start();
    },
    stop,
    start,
    stopSync() {
      const args = [join(BIN!, "pg_ctl"), "stop", "-D", data, "-m", "immediate"];
      const [command, ...rest] = ROOT ? ["runuser", "-u", "postgres", "--", ...args] : args;
      new Deno.Command(command!, { args: rest, stdout: "null", stderr: "null" }).outputSync();
      Deno.removeSync(dir, { recursive: true });
    },
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

async function run_(command: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(command, { args, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${command} failed: ${new TextDecoder().decode(out.stderr)}`);
}

/** One cluster per test process, started on first use and stopped at unload. */
let shared: Promise<PostgresCluster> | undefined;

/**
 * The test process's shared cluster (one `initdb` per test file, not per test); each test takes
 * its own database from it with {@linkcode PostgresCluster.database}.
 *
 * @returns the cluster, stopped and removed when the process unloads
 */
export function sharedPostgres(): Promise<PostgresCluster> {
  if (shared === undefined) {
    shared = startPostgres();
    void shared.then((cluster) => {
      globalThis.addEventListener("unload", () => cluster.stopSync());
    }, () => {});
  }
  return shared;
}
