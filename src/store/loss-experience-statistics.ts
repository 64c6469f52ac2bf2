import type { Knex } from "knex";
import { CURATED_SOURCE } from "../benchmark/contributors.js";
import { Decimal } from "../benchmark/decimal.js";
import type {
  LossExperienceFigures,
  LossExperienceSpan,
  LossExperienceStatistics,
} from "../benchmark/loss-experience-statistics.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { QuantileLevel } from "../benchmark/quantile.js";
import { toContributors } from "./contributor-counts.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { peerLosses, peerPrograms } from "./peer-filters.js";
import { quantileNeighboursSql, quantileOf } from "./sql-fragments.js";

/** The total's key beside the years': no loss or program year is 0 (DATA-FORMAT.md: dates after 1800). */
const TOTAL = 0;

const LEVELS: readonly [QuantileLevel, "firstQuartile" | "median" | "thirdQuartile"][] = [
  ["0.25", "firstQuartile"],
  ["0.5", "median"],
  ["0.75", "thirdQuartile"],
];

/**
 * A loss experience (SEMANTICS.md section 15) in one statement, exact in numeric: the
 * peer programs effective in the span's years and the peer loss events of its loss
 * years, each grouped by year and over all of them at once (grouping sets, the total
 * under key 0); the paid amounts sorted per group and their quartile neighbours taken
 * as the other operations do (sql-fragments.ts); each limit's count compared in
 * numeric, so a limit a cent either side of an amount is told apart.
 */
export async function lossExperienceStatistics(
  knex: Knex,
  peers: PeerGroup,
  span: LossExperienceSpan,
  limits: readonly Decimal[],
  options: { contributors: boolean },
): Promise<LossExperienceStatistics> {
  const keys = knex.raw("select k from generate_series(?::int, ?::int) as k union all select ?::int", [
    span.first,
    span.last,
    TOTAL,
  ]);
  // No time window: a program is in year Y when its effective date is (SEMANTICS.md section 15).
  const window = { start: `${span.first - 1}-12-31`, end: `${span.last}-12-31` };
  const programs = peerPrograms(knex, peers, window).select(
    knex.raw("extract(year from p.effective_date)::int as year"),
    "p.company_id",
    "p.source",
  );
  const losses = peerLosses(knex, peers, { kind: "range", oldest: span.first, newest: span.last }).select(
    "l.loss_year as year",
    "l.total_amount as amount",
  );
  const exceeding = limits.length
    ? `array[${limits.map(() => "count(*) filter (where amount > ?::numeric)").join(", ")}]`
    : "array[]::int8[]";
  const neighbours = LEVELS.map(
    ([p]) => `(${quantileNeighboursSql(p, "ly.sorted", "ly.paid")})::text[] as q${p.slice(2)}`,
  );
  const query = knex
    .with("keys", keys)
    .with("peers", programs)
    .with(
      "program_years",
      knex.raw(`select coalesce(year, ${TOTAL}) as k, count(*) as n from peers group by grouping sets ((year), ())`),
    )
    .with("losses", losses)
    .with(
      "loss_years",
      knex.raw(
        `select coalesce(year, ${TOTAL}) as k, count(*) as n,
          count(*) filter (where amount > 0) as paid,
          coalesce(sum(amount) filter (where amount > 0), 0) as total,
          coalesce(max(amount) filter (where amount > 0), 0) as max,
          array_agg(amount order by amount) filter (where amount > 0) as sorted,
          ${exceeding} as exceeding
        from losses group by grouping sets ((year), ())`,
        limits.map((limit) => limit.toFixed()),
      ),
    )
    .from("keys")
    .leftJoin("program_years as py", "py.k", "keys.k")
    .leftJoin("loss_years as ly", "ly.k", "keys.k")
    .select(
      "keys.k",
      knex.raw("coalesce(py.n, 0) as program_count"),
      knex.raw("coalesce(ly.n, 0) as loss_count"),
      knex.raw("coalesce(ly.paid, 0) as paid"),
      knex.raw("coalesce(ly.total, 0)::text as total"),
      knex.raw("coalesce(ly.max, 0)::text as max"),
      knex.raw("ly.exceeding::text[] as exceeding"),
      ...neighbours.map((sql) => knex.raw(sql)),
      ...coverageReferenceColumns(knex, peers.coverageId),
    )
    // The years ascending, then the total.
    .orderByRaw(`keys.k = ${TOTAL}, keys.k`);
  if (options.contributors) query.select(yearContributorColumn(knex, query));
  const rows = (await query) as Record<string, unknown>[];
  const figures = rows.map((row): LossExperienceFigures => {
    const paid = Number(row.paid);
    const statistics: LossExperienceFigures = {
      programCount: Number(row.program_count),
      lossCount: Number(row.loss_count),
      paid: {
        count: paid,
        firstQuartile: quantileOf(paid, "0.25", row.q25 as string[] | null),
        median: quantileOf(paid, "0.5", row.q5 as string[] | null),
        thirdQuartile: quantileOf(paid, "0.75", row.q75 as string[] | null),
        sum: new Decimal(row.total as string),
        max: Number(row.max),
      },
      // A year without loss events has no row of its own: nothing exceeds anything.
      exceeding: ((row.exceeding as string[] | null) ?? limits.map(() => "0")).map(Number),
    };
    if (options.contributors) statistics.contributors = toContributors(row.contributors as string[]);
    return statistics;
  });
  return {
    reference: toCoverageReference(rows[0] as Parameters<typeof toCoverageReference>[0]),
    years: figures.slice(0, -1),
    total: figures[figures.length - 1]!,
  };
}

/**
 * Who each year's programs, and all of them together, came from (peer-statistics.ts,
 * Contributors), as one int8[5] column: the peers grouped by (year, company) and by
 * (year, partner source), and again without the year for the total, read per key. No
 * source (NULL or "") is one partner source, as contributors.ts reads it.
 */
function yearContributorColumn(knex: Knex, query: Knex.QueryBuilder): Knex.Raw {
  query
    .with(
      "year_companies",
      knex.raw(
        `select coalesce(year, ${TOTAL}) as k, count(*) as n from peers group by grouping sets ((year, company_id), (company_id))`,
      ),
    )
    .with(
      "year_sources",
      knex.raw(
        `select coalesce(year, ${TOTAL}) as k, count(*) as n from peers where source is distinct from '${CURATED_SOURCE}'
          group by grouping sets ((year, coalesce(source, '')), (coalesce(source, '')))`,
      ),
    );
  return knex.raw(`array[
    (select coalesce(sum(n), 0) from year_companies c where c.k = keys.k),
    (select count(*) from year_companies c where c.k = keys.k),
    (select coalesce(sum(n), 0) from (select n from year_companies c where c.k = keys.k order by n desc limit 2) as top_two),
    (select coalesce(sum(n), 0) from year_sources s where s.k = keys.k),
    (select coalesce(max(n), 0) from year_sources s where s.k = keys.k)
  ]::int8[] as contributors`);
}
