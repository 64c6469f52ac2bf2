import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** A fresh folder under the OS temp folder, removed when the test ends. */
export async function createTempDir(t: { teardown(fn: () => unknown): void }, prefix = "cpb-ingest-"): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
