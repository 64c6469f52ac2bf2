import { writeFile } from "node:fs/promises";
import path from "node:path";
import t from "tap";
import { importDataset } from "../../src/ingest/import-dataset.js";
import { createTestDatabase } from "../helpers/database.js";
import { createTempDir } from "./helpers/temp-dir.js";

// DATA-FORMAT.md, Files: BOM allowed, columns by header name in any order, unknown
// columns ignored, RFC 4180 quoting with newlines, empty field = null.
t.test("a hand-written folder with every CSV liberty the format allows imports correctly", async (t) => {
  const { knex } = await createTestDatabase(t);
  const dir = await createTempDir(t);
  const write = (file: string, text: string): Promise<void> => writeFile(path.join(dir, file), text);

  await write("coverages.csv", "\uFEFFname,comment,coverage_id\r\nDirectors & Officers,ignored,1\r\nCyber,,2\r\n");
  await write(
    "lines_of_business.csv",
    'coverage_id,name,line_of_business_id\n1,Side A,10\n2,"Network Security, Privacy",20\n',
  );
  await write(
    "companies.csv",
    [
      "\uFEFFemployees,revenues,naics,organization_type,company_name,company_id,unused",
      '250,1234.565,524126,pub,"Smith, ""Jones"" & Co.",1,x',
      ',0.005,,prv,"Société Générale\nde Müller",2,',
      "",
      ",,54,NFP,Straße Foundation,3,",
    ].join("\n"),
  );
  await write(
    "programs.csv",
    "source,retention,premium,limit,effective_date,line_of_business_id,coverage_id,company_id,program_id\n" +
      "P001,0,12345.675,1000000,2026-01-01,10,1,1,7\n" +
      ",,,,2025-06-30,20,2,2,8\n",
  );
  await write(
    "losses.csv",
    "description,total_amount,status,filing_date,accident_date,loss_type,loss_category,line_of_business_id,coverage_id,company_id,loss_event_id\n" +
      '"Initial notice: ransomware.\r\nUpdate: ""settled"", finally",250000,Settled,2024-03-01T10:15:30,2023-12-31,Ransomware,Data Breach,20,2,2,5\n' +
      ",0,Dismissed,2022-01-01,,Stock Drop,Securities Class Action,10,1,1,6\n",
  );

  const summary = await importDataset(knex, dir);
  t.same(
    summary.files.map(({ file, read, inserted }) => [file, read, inserted]),
    [
      ["coverages.csv", 2, 2],
      ["lines_of_business.csv", 2, 2],
      ["companies.csv", 3, 3],
      ["programs.csv", 2, 2],
      ["losses.csv", 2, 2],
    ],
  );

  t.same(await knex("coverages").orderBy("coverage_id"), [
    { coverage_id: 1, name: "Directors & Officers" },
    { coverage_id: 2, name: "Cyber" },
  ]);
  t.same(await knex("lines_of_business").orderBy("line_of_business_id"), [
    { line_of_business_id: 10, coverage_id: 1, name: "Side A" },
    { line_of_business_id: 20, coverage_id: 2, name: "Network Security, Privacy" },
  ]);
  t.same(
    await knex("companies")
      .orderBy("company_id")
      .select(
        "company_id",
        "company_name",
        "organization_type",
        "naics",
        "naics2",
        "revenues",
        "employees",
        "market_cap",
      ),
    [
      {
        company_id: "1",
        company_name: 'Smith, "Jones" & Co.',
        organization_type: "PUB",
        naics: "524126",
        naics2: "52",
        revenues: "1234.57",
        employees: "250",
        market_cap: null,
      },
      {
        company_id: "2",
        company_name: "Société Générale\nde Müller",
        organization_type: "PRV",
        naics: null,
        naics2: null,
        revenues: "0.01",
        employees: null,
        market_cap: null,
      },
      {
        company_id: "3",
        company_name: "Straße Foundation",
        organization_type: "NFP",
        naics: "54",
        naics2: "54",
        revenues: null,
        employees: null,
        market_cap: null,
      },
    ],
    "half-cent amounts round away from zero; a missing column is null",
  );
  t.same(
    await knex("programs")
      .orderBy("program_id")
      .select(
        "program_id",
        "limit_amount",
        "premium",
        "retention",
        "source",
        knex.raw("effective_date::text as effective_date"),
      ),
    [
      {
        program_id: "7",
        limit_amount: "1000000.00",
        premium: "12345.68",
        retention: "0.00",
        source: "P001",
        effective_date: "2026-01-01",
      },
      {
        program_id: "8",
        limit_amount: null,
        premium: null,
        retention: null,
        source: null,
        effective_date: "2025-06-30",
      },
    ],
  );
  t.same(
    await knex("loss_events")
      .orderBy("loss_event_id")
      .select(
        "loss_event_id",
        "description",
        "total_amount",
        "loss_year",
        knex.raw("accident_date::text as accident_date"),
        knex.raw("filing_date::text as filing_date"),
      ),
    [
      {
        loss_event_id: "5",
        description: 'Initial notice: ransomware.\r\nUpdate: "settled", finally',
        total_amount: "250000",
        loss_year: 2023,
        accident_date: "2023-12-31 00:00:00",
        filing_date: "2024-03-01 10:15:30",
      },
      {
        loss_event_id: "6",
        description: null,
        total_amount: "0",
        loss_year: 2022,
        accident_date: null,
        filing_date: "2022-01-01 00:00:00",
      },
    ],
  );
});

t.test("a folder with only some of the files loads just those", async (t) => {
  const { knex } = await createTestDatabase(t);
  const dir = await createTempDir(t);
  await writeFile(path.join(dir, "coverages.csv"), "coverage_id,name\n1,Crime\n");
  await writeFile(path.join(dir, "notes.txt"), "not a data file");
  const summary = await importDataset(knex, dir);
  t.same(
    summary.files.map((file) => file.file),
    ["coverages.csv"],
  );
  t.equal(summary.version, 1);
});
