import type pg from "pg";

/** Ids and name words the lookups and searches ask for, all held by the database. */
export interface LookupSamples {
  companyIds: number[];
  lossEventIds: number[];
  nameWords: string[];
}

const SAMPLED = 2_000;

/**
 * Drawn from the imported data rather than guessed from row counts, so a folder whose
 * ids are not 1..n gives no 404 (every answer but a 200 is an error of the soak). The
 * soak re-imports the same folder, so what is sampled once stays there.
 */
export async function sampleLookups(client: pg.Client): Promise<LookupSamples> {
  const ids = async (sql: string) => (await client.query<{ id: string }>(sql)).rows.map((r) => Number(r.id));
  const companyIds = await ids(`select company_id as id from companies order by random() limit ${SAMPLED}`);
  const lossEventIds = await ids(`select loss_event_id as id from loss_events order by random() limit ${SAMPLED}`);
  const names = await client.query<{ word: string }>(
    `select word from (select distinct split_part(company_name, ' ', 1) as word from companies) words order by random() limit ${SAMPLED}`,
  );
  const nameWords = names.rows.map((r) => r.word).filter((w) => w.length >= 2);
  if (!companyIds.length || !lossEventIds.length || !nameWords.length)
    throw new Error("the database holds no companies or no losses to look up");
  return { companyIds, lossEventIds, nameWords };
}
