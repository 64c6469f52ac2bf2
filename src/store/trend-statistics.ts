import type { Knex } from "knex";
import { CURATED_SOURCE } from "../benchmark/contributors.js";
import type { PeerGroup } from "../benchmark/peer-group.js";
import type { QuantileLevel } from "../benchmark/quantile.js";
import type { TimeWindow } from "../benchmark/time-window.js";
import { trendSpan } from "../benchmark/trend-periods.js";
import {
  TREND_AMOUNTS,
  type PeriodStatistics,
  type QuartileStatistics,
  type TrendAmount,
  type TrendStatistics,
} from "../benchmark/trend-statistics.js";
import { toContributors } from "./contributor-counts.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { peerLosses, peerPrograms } from "./peer-filters.js";
import { quantileNeighboursSql, quantileOf, RPM_SQL } from "./sql-fragments.js";

/** Each amount's column in the `peers` CTE. */
const COLUMNS: Record<TrendAmount, string> = {
  limit: "limit_amount",
  premium: "premium",
  retention: "retention",
  rpm: "rpm",
};
const LEVELS: readonly [QuantileLevel, keyof Omit<QuartileStatistics, "count">][] = [
  ["0.25", "firstQuartile"],
  ["0.5", "median"],
  ["0.75", "thirdQuartile"],
];
/** The sets a period's figures rest on (SEMANTICS.md section 13), each a count column of the contributor CTEs. */
const SETS = ["programs", ...TREND_AMOUNTS] as const;

/**
 * A market trend (SEMANTICS.md section 13) in one statement, exact in numeric: the
 * peer programs of the whole span, each joined to its period, grouped by period; each
 * amount sorted per period and its quartile neighbours taken as the other operations
 * do (sql-fragments.ts); loss events by the date of their loss, cast to a date.
 */
export async function trendStatistics(
  knex: Knex,
  peers: PeerGroup,
  periods: readonly TimeWindow[],
  options: { contributors: boolean },
): Promise<TrendStatistics> {
  const span = trendSpan(periods);
  // Arrays travel as array literals: Knex expands a JS array binding into a list.
  const periodRows = knex.raw("select * from unnest(?::int[], ?::date[], ?::date[]) as t(k, after, until)", [
    `{${periods.map((_, k) => k).join(",")}}`,
    `{${periods.map((p) => p.start).join(",")}}`,
    `{${periods.map((p) => p.end).join(",")}}`,
  ]);
  const programs = peerPrograms(knex, peers, span)
    .joinRaw("join periods as pe on p.effective_date > pe.after and p.effective_date <= pe.until")
    .select(
      "pe.k",
      "p.company_id",
      "p.source",
      "p.limit_amount",
      "p.premium",
      "p.retention",
      knex.raw(`case when p.premium is not null and p.limit_amount > 0 then ${RPM_SQL} end as rpm`),
    );
  // A loss's year is its loss date's, so the span's years bound the scan (the year index serves).
  const losses = peerLosses(knex, peers, {
    kind: "range",
    oldest: Number(span.start.slice(0, 4)),
    newest: Number(span.end.slice(0, 4)),
  })
    .joinRaw(
      "join periods as pe on coalesce(l.accident_date, l.filing_date)::date > pe.after and coalesce(l.accident_date, l.filing_date)::date <= pe.until",
    )
    .groupBy("pe.k")
    .select("pe.k", knex.raw("count(*) as n"));
  const sorted = Object.values(COLUMNS).flatMap((column) => [
    `count(${column}) as n_${column}`,
    `array_agg(${column} order by ${column}) filter (where ${column} is not null) as s_${column}`,
  ]);
  const neighbours = Object.values(COLUMNS).flatMap((column) => [
    `n_${column}`,
    // As text: pg parses numeric[] through parseFloat, which loses digits past 15.
    ...LEVELS.map(
      ([p]) => `(${quantileNeighboursSql(p, `s_${column}`, `n_${column}`)})::text[] as q${p.slice(2)}_${column}`,
    ),
  ]);
  const query = knex
    .with("periods", periodRows)
    .with("peers", programs)
    .with(
      "sorted",
      knex.raw(
        `select k, count(*) as n, count(distinct company_id) as companies, ${sorted.join(", ")} from peers group by k`,
      ),
    )
    .with("stats", knex.raw(`select k, n, companies, ${neighbours.join(", ")} from sorted`))
    .with("losses", losses)
    .from("periods")
    .leftJoin("stats", "stats.k", "periods.k")
    .leftJoin("losses", "losses.k", "periods.k")
    .select(
      "periods.k",
      "stats.*",
      knex.raw("losses.n as loss_count"),
      ...coverageReferenceColumns(knex, peers.coverageId),
    )
    .orderBy("periods.k");
  if (options.contributors) query.select(periodContributorColumns(knex, query));
  const rows = await query;
  return {
    reference: toCoverageReference(rows[0]),
    periods: rows.map((row): PeriodStatistics => {
      const amount = (name: TrendAmount): QuartileStatistics => {
        const column = COLUMNS[name];
        const n = Number(row[`n_${column}`] ?? 0);
        const statistics = { count: n } as QuartileStatistics;
        for (const [p, key] of LEVELS) statistics[key] = quantileOf(n, p, row[`q${p.slice(2)}_${column}`]);
        return statistics;
      };
      return {
        programCount: Number(row.n ?? 0),
        companyCount: Number(row.companies ?? 0),
        amounts: Object.fromEntries(TREND_AMOUNTS.map((name) => [name, amount(name)])) as Record<
          TrendAmount,
          QuartileStatistics
        >,
        lossCount: Number(row.loss_count ?? 0),
        ...(options.contributors && {
          contributors: Object.fromEntries(
            SETS.map((set) => [set, toContributors(row[`contributors_${set}`])]),
          ) as NonNullable<PeriodStatistics["contributors"]>,
        }),
      };
    }),
  };
}

/**
 * Who each set of each period rests on (peer-statistics.ts, Contributors), as one
 * int8[5] column per set: the peers grouped by (period, company) and by (period,
 * partner source), read per period. The reference the index's counts are held to;
 * no source (NULL or "") is one partner source, as contributors.ts reads it.
 */
function periodContributorColumns(knex: Knex, query: Knex.QueryBuilder): Knex.Raw[] {
  const count = (set: (typeof SETS)[number]) => (set === "programs" ? "count(*)" : `count(${COLUMNS[set]})`);
  const counts = SETS.map((set) => `${count(set)} as n_${set}`).join(", ");
  query
    .with("period_companies", knex.raw(`select k, ${counts} from peers group by k, company_id`))
    .with(
      "period_sources",
      knex.raw(
        `select k, ${counts} from peers where source is distinct from '${CURATED_SOURCE}' group by k, coalesce(source, '')`,
      ),
    );
  return SETS.map((set) =>
    knex.raw(`array[
      (select coalesce(sum(n_${set}), 0) from period_companies c where c.k = periods.k),
      (select count(*) filter (where n_${set} > 0) from period_companies c where c.k = periods.k),
      (select coalesce(sum(n_${set}), 0) from (select n_${set} from period_companies c where c.k = periods.k order by n_${set} desc limit 2) as top_two),
      (select coalesce(sum(n_${set}), 0) from period_sources s where s.k = periods.k),
      (select coalesce(max(n_${set}), 0) from period_sources s where s.k = periods.k)
    ]::int8[] as contributors_${set}`),
  );
}
