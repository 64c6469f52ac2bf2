// The console's money() (src/console/web/src/figures/format.ts) against the server's
// (src/benchmark/text.ts, SEMANTICS.md 5): the same text for every amount, exactly,
// including the ones floating point rounds wrongly.
import t from "tap";
import { Decimal } from "../../src/benchmark/decimal.js";
import { money as serverMoney } from "../../src/benchmark/text.js";
import { money } from "../../src/console/web/src/figures/format.js";

t.test("rounds half away from zero on the digits, not through value * 100", async (t) => {
  // 1.005 * 100 is 100.49999999999999 in floating point: Math.round made it $1.
  t.equal(money(1.005), "$1.01");
  t.equal(money(999.995), "$1,000");
  t.equal(money(-3.455), "-$3.46");
  t.equal(money(0.004), "$0", "under half a cent is zero, without a sign");
  t.equal(money(-0.004), "$0");
});

t.test("large amounts keep every digit", async (t) => {
  // Number("12345678901234567.89") is 12345678901234568: text is formatted as text.
  t.equal(money("12345678901234567.89"), "$12,345,678,901,234,567.89");
  t.equal(money(1e21), "$1,000,000,000,000,000,000,000", "a number past 1e21 (String() writes it with an exponent)");
  t.equal(money(2 ** 53 + 2), "$9,007,199,254,740,994");
});

t.test("the spec's examples and whole dollars", async (t) => {
  t.equal(money(1_500_000), "$1,500,000");
  t.equal(money(2500.5), "$2,500.50");
  t.equal(money("5000000"), "$5,000,000");
  t.equal(money(0), "$0");
  t.equal(money(1e-7), "$0");
});

t.test("what is not an amount is a dash, not $NaN", async (t) => {
  for (const bad of ["", "abc", "1.2.3", Number.NaN, Number.POSITIVE_INFINITY])
    t.equal(money(bad), "–", JSON.stringify(String(bad)));
});

t.test("the same text as the server's money() for amounts of every size", async (t) => {
  const amounts = [
    "0",
    "0.01",
    "0.005",
    "0.015",
    "1",
    "9.99",
    "10.005",
    "123.456",
    "1000",
    "99999.995",
    "1234567.89",
    "250000000",
    "1000000000.5",
    "98765432109.876",
  ];
  for (const amount of amounts) {
    t.equal(money(amount), serverMoney(new Decimal(amount)), `${amount} as text`);
    t.equal(money(Number(amount)), serverMoney(new Decimal(amount)), `${amount} as the JSON number the API writes`);
  }
});
