import type pg from "pg";
import { centsText, parseCents, type Cents } from "./decimal-text.js";

export type ClassName = "narrow" | "broad" | "broadest";

/** A peer group of CONVENTIONS.md, Performance measurement, found on the imported data. */
export interface PeerClass {
  name: ClassName;
  naics: string[];
  coverageId: number;
  /** `[0]` is every LOB. */
  lineOfBusinessId: number[];
  exposureRangeLow: Cents;
  exposureRangeHigh: Cents;
  /**
   * The smallest revenue of the class's NAICS strictly above the high bound, or null
   * when there is none: a high bound moved anywhere below it keeps the same peers.
   */
  nextRevenueAbove: Cents | null;
  /** The cold p95 limit before the allowance for the answer's size. */
  limitMs: number;
}

/** Issue 31's cold p95 limits (issue 13's were 5, 15 and 25 ms). */
const LIMIT_MS: Record<ClassName, number> = { narrow: 5, broad: 10, broadest: 10 };
/** 10^15 dollars, in cents: "revenues 0 to 10^15". */
const ANY_REVENUE = 10n ** 17n;

// Programs in the default window: 24 months up to the as-of date, start < effective <= as-of
// (SEMANTICS.md section 2; PostgreSQL's month arithmetic clamps the day as the rules do).
const IN_WINDOW = `p.effective_date > ($1::date - interval '24 months')::date and p.effective_date <= $1::date`;

/** The three classes, computed by SQL on the imported database. */
export async function findClasses(client: pg.Client, asOf: string): Promise<PeerClass[]> {
  const first = async <R extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<R> => {
    const row = (await client.query<R>(sql, values)).rows[0];
    if (!row) throw new Error(`no rows: the data set has no programs in the window? (${sql.trim().split("\n")[0]})`);
    return row;
  };
  const { coverage_id: coverage } = await first<{ coverage_id: number }>(
    `select p.coverage_id from programs p where ${IN_WINDOW}
     group by p.coverage_id order by count(*) desc, p.coverage_id limit 1`,
    [asOf],
  );

  const { naics3 } = await first<{ naics3: string }>(
    `select c.naics3 from programs p join companies c using (company_id)
     where ${IN_WINDOW} and p.coverage_id = $2 and c.naics3 is not null
     group by c.naics3 order by count(*) desc, c.naics3 limit 1`,
    [asOf, coverage],
  );
  const { lob } = await first<{ lob: number }>(
    `select p.line_of_business_id as lob from programs p join companies c using (company_id)
     where ${IN_WINDOW} and p.coverage_id = $2 and c.naics3 = $3
     group by p.line_of_business_id order by count(*) desc, p.line_of_business_id limit 1`,
    [asOf, coverage, naics3],
  );
  const band = await first<{ low: string; high: string }>(
    `select round(m / 2, 2)::text as low, round(m * 2, 2)::text as high from (
       select percentile_cont(0.5) within group (order by revenues)::numeric as m
       from companies where naics3 = $1 and revenues is not null) median`,
    [naics3],
  );

  const broad = await client.query<{ naics2: string }>(
    `select c.naics2 from programs p join companies c using (company_id)
     where ${IN_WINDOW} and p.coverage_id = $2 and c.naics2 is not null
     group by c.naics2 order by count(*) desc, c.naics2 limit 10`,
    [asOf, coverage],
  );
  const every = await client.query<{ naics2: string }>(
    "select distinct naics2 from companies where naics2 is not null order by naics2",
  );

  const group = (name: ClassName, naics: string[], lineOfBusinessId: number[], low: Cents, high: Cents) => ({
    name,
    naics,
    coverageId: coverage,
    lineOfBusinessId,
    exposureRangeLow: low,
    exposureRangeHigh: high,
    limitMs: LIMIT_MS[name],
  });
  const classes = [
    group("narrow", [naics3], [lob], parseCents(band.low), parseCents(band.high)),
    group("broad", broad.rows.map((r) => r.naics2).sort(), [0], 0n, ANY_REVENUE),
    group(
      "broadest",
      every.rows.map((r) => r.naics2),
      [0],
      0n,
      ANY_REVENUE,
    ),
  ];

  const found: PeerClass[] = [];
  for (const c of classes) found.push({ ...c, nextRevenueAbove: await nextRevenueAbove(client, c) }); // one client: one query at a time
  return found;
}

async function nextRevenueAbove(
  client: pg.Client,
  peerClass: Omit<PeerClass, "nextRevenueAbove">,
): Promise<Cents | null> {
  const codes2 = peerClass.naics.filter((n) => n.length === 2);
  const codes3 = peerClass.naics.filter((n) => n.length === 3);
  const { rows } = await client.query<{ next: string | null }>(
    `select min(revenues)::text as next from companies
     where revenues > $1::numeric and (naics2 = any($2::text[]) or naics3 = any($3::text[]))`,
    [centsText(peerClass.exposureRangeHigh), codes2, codes3],
  );
  const next = rows[0]?.next;
  return next ? parseCents(next) : null;
}
