import { create, type MessageInitShape } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import { outsideAnyCall } from "../load-control/caller-watch.js";
import { tellDatasetVersion } from "../rpc/dataset-version.js";
import {
  ReferenceDataSchema,
  type ReferenceData,
  type ReferenceService,
} from "../../gen/commercialpolicybenchmark/v2/reference_pb.js";
import { naicsSectorTitle, naicsSubsectorTitle } from "../reference/naics-titles.js";
import { organizationTypeName } from "../reference/organization-types.js";
import { readDatasetVersion, readReferenceRows, type ReferenceRows } from "../store/reference-data.js";

/** An answer and the dataset version it was read from. */
interface Kept {
  version: number;
  answer: ReferenceData;
}

/**
 * The reference data of the pickers (coverages and their lines of business, the
 * organization types and NAICS sectors of the companies). It changes only with the
 * data set, so it is read once per dataset version and kept: the version the watcher
 * heard (`datasetVersion`, no round trip), else the one the database holds now.
 * Concurrent calls of a version not yet read share one read.
 */
export function createReferenceService(
  knex: Knex,
  datasetVersion?: () => number | undefined,
): ServiceImpl<typeof ReferenceService> {
  let kept: Kept | undefined;
  let reading: Promise<Kept> | undefined;

  function read(): Promise<Kept> {
    // Shared by every caller waiting, so no single caller's cancellation ends it: read as
    // no call's, or the first caller leaving would cancel the statement for all (caller-watch.ts).
    reading ??= outsideAnyCall(() => readReferenceRows(knex))
      .then((rows) => ({ version: rows.datasetVersion, answer: create(ReferenceDataSchema, referenceAnswer(rows)) }))
      .finally(() => {
        reading = undefined;
      });
    return reading;
  }

  async function answerFor(known: number): Promise<ReferenceData> {
    if (kept?.version === known) return kept.answer;
    let fresh = await read();
    // A read this caller joined may have begun before the version it knows of: read once more.
    // A newer one (the watcher has not heard of it yet) is answered: it is the data now.
    if (fresh.version < known) fresh = await read();
    kept = fresh;
    return fresh.answer;
  }

  return {
    async getReferenceData(_req, ctx) {
      const answer = await answerFor(datasetVersion?.() ?? (await readDatasetVersion(knex)));
      tellDatasetVersion(ctx, answer.datasetVersion);
      return answer;
    },
  };
}

/** The answer from the rows: lines of business under their coverage, subsectors under their sector, every list by id or code. */
export function referenceAnswer(rows: ReferenceRows): MessageInitShape<typeof ReferenceDataSchema> {
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const subsectors = [...rows.naics3].sort(byCode);
  const linesOf = new Map<number, { lineOfBusinessId: number; name: string }[]>();
  for (const { lineOfBusinessId, coverageId, name } of rows.linesOfBusiness) {
    const lines = linesOf.get(coverageId);
    if (lines) lines.push({ lineOfBusinessId, name });
    else linesOf.set(coverageId, [{ lineOfBusinessId, name }]);
  }
  return {
    coverages: rows.coverages.map(({ coverageId, name }) => ({
      coverageId,
      name,
      linesOfBusiness: linesOf.get(coverageId) ?? [],
    })),
    organizationTypes: [...rows.organizationTypes]
      .sort(byCode)
      .map((code) => ({ code, name: organizationTypeName(code) })),
    naicsSectors: [...rows.naics2].sort(byCode).map((code) => ({
      code,
      name: naicsSectorTitle(code),
      subsectors: subsectors
        .filter((subsector) => subsector.startsWith(code))
        .map((subsector) => ({ code: subsector, name: naicsSubsectorTitle(subsector) })),
    })),
    datasetVersion: BigInt(rows.datasetVersion),
  };
}
