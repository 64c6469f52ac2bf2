import t from "tap";
import * as odataQuery from "odata-query";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { CompanyService } from "../../gen/commercialpolicybenchmark/v2/company_pb.js";
import { createTestDatabase } from "../helpers/database.js";
import { startTestServer } from "../helpers/server.js";
import { insertNamedCompanies } from "../fixtures/company-names-fixture.js";

const P = "/commercialpolicybenchmark/v2.0";
// odata-query types itself as CommonJS while Node loads its ES module: the builder is the default export.
const buildQuery = odataQuery.default as unknown as typeof odataQuery.default.default;

t.test("company search", async (t) => {
  const { knex } = await createTestDatabase(t);
  await insertNamedCompanies(knex);
  const server = await startTestServer(t, knex);
  const search = async (query: string) => {
    const res = await fetch(`${server.url}${P}/company${query}`);
    return {
      status: res.status,
      body: (await res.json()) as { data?: { id: number }[]; errors?: unknown[]; totalCount?: number },
    };
  };
  const ids = async (query: string) => {
    const answer = await search(query);
    t.equal(answer.status, 200, query);
    return answer.body.data?.map((row) => row.id);
  };
  const filtered = (filter: string, extra = "") => ids(`?$filter=${encodeURIComponent(filter)}${extra}`);

  t.test("the page object, in the default order: lower-cased names by code point, ties by id", async (t) => {
    const answer = await search("?$top=4&$skip=2");
    t.same(answer.body, {
      hasMoreResults: true,
      pageIndex: 0,
      pageSize: 4,
      skip: 2,
      take: 4,
      totalCount: 12,
      data: [
        { id: 10, companyName: "Acme Holdings, Inc.", organizationType: "PUB" },
        { id: 11, companyName: "acme tools", organizationType: "PRV" },
        { id: 21, companyName: "acme tools", organizationType: "NFP" },
        { id: 12, companyName: "ACME Zeta", organizationType: "PSB" },
      ],
    });
    // "  padded" (space first), "100%", acme x4, bank, istanbul (İ lower-cases to i), müller, o'brien, zürich, ábaco (U+00E1 > z)
    t.same(await ids(""), [20, 15, 10, 11, 21, 12, 19, 18, 17, 16, 14, 13]);
    t.same(await ids("?$orderby=CompanyName%20DESC,%20id%20desc&$top=3"), [13, 14, 16]);
    t.same(
      await ids("?%24orderBy=OrganizationType,Id%20desc"),
      [21, 20, 18, 17, 16, 15, 13, 11, 12, 19, 14, 10],
      "NFP, PRV, PSB, PUB",
    );
    const last = await search("?$skip=10&$top=5");
    t.match(last.body, { hasMoreResults: false, pageIndex: 2, skip: 10, take: 5, totalCount: 12 });
    t.match(
      (await search("?$top=0&$skip=3")).body,
      { hasMoreResults: true, pageIndex: 0, pageSize: 0, data: [] },
      "top 0: counts only",
    );
    t.match((await search("?$skip=99")).body, { hasMoreResults: false, totalCount: 12, data: [] });
    const farSkip = await fetch(`${server.url}${P}/company?$skip=9007199254740993&$top=1`);
    t.match(await farSkip.text(), /"skip":9007199254740993,/, "$skip past 2^53 is echoed exactly, as over gRPC");
  });

  t.test("filters: case-insensitive, accents, wildcards and quotes taken literally", async (t) => {
    t.same(await filtered("startswith(CompanyName,'acme')"), [10, 11, 21, 12]);
    t.same(await filtered("STARTSWITH(companyname, 'ACME T')"), [11, 21]);
    t.same(await filtered("contains(CompanyName,'%')"), [15], "% is a character, not a wildcard");
    t.same(await filtered("contains(CompanyName,'_')"), [15], "_ too");
    t.same(await filtered("endswith(CompanyName,'GMBH')"), [17]);
    t.same(await filtered("CompanyName eq 'ZÜRICH PARTNERS'"), [14], "non-ASCII case-insensitively");
    t.same(await filtered("CompanyName eq 'O''Brien & Sons'"), [16]);
    t.same(await filtered("startswith(CompanyName,'i')"), [18], "İ lower-cases to i (simple case mapping)");
    t.same(await filtered("CompanyName gt 'z'"), [14, 13], "by code point: ábaco after zürich");
    t.same(await filtered("trim(CompanyName) eq 'padded name'"), [20]);
    t.same(await filtered("toupper(CompanyName) eq 'müller gmbh'"), [17]);
    t.same(await filtered("OrganizationType eq 'pub'"), [10, 19, 14]);
    t.same(await filtered("OrganizationType in ('psb', 'NFP')"), [21, 12]);
    t.same(await filtered("Id in (10, 12) or Id ge 20", "&$orderBy=Id"), [10, 12, 20, 21]);
    t.same(await filtered("not startswith(CompanyName,'a') and OrganizationType ne 'PRV'"), [19, 14]);
    t.same(await filtered("CompanyName eq null or Id eq null"), [], "no company lacks a name or an id");
    t.same(await filtered("CompanyName ne null and Id lt 12", "&$orderBy=Id"), [10, 11]);
  });

  t.test("filters built by an OData client library (odata-query) find the right rows", async (t) => {
    const cases: [Parameters<typeof buildQuery>[0], number[]][] = [
      [{ filter: { CompanyName: { startswith: "O'Brien" } } }, [16]],
      [{ filter: { and: [{ OrganizationType: "PUB" }, { Id: { gt: 10 } }] }, orderBy: "Id desc" }, [19, 14]],
      [{ filter: { OrganizationType: { in: ["PSB", "NFP"] } }, orderBy: ["Id asc"] }, [12, 21]],
      [{ filter: { not: { CompanyName: { contains: "acme" } } }, top: 2, skip: 1 }, [15, 19]],
      [{ filter: { "tolower(CompanyName)": { eq: "müller gmbh" } } }, [17]],
    ];
    for (const [query, expected] of cases) {
      const text = buildQuery(query);
      t.same(await ids(new URL(`http://x/${text}`).search), expected, text);
    }
  });

  t.test("bad queries: a 400 naming the parameter, with the position", async (t) => {
    const answer = await search(`?$filter=${encodeURIComponent("Revenue gt 5")}`);
    t.same(answer, {
      status: 400,
      body: {
        status: 400,
        code: "invalid_argument",
        title: "Bad Request",
        detail: "1 input is invalid",
        errors: [{ field: "$filter", message: "unknown property 'Revenue' at 0", position: 0 }],
      },
    });
    t.same((await search("?$orderBy=Name&$skip=-1&$top=1001&$filter=Id%20eq")).body.errors, [
      { field: "$filter", message: "unexpected end of filter at 5", position: 5 },
      { field: "$orderBy", message: "unknown property 'Name' at 0", position: 0 },
      { field: "$skip", message: "must be 0 or more, not -1" },
      { field: "$top", message: "must be from 0 to 1000, not 1001" },
    ]);
    t.same((await search("?$top=ten")).body.errors, [{ field: "$top", message: '"ten" is not an integer' }]);
    t.same((await search("?$orderBy=Id%20up")).body.errors, [
      { field: "$orderBy", message: "expected asc or desc instead of 'up' at 3", position: 3 },
    ]);
  });

  t.test("injection attempts: a 400 or a correct empty answer, and the data untouched", async (t) => {
    const attempts = [
      "CompanyName eq 'x'' or ''1''=''1'",
      "CompanyName eq 'a'; drop table companies; --",
      "CompanyName eq 'a' -- ",
      "CompanyName eq 'a' /* */",
      "Id eq 1 union select 1",
      "Id eq 1; delete from companies",
      "CompanyName eq ʼxʼ",
      "Id eq １",
      "contains(CompanyName, '''; drop table companies; --')",
      "startswith(CompanyName, '\\'')",
      "CompanyName eq '\u0000'",
      `CompanyName eq '${"x".repeat(5000)}'`,
      `${"(".repeat(500)}Id eq 1${")".repeat(500)}`,
      "companies.company_name eq 'x'",
      "pg_sleep(10) eq 1",
    ];
    for (const filter of attempts) {
      const answer = await search(`?$filter=${encodeURIComponent(filter)}`);
      t.ok(
        answer.status === 400 || (answer.status === 200 && answer.body.totalCount === 0),
        `${JSON.stringify(filter.slice(0, 60))}: ${answer.status}`,
      );
    }
    for (const query of [
      "?$orderBy=Id;drop%20table%20companies",
      "?$orderBy=company_id",
      "?$top=1;delete",
      "?$skip=1%20or%201=1",
    ]) {
      t.equal((await search(query)).status, 400, query);
    }
    t.equal((await knex("companies").count("* as n").first())?.n, "12", "every company is still there");
  });

  t.test("gRPC answers the same page", async (t) => {
    const client = createClient(CompanyService, createGrpcTransport({ baseUrl: server.url }));
    const page = await client.searchCompanies({ filter: "startswith(CompanyName,'acme')", orderBy: "Id desc", top: 2 });
    t.same(
      page.data.map((row) => row.id),
      [21n, 12n],
    );
    t.equal(page.totalCount, 4n);
    t.equal(page.hasMoreResults, true);
  });
});
