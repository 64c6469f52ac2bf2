import type { Client } from "pg";
import type { DatasetFile } from "./dataset-files.js";
import { deleteUnstated, upsertAccepted } from "./merge.js";
import { chooseReplacements, worthRebuilding } from "./rebuild-plan.js";
import { buildReplacement, type Replacement } from "./table-rebuild.js";
import { swapIn } from "./table-swap.js";

/** What writing an import's tables needs, and where it records what it did. */
export interface Writing {
  client: Client;
  present: readonly DatasetFile[];
  presentFiles: ReadonlySet<string>;
  /** Per present file: counts so far; written here. */
  files: { read: number; rejected: number; inserted: number; updated: number; deleted: number }[];
  fileColumns: readonly string[][];
  replace: boolean;
  /** Runs work on file i, adding its time to the file's. */
  timed(i: number, work: () => Promise<void>): Promise<void>;
}

/**
 * Writes the accepted rows of the checked staging tables: each table is either
 * rebuilt beside the stored one and swapped in (table-rebuild.ts), or merged row by
 * row, with --replace removing the rows its file does not restate. Returns the files
 * merged (their tables need fresh statistics after the commit).
 */
export async function writeTables(writing: Writing): Promise<{ merged: DatasetFile[] }> {
  const { client, present, files, replace } = writing;
  const counts = accepted(writing);
  const chosen = await chooseReplacements(client, present, (i, stored) => worthRebuilding(replace, counts[i]!, stored));
  await write(writing, chosen);
  if (replace) {
    // Children first: their unstated rows go before the rows they point at.
    for (const [i, spec] of [...present.entries()].reverse()) {
      if (chosen.has(spec.table)) continue;
      await writing.timed(
        i,
        async () => void (files[i]!.deleted = await deleteUnstated(client, spec, writing.presentFiles)),
      );
    }
  }
  return { merged: present.filter((spec) => !chosen.has(spec.table)) };
}

function accepted(writing: Writing): number[] {
  return writing.files.map((file) => file.read - file.rejected);
}

/** Rebuilds the chosen tables and merges the others, in file order (parents first), then swaps the rebuilt ones in. */
async function write(writing: Writing, chosen: ReadonlyMap<string, number>): Promise<void> {
  const { client, present, files, fileColumns, replace } = writing;
  const replacing = new Set(chosen.keys());
  const counts = accepted(writing);
  const replacements: Replacement[] = [];
  for (const [i, spec] of present.entries()) {
    await writing.timed(i, async () => {
      const stored = chosen.get(spec.table);
      if (stored === undefined) {
        Object.assign(files[i]!, await upsertAccepted(client, spec, fileColumns[i]!));
        return;
      }
      const built = await buildReplacement(client, spec, fileColumns[i]!, {
        replace,
        stored,
        accepted: counts[i]!,
        replacing,
      });
      replacements.push(built.replacement);
      Object.assign(files[i]!, built.counts);
    });
  }
  await swapIn(client, replacements);
}
