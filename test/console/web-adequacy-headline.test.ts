// Limit adequacy's headline (issue 27, item 3): none, one and many cases each read as English.
import t from "tap";
import { adequacyHeadline } from "../../src/console/web/src/figures/adequacy-headline.js";
import { paidLosses } from "../../src/console/web/src/figures/paid-losses.js";
import { parseAmount, readAmount } from "../../src/console/web/src/state/amount-text.js";

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
    // Issue 50: MM is US brokers' million, and the words are read.
    ["5MM", "5000000"],
    ["$5mm", "5000000"],
    ["5 million", "5000000"],
    ["2.5 Millions", "2500000"],
    ["250 thousand", "250000"],
    ["1.5bn", "1500000000"],
    ["1,500", "1500"],
    ["1,500.5", "1500.5"],
  ] as const) {
    t.equal(parseAmount(typed), read, `${typed} is ${read}`);
  }
  for (const bad of ["", "M", "-5", "1.234", "1e6", "5x", "5 mill", "5ms", "1,2,3"])
    t.equal(parseAmount(bad), null, `“${bad}” is not an amount`);
});

t.test("a comma that may be a decimal comma is refused with a hint, never guessed (issue 50)", async (t) => {
  // "1,5m" was read as $15,000,000 and "10,5" as $105.
  for (const ambiguous of ["1,5m", "10,5", "1,50", "1,5000", "12,34,567"]) {
    const reading = readAmount(ambiguous);
    t.match(reading, { problem: /decimal comma.*point/ }, `“${ambiguous}” refused`);
    t.equal(parseAmount(ambiguous), null);
  }
});

const zeroCases = (amounts: number[]) => amounts.map((lossAmount, i) => ({ lossEventID: i + 1, lossAmount }));

t.test("$0 cases: the paid losses lead, the API's figure over every case follows (issue 50)", async (t) => {
  // The broker's case: 35 cases, 10 closed at $0, 15 of the 25 paid within the limit.
  const cases = zeroCases([...Array(10).fill(0), ...Array(15).fill(1_000_000), ...Array(10).fill(9_000_000)]);
  const adequacy = { ...base, percentCovered: 71, listOfCases: cases };
  t.equal(
    adequacyHeadline(adequacy),
    "25 paid losses (10 cases closed at $0): 60% within the client's limit of $5,000,000; all 35 cases: 71%.",
  );
  t.same(paidLosses(adequacy), { zero: 10, paid: 25, paidWithin: 15, percentPaidWithin: 60, averagePaid: 4_200_000 });
  t.equal(
    adequacyHeadline({ ...base, percentCovered: 100, listOfCases: zeroCases([0, 0, 0]) }),
    "The peers' 3 loss cases all closed at $0: no loss was paid.",
  );
  t.equal(
    adequacyHeadline({ ...base, percentCovered: 50, listOfCases: zeroCases([0, 9_000_000]) }),
    "1 paid loss (1 case closed at $0): it is above the client's limit of $5,000,000; all 2 cases: 50%.",
  );
  // Rounded as the API rounds: half away from zero. 2 of 3 is 66.67%, 67; 1 of 8 is 12.5%, 13.
  t.equal(paidLosses({ ...base, percentCovered: 0, listOfCases: zeroCases([0, 1, 2, 9e6]) }).percentPaidWithin, 67);
  t.equal(
    paidLosses({ ...base, percentCovered: 0, listOfCases: zeroCases([0, 1, ...Array(7).fill(9e6)]) }).percentPaidWithin,
    13,
  );
  t.equal(paidLosses({ ...base, percentCovered: 0, listOfCases: zeroCases([0, 1, 2]) }).averagePaid, 2, "1.5 is 2");
});
