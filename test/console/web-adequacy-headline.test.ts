// Limit adequacy's headline (issue 27, item 3): none, one and many cases each read as English.
import t from "tap";
import { adequacyHeadline } from "../../src/console/web/src/figures/adequacy-headline.js";
import { parseAmount } from "../../src/console/web/src/state/amount-text.js";

const base = { clientLimit: 5_000_000, medianLimit: 10_000_000, maxLoss: 0, averageLoss: 0 };

t.test("none, one, many", async (t) => {
  t.equal(
    adequacyHeadline({ ...base, percentCovered: 0, listOfCases: [] }),
    "The peers have no loss cases to set against the client's limit of $5,000,000.",
  );
  t.equal(
    adequacyHeadline({ ...base, percentCovered: 100, listOfCases: [{ lossEventID: 1, lossAmount: 20_000 }] }),
    "The peers' one loss case, $20,000, is within the client's limit of $5,000,000.",
  );
  t.equal(
    adequacyHeadline({ ...base, percentCovered: 0, listOfCases: [{ lossEventID: 1, lossAmount: 9_000_000 }] }),
    "The peers' one loss case, $9,000,000, is above the client's limit of $5,000,000.",
  );
  t.equal(
    adequacyHeadline({
      ...base,
      percentCovered: 50,
      listOfCases: [
        { lossEventID: 1, lossAmount: 1 },
        { lossEventID: 2, lossAmount: 9e6 },
      ],
    }),
    "50% of the peers' 2 loss cases are within the client's limit of $5,000,000.",
  );
});

t.test("amounts as a broker types them (item 6)", async (t) => {
  for (const [typed, read] of [
    ["5M", "5000000"],
    ["10m", "10000000"],
    ["2.5 M", "2500000"],
    ["$250K", "250000"],
    ["1.15M", "1150000"],
    ["1,500,000", "1500000"],
    ["1.2B", "1200000000"],
    ["12.50", "12.5"],
    ["0.005k", "5"],
  ] as const) {
    t.equal(parseAmount(typed), read, `${typed} is ${read}`);
  }
  for (const bad of ["", "M", "5MM", "-5", "1.234", "1e6", "5x"])
    t.equal(parseAmount(bad), null, `“${bad}” is not an amount`);
});
