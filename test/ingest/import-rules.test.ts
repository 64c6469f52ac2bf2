import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import t from "tap";
import type { Knex } from "knex";
import { ImportRejectedError, importDataset, type ImportOptions } from "../../src/ingest/import-dataset.js";
import { ImportError } from "../../src/ingest/import-errors.js";
import { formatReject } from "../../src/ingest/reject-report.js";
import { createTestDatabase } from "../helpers/database.js";
import { createTempDir } from "./helpers/temp-dir.js";

// DATA-FORMAT.md, one fixture per rule, each with the exact report line expected.
// A stored base: coverages 1 and 2, LOB 10 of coverage 1 and 20 of coverage 2, companies 1 and 2.
const BASE = {
  "coverages.csv": "coverage_id,name\n1,Directors & Officers\n2,Cyber\n",
  "lines_of_business.csv": "line_of_business_id,coverage_id,name\n10,1,Side A\n20,2,Network Security\n",
  "companies.csv":
    "company_id,company_name,organization_type,naics,revenues,employees,market_cap\n1,Acme,PUB,524126,1000000,10,5000000\n2,Beta,PRV,54,,,\n",
};
const PROGRAM_HEADER =
  "program_id,company_id,coverage_id,line_of_business_id,effective_date,limit,premium,retention,source\n";
const LOSS_HEADER =
  "loss_event_id,company_id,coverage_id,line_of_business_id,loss_category,loss_type,accident_date,filing_date,status,total_amount,description\n";

type Folder = Record<string, string>;

async function writeFolder(t: { teardown(fn: () => unknown): void }, files: Folder): Promise<string> {
  const dir = await createTempDir(t);
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
  return dir;
}

async function snapshot(knex: Knex) {
  const tables = ["coverages", "lines_of_business", "companies", "programs", "loss_events", "dataset_version"];
  return Promise.all(tables.map((table) => knex(table).select("*").orderByRaw("1")));
}

t.test("every rule refuses its row with a precise line, and nothing is written", async (t) => {
  const { knex } = await createTestDatabase(t);
  await importDataset(knex, await writeFolder(t, BASE));
  const cases: [string, Folder, string[]][] = [
    [
      "a whole number",
      { "coverages.csv": "coverage_id,name\nx,Crime\n" },
      ['coverages.csv:2: coverage_id "x": must be a whole number'],
    ],
    [
      "ids above 0",
      { "coverages.csv": "coverage_id,name\n0,Crime\n" },
      ['coverages.csv:2: coverage_id "0": must be > 0'],
    ],
    [
      "coverage ids up to 2^31 - 1",
      { "coverages.csv": "coverage_id,name\n2147483648,Crime\n" },
      ['coverages.csv:2: coverage_id "2147483648": must be at most 2147483647'],
    ],
    [
      "company ids up to 2^53 - 1",
      { "companies.csv": "company_id,company_name,organization_type\n9007199254740992,Big,PRV\n" },
      ['companies.csv:2: company_id "9007199254740992": must be at most 9007199254740991'],
    ],
    ["required text", { "coverages.csv": "coverage_id,name\n3,\n" }, ['coverages.csv:2: name "": is required']],
    [
      "organization type: 2 to 8 letters",
      { "companies.csv": "company_id,company_name,organization_type\n3,Gamma,P1\n4,Delta,PUBLICCOS\n" },
      [
        'companies.csv:2: organization_type "P1": must be 2 to 8 letters',
        'companies.csv:3: organization_type "PUBLICCOS": must be 2 to 8 letters',
      ],
    ],
    [
      "NAICS: 2 to 6 digits",
      { "companies.csv": "company_id,company_name,organization_type,naics\n3,Gamma,PRV,5\n" },
      ['companies.csv:2: naics "5": must be 2 to 6 digits'],
    ],
    [
      "amounts >= 0",
      { "programs.csv": `${PROGRAM_HEADER}1,1,1,10,2026-01-01,-5,,,\n` },
      ['programs.csv:2: limit "-5": must be >= 0'],
    ],
    [
      "decimals with . and no separators",
      { "programs.csv": `${PROGRAM_HEADER}1,1,1,10,2026-01-01,"1,000",1e3,,\n` },
      [
        'programs.csv:2: limit "1,000": must be a decimal number such as 1234.56',
        'programs.csv:2: premium "1e3": must be a decimal number such as 1234.56',
      ],
    ],
    [
      "employees >= 0",
      { "companies.csv": "company_id,company_name,organization_type,employees\n3,Gamma,PRV,-1\n" },
      ['companies.csv:2: employees "-1": must be >= 0'],
    ],
    [
      "real dates",
      { "programs.csv": `${PROGRAM_HEADER}1,1,1,10,2026-02-30,,,,\n2,1,1,10,26-01-01,,,,\n` },
      [
        'programs.csv:2: effective_date "2026-02-30": must be a date YYYY-MM-DD',
        'programs.csv:3: effective_date "26-01-01": must be a date YYYY-MM-DD',
      ],
    ],
    [
      "date-times",
      { "losses.csv": `${LOSS_HEADER}1,1,1,10,Securities,Stock Drop,2024-01-01 10:00,2024-13-01,Settled,5,\n` },
      [
        'losses.csv:2: accident_date "2024-01-01 10:00": must be a date YYYY-MM-DD or a date-time YYYY-MM-DDTHH:MM:SS',
        'losses.csv:2: filing_date "2024-13-01": must be a date YYYY-MM-DD or a date-time YYYY-MM-DDTHH:MM:SS',
      ],
    ],
    [
      "total amounts: whole dollars",
      { "losses.csv": `${LOSS_HEADER}1,1,1,10,Securities,Stock Drop,,2024-01-01,Settled,12.50,\n` },
      ['losses.csv:2: total_amount "12.50": must be a whole number'],
    ],
    [
      "references to rows that exist",
      {
        "programs.csv": `${PROGRAM_HEADER}1,999,1,10,2026-01-01,,,,\n2,1,7,10,2026-01-01,,,,\n3,1,1,99,2026-01-01,,,,\n`,
      },
      [
        'programs.csv:2: company_id "999": no company 999 in the import or the database',
        'programs.csv:3: coverage_id "7": no coverage 7 in the import or the database',
        'programs.csv:4: line_of_business_id "99": no line of business 99 in the import or the database',
      ],
    ],
    [
      "each LOB of its coverage",
      { "programs.csv": `${PROGRAM_HEADER}1,1,1,20,2026-01-01,,,,\n` },
      ['programs.csv:2: line_of_business_id "20": line of business 20 is not of coverage 1'],
    ],
    [
      "a LOB of a coverage in the same import",
      {
        "coverages.csv": "coverage_id,name\n3,Crime\n",
        "lines_of_business.csv": "line_of_business_id,coverage_id,name\n30,4,Theft\n",
      },
      ['lines_of_business.csv:2: coverage_id "4": no coverage 4 in the import or the database'],
    ],
    [
      "rows that refer to rejected rows",
      {
        "companies.csv": "company_id,company_name,organization_type\n5,Epsilon,E\n",
        "programs.csv": `${PROGRAM_HEADER}1,5,1,10,2026-01-01,,,,\n`,
      },
      [
        'companies.csv:2: organization_type "E": must be 2 to 8 letters',
        'programs.csv:2: company_id "5": refers to company 5, which is rejected',
      ],
    ],
    [
      "a stored row whose update is rejected cannot be referred to",
      {
        "companies.csv": "company_id,company_name,organization_type\n1,Acme,X\n",
        "losses.csv": `${LOSS_HEADER}1,1,1,10,Securities,Stock Drop,,2024-01-01,Settled,5,\n`,
      },
      [
        'companies.csv:2: organization_type "X": must be 2 to 8 letters',
        'losses.csv:2: company_id "1": refers to company 1, which is rejected',
      ],
    ],
    [
      "repeated ids: the later rows",
      { "coverages.csv": "coverage_id,name\n3,Crime\n4,Fiduciary\n3,Crime again\n3,Thrice\n" },
      [
        'coverages.csv:4: coverage_id "3": repeats the id of line 2',
        'coverages.csv:5: coverage_id "3": repeats the id of line 2',
      ],
    ],
    [
      "the line where a record starts, after quoted newlines",
      { "coverages.csv": 'coverage_id,name\n3,"Crime\nand more\nlines"\n\nx,Bad\n' },
      ['coverages.csv:6: coverage_id "x": must be a whole number'],
    ],
    [
      "lines counted right after CRLFs inside quotes",
      {
        "companies.csv":
          'company_id,company_name,organization_type\r\n1,"A\r\nB\r\nC",PUB\r\n\r\n2,"x\r\ny",PUB\r\n3,B,P1\r\n',
      },
      ['companies.csv:8: organization_type "P1": must be 2 to 8 letters'],
    ],
    [
      "as many fields as the header",
      { "coverages.csv": "coverage_id,name\n3,Crime,extra\n4\n" },
      ["coverages.csv:2: has 3 fields where the header has 2", "coverages.csv:3: has 1 fields where the header has 2"],
    ],
    [
      "a LOB moving coverage under stored programs",
      {
        "programs.csv": `${PROGRAM_HEADER}1,1,1,10,2026-01-01,,,,\n`,
      },
      [],
    ],
  ];
  for (const [name, files, lines] of cases) {
    const before = await snapshot(knex);
    const result = await importDataset(knex, await writeFolder(t, files)).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (lines.length === 0) {
      t.equal(result, undefined, `${name}: imports`);
      continue;
    }
    t.ok(result instanceof ImportRejectedError, `${name}: refused`);
    t.same((result as ImportRejectedError).summary.rejects.first.map(formatReject), lines, name);
    t.same(await snapshot(knex), before, `${name}: nothing written`);
  }

  const moving = await importDataset(
    knex,
    await writeFolder(t, { "lines_of_business.csv": "line_of_business_id,coverage_id,name\n10,2,Side A\n" }),
  ).catch((e: unknown) => e);
  t.same((moving as ImportRejectedError).summary.rejects.first.map(formatReject), [
    'lines_of_business.csv:2: coverage_id "2": moves line of business 10 from coverage 1, which stored programs or losses still use',
  ]);
});

t.test("values are normalized: cents half away from zero, codes upper-case, empty = null", async (t) => {
  const { knex } = await createTestDatabase(t);
  await importDataset(
    knex,
    await writeFolder(t, { ...BASE, "programs.csv": `${PROGRAM_HEADER}1,1,1,10,2026-01-01,1000000.005,0.004,.5,\n` }),
  );
  await importDataset(
    knex,
    await writeFolder(t, { "companies.csv": "company_id,company_name,organization_type\n3,Gamma,nfp\n" }),
  );
  t.same(await knex("programs").first("limit_amount", "premium", "retention", "source"), {
    limit_amount: "1000000.01",
    premium: "0.00",
    retention: "0.50",
    source: null,
  });
  t.same(await knex("companies").where("company_id", 3).first("organization_type", "naics"), {
    organization_type: "NFP",
    naics: null,
  });
});

t.test("files that cannot be read stop the import whatever the options", async (t) => {
  const { knex } = await createTestDatabase(t);
  const cases: [Folder, string][] = [
    [{ "coverages.csv": "coverage_id\n1\n" }, "coverages.csv:1: name: the column is missing"],
    [{ "coverages.csv": "coverage_id,name,name\n1,a,b\n" }, "coverages.csv:1: name: the column appears twice"],
    [{ "coverages.csv": 'coverage_id,name\n1,"unclosed\n2,b\n' }, "coverages.csv:"],
    [{ "coverages.csv": "" }, "coverages.csv:1: the file has no header row"],
  ];
  const invalidUtf8 = await createTempDir(t);
  await writeFile(
    path.join(invalidUtf8, "coverages.csv"),
    Buffer.concat([Buffer.from("coverage_id,name\n1,Cyber\n2,Bad"), Buffer.from([0xff, 0xfe]), Buffer.from("\n")]),
  );
  const utf8 = await importDataset(knex, invalidUtf8, { skipInvalid: true }).catch((e: unknown) => e);
  t.ok(utf8 instanceof ImportError, "bytes that are not UTF-8 stop the import");
  t.equal((utf8 as Error).message, "coverages.csv:3: not valid UTF-8");
  for (const [files, message] of cases) {
    const error = await importDataset(knex, await writeFolder(t, files), { skipInvalid: true }).catch(
      (e: unknown) => e,
    );
    t.ok(error instanceof ImportError, message);
    t.match((error as Error).message, message.endsWith(":") ? new RegExp(`^${message}\\d+: not valid CSV`) : message);
  }
  t.equal((await knex("dataset_version").first("version"))?.version, "0", "nothing imported");
});

t.test("--skip-invalid loads exactly the good rows and reports the rest; --rejects has them all", async (t) => {
  const { knex } = await createTestDatabase(t);
  await importDataset(knex, await writeFolder(t, BASE));
  const rejects = path.join(await createTempDir(t), "rejects.csv");
  const options: ImportOptions = { skipInvalid: true, rejectsFile: rejects, reportLimit: 2 };
  const summary = await importDataset(
    knex,
    await writeFolder(t, {
      "companies.csv": "company_id,company_name,organization_type\n3,Gamma,PRV\n4,Delta,D\n",
      "programs.csv": `${PROGRAM_HEADER}1,3,1,10,2026-01-01,100,,,\n2,4,1,10,2026-01-01,,,,\n3,1,1,10,2026-01-01,"-1",,,\n4,2,2,20,2026-01-01,5,,,\n`,
    }),
    options,
  );
  t.same(
    summary.files.map(({ file, read, inserted, updated, rejected }) => ({ file, read, inserted, updated, rejected })),
    [
      { file: "companies.csv", read: 2, inserted: 1, updated: 0, rejected: 1 },
      { file: "programs.csv", read: 4, inserted: 2, updated: 0, rejected: 2 },
    ],
  );
  t.same(
    (await knex("programs").orderBy("program_id").select("program_id")).map((r) => Number(r.program_id)),
    [1, 4],
    "exactly the good rows",
  );
  t.same(
    (await knex("companies").orderBy("company_id").select("company_id")).map((r) => Number(r.company_id)),
    [1, 2, 3],
  );
  t.equal(summary.rejects.total, 3);
  t.equal(summary.rejects.first.length, 2, "the report limit");
  t.equal(summary.version, 2);
  t.equal(
    await readFile(rejects, "utf8"),
    [
      "file,line,column,value,reason",
      "companies.csv,3,organization_type,D,must be 2 to 8 letters",
      'programs.csv,3,company_id,4,"refers to company 4, which is rejected"',
      "programs.csv,4,limit,-1,must be >= 0",
      "",
    ].join("\n"),
  );
});

t.test("upsert by id by default; --replace makes the files the whole content of their tables", async (t) => {
  const { knex } = await createTestDatabase(t);
  await importDataset(
    knex,
    await writeFolder(t, {
      ...BASE,
      "programs.csv": `${PROGRAM_HEADER}1,1,1,10,2026-01-01,100,,,\n2,2,1,10,2026-01-01,200,,,\n`,
    }),
  );
  const upsert = await importDataset(
    knex,
    await writeFolder(t, {
      "programs.csv": `${PROGRAM_HEADER}2,2,1,10,2026-01-01,250,,,\n3,2,1,10,2026-01-01,300,,,\n`,
    }),
  );
  t.match(upsert.files[0], { inserted: 1, updated: 1, deleted: 0 });
  t.same(
    (await knex("programs").orderBy("program_id").select("program_id", "limit_amount")).map((r) => [
      Number(r.program_id),
      r.limit_amount,
    ]),
    [
      [1, "100.00"],
      [2, "250.00"],
      [3, "300.00"],
    ],
  );

  const replace = await importDataset(
    knex,
    await writeFolder(t, {
      "programs.csv": `${PROGRAM_HEADER}3,2,1,10,2026-01-01,350,,,\n4,1,1,10,2026-01-01,400,,,\n`,
    }),
    { replace: true },
  );
  t.match(replace.files[0], { inserted: 1, updated: 1, deleted: 2 });
  t.same(
    (await knex("programs").orderBy("program_id").select("program_id")).map((r) => Number(r.program_id)),
    [3, 4],
  );

  const stranding = await importDataset(
    knex,
    await writeFolder(t, { "companies.csv": "company_id,company_name,organization_type\n1,Acme,PUB\n" }),
    { replace: true },
  ).catch((e: unknown) => e);
  t.ok(stranding instanceof ImportError, "replacing companies may not strand stored programs");
  t.equal(
    (stranding as Error).message,
    "companies.csv: --replace would remove company 2 (and others), to which 1 stored rows of programs.csv refer; import programs.csv too",
  );
  t.equal(
    await knex("companies")
      .count("* as n")
      .first()
      .then((r) => Number(r?.n)),
    2,
    "nothing removed",
  );

  const references = await importDataset(
    knex,
    await writeFolder(t, {
      "companies.csv": "company_id,company_name,organization_type\n1,Acme,PUB\n",
      "programs.csv": `${PROGRAM_HEADER}3,2,1,10,2026-01-01,350,,,\n`,
    }),
    { replace: true },
  ).catch((e: unknown) => e);
  t.same(
    (references as ImportRejectedError).summary.rejects.first.map(formatReject),
    ['programs.csv:2: company_id "2": no company 2 in the import or the database'],
    "references are checked against the final state",
  );
});

t.test("a LOB may move coverage when the import restates what uses it, or replaces it", async (t) => {
  const { knex } = await createTestDatabase(t);
  const base = {
    ...BASE,
    "programs.csv": `${PROGRAM_HEADER}100,1,1,10,2026-01-01,,,,\n101,1,1,10,2026-01-01,,,,\n`,
    "losses.csv": `${LOSS_HEADER}500,1,1,10,Securities,Stock Drop,,2024-01-01,Settled,5,\n`,
  };
  await importDataset(knex, await writeFolder(t, base));
  await importDataset(
    knex,
    await writeFolder(t, {
      "lines_of_business.csv": "line_of_business_id,coverage_id,name\n10,2,Moved\n",
      "programs.csv": `${PROGRAM_HEADER}100,1,2,10,2026-01-01,,,,\n101,1,2,10,2026-01-01,,,,\n`,
      "losses.csv": `${LOSS_HEADER}500,1,2,10,Securities,Stock Drop,,2024-01-01,Settled,5,\n`,
    }),
  );
  t.same(await knex("programs").distinct("coverage_id").pluck("coverage_id"), [2], "upsert: every user restated");

  await importDataset(knex, await writeFolder(t, base), { replace: true }); // back to the base, LOB 10 of coverage 1
  const replaced = await importDataset(
    knex,
    await writeFolder(t, {
      "lines_of_business.csv": "line_of_business_id,coverage_id,name\n10,2,Moved\n20,2,Network Security\n",
      "programs.csv": `${PROGRAM_HEADER}101,1,2,10,2026-01-01,,,,\n`,
      "losses.csv": LOSS_HEADER,
    }),
    { replace: true },
  );
  t.match(
    replaced.files.find((f) => f.file === "programs.csv"),
    { deleted: 1 },
    "--replace: the stored users go anyway",
  );
});

t.test("what a file does not say is not lost: rows of the wrong shape are reported, absent columns kept", async (t) => {
  const { knex } = await createTestDatabase(t);
  await importDataset(knex, await writeFolder(t, BASE));
  const shapes = await importDataset(
    knex,
    await writeFolder(t, {
      "companies.csv": "company_id,company_name,organization_type\n1,Acme Fewer Fields\n",
      "programs.csv": `${PROGRAM_HEADER}""\n800,1,1,10,2025-06-01,1,1,1,\n`,
    }),
    { skipInvalid: true },
  );
  t.same(
    shapes.rejects.first.map(formatReject),
    [
      "companies.csv:2: has 2 fields where the header has 3",
      "programs.csv:2: has 1 fields where the header has 9",
      'programs.csv:3: company_id "1": refers to company 1, which is rejected',
    ],
    "a quoted empty record is a record; a misshapen row still names its id",
  );

  await importDataset(
    knex,
    await writeFolder(t, { "companies.csv": " Company_ID ,COMPANY_NAME,organization_type\n1,Acme Renamed,PUB\n" }),
  );
  t.same(
    await knex("companies")
      .where("company_id", 1)
      .first("company_name", "naics", "revenues", "employees", "market_cap"),
    {
      company_name: "Acme Renamed",
      naics: "524126",
      revenues: "1000000.00",
      employees: "10",
      market_cap: "5000000.00",
    },
    "header names trimmed, in any case; columns the file lacks keep their stored values",
  );

  const csv = await importDataset(
    knex,
    await writeFolder(t, { "coverages.csv": 'coverage_id,name\r\n7,"a\r\nb"\r\n8,x"y\r\n' }),
  ).catch((e: unknown) => e);
  t.ok(csv instanceof ImportError);
  t.match(
    (csv as Error).message,
    /^coverages\.csv:4: not valid CSV: /,
    "the file and the physical line of the broken record",
  );
});
