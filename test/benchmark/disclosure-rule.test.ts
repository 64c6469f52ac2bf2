// The disclosure rule at its exact thresholds (issue 17), and the plain reading of
// who a figure's programs came from, which both engines are held to.
import t from "tap";
import { contributorsOf, topTwo } from "../../src/benchmark/contributors.js";
import { companyConditionsHold, disclosureRefusal, STANDARD_RULE } from "../../src/benchmark/disclosure-rule.js";
import type { Contributors } from "../../src/benchmark/peer-statistics.js";

/** Contributors with room to pass every condition but the one a test looks at. */
const passing: Contributors = {
  programs: 10_000,
  companies: 100,
  topTwoCompanyPrograms: 200,
  partnerPrograms: 10_000,
  largestSourcePrograms: 100,
};

t.test("at least 5 companies: 4 refused, 5 answered", async (t) => {
  t.match(disclosureRefusal(STANDARD_RULE, "programs", { ...passing, companies: 4 }), {
    condition: "min_companies",
    threshold: 5,
    message:
      "this peer group holds 4 companies; at least 5 are needed to keep contributors' programs confidential: widen the NAICS codes, the exposure range or the window",
  });
  t.equal(disclosureRefusal(STANDARD_RULE, "programs", { ...passing, companies: 5 }), undefined);
  t.match(
    disclosureRefusal(STANDARD_RULE, "limits", { ...passing, companies: 1 })?.message,
    /^this peer group's limits come from 1 company; at least 5/,
  );
  t.match(
    disclosureRefusal(STANDARD_RULE, "programs", {
      ...passing,
      programs: 0,
      companies: 0,
      topTwoCompanyPrograms: 0,
      partnerPrograms: 0,
      largestSourcePrograms: 0,
    }),
    {
      condition: "min_companies",
    },
    "an empty group too",
  );
});

t.test(
  "no partner source over 25% of the partner programs: 25% passes, 25.01% is refused; curated does not count",
  async (t) => {
    t.equal(
      disclosureRefusal(STANDARD_RULE, "premiums", {
        ...passing,
        partnerPrograms: 10_000,
        largestSourcePrograms: 2_500,
      }),
      undefined,
    );
    const refused = disclosureRefusal(STANDARD_RULE, "premiums", {
      ...passing,
      partnerPrograms: 10_000,
      largestSourcePrograms: 2_501,
    });
    t.match(refused, { condition: "max_source_share", threshold: 25 });
    t.match(refused?.message, /more than 25% of the partner data behind this peer group's premiums/);
    t.equal(
      disclosureRefusal(STANDARD_RULE, "programs", { ...passing, partnerPrograms: 0, largestSourcePrograms: 0 }),
      undefined,
      "only curated programs",
    );
  },
);

t.test("the two largest companies at most 85%: 85% passes, 85.01% is refused", async (t) => {
  t.equal(
    disclosureRefusal(STANDARD_RULE, "programs", { ...passing, programs: 10_000, topTwoCompanyPrograms: 8_500 }),
    undefined,
  );
  const refused = disclosureRefusal(STANDARD_RULE, "programs", {
    ...passing,
    programs: 10_000,
    topTwoCompanyPrograms: 8_501,
  });
  t.match(refused, {
    condition: "max_top2_share",
    threshold: 85,
    message: /^two companies hold more than 85% of this peer group's programs/,
  });
});

t.test(
  "a refusal names the threshold, never the shares found; the conditions in order; none refuses nothing",
  async (t) => {
    const refused = disclosureRefusal(STANDARD_RULE, "programs", {
      ...passing,
      programs: 1_000,
      topTwoCompanyPrograms: 937,
    })!;
    t.notMatch(refused.message, /93\.7|937/);
    t.equal(
      disclosureRefusal(STANDARD_RULE, "programs", { ...passing, companies: 3, topTwoCompanyPrograms: 10_000 })
        ?.condition,
      "min_companies",
      "first the companies",
    );
    t.equal(
      disclosureRefusal(STANDARD_RULE, "programs", {
        ...passing,
        topTwoCompanyPrograms: 10_000,
        largestSourcePrograms: 10_000,
      })?.condition,
      "max_top2_share",
      "then the top two",
    );
    const custom = {
      kind: "standard",
      minCompanies: 10,
      maxSourceShareBasisPoints: 3_333,
      maxTopTwoShareBasisPoints: 5_050,
    } as const;
    t.match(disclosureRefusal(custom, "programs", { ...passing, companies: 9 }), { threshold: 10 });
    t.match(disclosureRefusal(custom, "programs", { ...passing, programs: 100, topTwoCompanyPrograms: 51 }), {
      condition: "max_top2_share",
      threshold: 50.5,
    });
    t.equal(disclosureRefusal({ kind: "none" }, "programs", { ...passing, companies: 1 }), undefined);
  },
);

t.test("contributors: companies, the top two, partner programs and the largest partner source", async (t) => {
  const programs = [
    { companyId: 1, source: "P1" },
    { companyId: 1, source: "P1" },
    { companyId: 1, source: "curated" },
    { companyId: 2n ** 53n - 1n, source: null },
    { companyId: 3, source: "" },
    { companyId: 3, source: "P2" },
    { companyId: 4, source: "curated" },
  ];
  t.same(contributorsOf(programs), {
    programs: 7,
    companies: 4,
    topTwoCompanyPrograms: 5,
    partnerPrograms: 5,
    largestSourcePrograms: 2,
  });
  t.same(contributorsOf([]), {
    programs: 0,
    companies: 0,
    topTwoCompanyPrograms: 0,
    partnerPrograms: 0,
    largestSourcePrograms: 0,
  });
  t.same(
    contributorsOf([
      { companyId: 9, source: null },
      { companyId: 9, source: "" },
      { companyId: 9, source: "P" },
    ]).largestSourcePrograms,
    2,
    "no source, null or empty, is one source",
  );
  t.equal(topTwo([3, 9, 1, 9]), 18);
  t.equal(topTwo([4]), 4);
});

t.test("companyConditionsHold: the bound a coverage's largest company sets, and no looser", async (t) => {
  const rules = [
    STANDARD_RULE,
    { ...STANDARD_RULE, minCompanies: 1 },
    { ...STANDARD_RULE, maxTopTwoShareBasisPoints: 10_000 },
    { ...STANDARD_RULE, minCompanies: 12, maxTopTwoShareBasisPoints: 3_000 },
  ];
  for (const rule of rules) {
    for (let m = 1; m <= 12; m++) {
      for (let n = 0; n <= 80; n++) {
        const holds = companyConditionsHold(rule, n, m);
        // The worst group of n programs, no company over m: as few companies as can hold them, the two largest full.
        const worst: Contributors = {
          programs: n,
          companies: Math.ceil(n / m),
          topTwoCompanyPrograms: Math.min(n, 2 * m),
          partnerPrograms: 0,
          largestSourcePrograms: 0,
        };
        const refusedWorst = disclosureRefusal(rule, "programs", worst) !== undefined;
        if (holds === refusedWorst)
          t.fail(`n ${n}, m ${m}, ${JSON.stringify(rule)}: holds ${holds}, the worst group refused ${refusedWorst}`);
      }
    }
  }
  t.ok(companyConditionsHold(STANDARD_RULE, 338_000, 20), "a broad group");
  t.notOk(companyConditionsHold(STANDARD_RULE, 80, 20), "4 companies of 20 may hold 80");
  t.ok(companyConditionsHold(STANDARD_RULE, 81, 20), "81 need 5");
  t.notOk(companyConditionsHold(STANDARD_RULE, 0, 0), "an empty coverage: counted");
  t.ok(companyConditionsHold({ kind: "none" }, 0, 0), "none: nothing to settle");
});
