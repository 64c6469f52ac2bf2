/**
 * Company search timings on a large directory: `DATABASE_URL=... npm run bench:search`.
 * Each query runs 5 times; the median and the plan's scans are printed.
 */
import { createDatabase } from "../../src/store/database.js";
import { searchCompanies } from "../../src/store/company-search.js";
import { parseFilter } from "../../src/search/filter-parser.js";
import { DEFAULT_ORDER, parseOrderBy } from "../../src/search/order-by.js";

const knex = createDatabase(process.env.DATABASE_URL!);
const total = (await knex("companies").count("* as n").first())?.n;
console.log(`${total} companies`);
const cases: [string, string, string, number][] = [
  ["no filter, first page", "", "", 0],
  ["no filter, page at skip 500,000", "", "", 500_000],
  ["startswith", "startswith(CompanyName,'atlantic')", "", 0],
  ["contains", "contains(CompanyName,'fairbank')", "", 0],
  ["endswith", "endswith(CompanyName,'holdings inc.')", "", 0],
  ["eq name", "CompanyName eq 'atlantic industries llc'", "", 0],
  ["organization type", "OrganizationType eq 'PUB'", "", 0],
  ["organization type, by type", "OrganizationType eq 'PUB'", "OrganizationType desc", 0],
  ["id range", "Id ge 100000 and Id lt 100100", "Id", 0],
];
for (const [name, filter, orderBy, skip] of cases) {
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const result = await searchCompanies(
      knex,
      filter ? parseFilter(filter) : undefined,
      orderBy ? parseOrderBy(orderBy) : DEFAULT_ORDER,
      { skip: BigInt(skip), top: 100 },
    );
    times.push(performance.now() - started);
    found = result.totalCount;
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(36)} ${String(found).padStart(7)} matches  median ${times[2]!.toFixed(1).padStart(7)} ms`);
}
await knex.destroy();
