import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { MarketTrendService } from "../../gen/commercialpolicybenchmark/v2/trend_pb.js";
import type { DisclosureRule } from "../benchmark/disclosure-rule.js";
import { trendAnswer, type AnsweredQuartiles } from "../benchmark/market-trend.js";
import type { PeerEngine } from "../benchmark/peer-engine.js";
import { readPeerGroup } from "../benchmark/peer-group.js";
import { readTrendShape, trendPeriods } from "../benchmark/trend-periods.js";
import { decimalTexts } from "../rpc/decimal-texts.js";
import { assertCoverageReference, rejectInput, startValidation } from "./input-validation.js";

/**
 * The market trend (SEMANTICS.md section 13): the peer group read as the POST
 * assessment reads it (section 11, the same 400s), its periods, and the figures of
 * each. Under the disclosure rule a period is withheld, never the request: the rule
 * is applied per period (market-trend.ts), so the DisclosureGuard, which refuses whole
 * calls, is not used here.
 */
export function createMarketTrendService(
  engine: PeerEngine,
  asOf: () => string,
  rule: DisclosureRule,
): ServiceImpl<typeof MarketTrendService> {
  return {
    async getMarketTrend(req, ctx: HandlerContext) {
      const problems = startValidation(ctx, req);
      const peers = readPeerGroup(req, problems, decimalTexts(ctx));
      const shape = readTrendShape(req, problems);
      if (!peers || !shape || !problems.empty) return rejectInput(engine, req, problems);
      const periods = trendPeriods(asOf(), shape);
      const statistics = await engine.trend(peers, periods);
      assertCoverageReference(ctx, req, statistics.reference, problems);
      return {
        periodMonths: shape.periodMonths,
        periods: trendAnswer(periods, statistics.periods, rule).map(
          ({ periodStart, periodEnd, lossCount, figures, withheld }) => ({
            periodStart,
            periodEnd,
            lossCount: BigInt(lossCount),
            withheld,
            ...(figures && {
              programCount: BigInt(figures.programCount),
              companyCount: BigInt(figures.companyCount),
              limit: quartiles(figures.amounts.limit),
              premium: quartiles(figures.amounts.premium),
              retention: quartiles(figures.amounts.retention),
              rpm: quartiles(figures.amounts.rpm),
              limitMedianChangePercent: figures.changes.limit,
              premiumMedianChangePercent: figures.changes.premium,
              rpmMedianChangePercent: figures.changes.rpm,
            }),
          }),
        ),
      };
    },
  };
}

/** Unset optional fields are the answer's nulls (json-writer.ts). */
function quartiles({ count, ...levels }: AnsweredQuartiles) {
  return { count: BigInt(count), ...levels };
}
