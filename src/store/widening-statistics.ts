import type { Knex } from "knex";
import type { WideningCounts } from "../benchmark/peer-group-suggestions.js";
import {
  EXPOSURE_SHIFT,
  LINE_MOVE,
  NAICS_MOVE,
  ORGANIZATION_MOVE,
  WIDENING_CODES,
  widenedGroup,
  WIDEST,
  WINDOW_MOVE,
  withinWidening,
  type WideningSpace,
} from "../benchmark/peer-group-widening.js";
import type { CoverageReference } from "../benchmark/peer-group.js";
import { contributorColumns, toContributors } from "./contributor-counts.js";
import { coverageReferenceColumns, toCoverageReference } from "./coverage-reference.js";
import { exposureBounds, peerPrograms } from "./peer-filters.js";

/**
 * The 64 widenings of a peer group (SEMANTICS.md section 14) in one statement, the
 * reference the peer index is held to: the widest group's programs, each with the
 * widening code of the moves it needs (peer-group-widening.ts), then each candidate's
 * programs, companies and contributors as a mask over those codes
 * (contributor-counts.ts). Only fixed names and the codes are pasted in; every value
 * is a binding. Contributors are answered only when asked for, as the index does.
 */
export async function wideningStatistics(
  knex: Knex,
  space: WideningSpace,
  options: { contributors: boolean },
): Promise<WideningCounts & { reference: CoverageReference }> {
  const { peers, window } = space;
  const widest = widenedGroup(space, WIDEST);
  const parts: { sql: string; bindings: Knex.RawBinding[] }[] = [
    {
      sql: `case when c.naics2 = any(?::text[]) or c.naics3 = any(?::text[]) then 0 else ${NAICS_MOVE} end`,
      bindings: [peers.naics2, peers.naics3],
    },
    // The ranges are nested: 3 moves less each of the first three ranges that holds the exposure.
    {
      sql: `(3 - ${[0, 1, 2].map(() => `(c.${peers.exposure} between ? and ?)::int`).join(" - ")}) << ${EXPOSURE_SHIFT}`,
      bindings: [0, 1, 2].flatMap((moves) => {
        const [exposureLow, exposureHigh] = space.exposureRanges[moves]!;
        return exposureBounds({ exposure: peers.exposure, exposureLow, exposureHigh });
      }),
    },
    peers.lineOfBusinessIds.length
      ? {
          sql: `case when p.line_of_business_id = any(?::int[]) then 0 else ${LINE_MOVE} end`,
          bindings: [peers.lineOfBusinessIds],
        }
      : { sql: "0", bindings: [] },
    peers.organizationTypes.length
      ? {
          sql: `case when c.organization_type = any(?::text[]) then 0 else ${ORGANIZATION_MOVE} end`,
          bindings: [peers.organizationTypes],
        }
      : { sql: "0", bindings: [] },
    {
      sql: `case when p.effective_date > ? and p.effective_date <= ? then 0 else ${WINDOW_MOVE} end`,
      bindings: [window.start, window.end],
    },
  ];
  const code = knex.raw(
    `${parts.map((part) => `(${part.sql})`).join(" | ")} as code`,
    parts.flatMap((part) => part.bindings),
  );
  const widestRows = peerPrograms(knex, widest.peers, widest.window).select("p.company_id", "p.source", code);
  const query = knex.with("widest", widestRows);
  if (!options.contributors) {
    // Counts alone: one pass, two aggregates a candidate, no per-company groups to sort.
    const columns = [...Array(WIDENING_CODES).keys()].flatMap((candidate) => {
      const within = `code in (${codesWithin(candidate).join(", ")})`;
      return [
        knex.raw(`count(*) filter (where ${within}) as programs_${candidate}`),
        knex.raw(`count(distinct company_id) filter (where ${within}) as companies_${candidate}`),
      ];
    });
    const row = await knex.with("widest", widestRows).first([
      knex.raw("(?) as counts", [
        knex("widest")
          .first(
            knex.raw(
              `array[${[...Array(WIDENING_CODES).keys()].map((c) => `programs_${c}, companies_${c}`).join(", ")}]`,
            ),
          )
          .from(knex("widest").select(columns).as("w")),
      ]),
      ...coverageReferenceColumns(knex, peers.coverageId),
    ]);
    const counts = (row.counts as string[]).map(Number);
    return {
      reference: toCoverageReference(row),
      programs: counts.filter((_, i) => i % 2 === 0),
      companies: counts.filter((_, i) => i % 2 === 1),
    };
  }
  const masks: Record<string, string> = {};
  for (let candidate = 0; candidate < WIDENING_CODES; candidate++) {
    masks[`w${candidate}`] = `code in (${codesWithin(candidate).join(", ")})`;
  }
  const row = await query.first([
    ...contributorColumns(knex, query, "widest", masks),
    ...coverageReferenceColumns(knex, peers.coverageId),
  ]);
  const contributors = Object.keys(masks).map((name) => toContributors(row[`contributors_${name}`]));
  return {
    reference: toCoverageReference(row),
    programs: contributors.map((c) => c.programs),
    companies: contributors.map((c) => c.companies),
    contributors,
  };
}

/** The codes of the rows a candidate holds. */
function codesWithin(candidate: number): number[] {
  return [...Array(WIDENING_CODES).keys()].filter((row) => withinWidening(row, candidate));
}
