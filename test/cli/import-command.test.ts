import t from "tap";
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTestDatabase } from "../helpers/database.js";
import { createTempDir } from "../ingest/helpers/temp-dir.js";
import { readCsv } from "../ingest/helpers/read-csv.js";
import { startTestServer } from "../helpers/server.js";

const cpb = fileURLToPath(new URL("../../bin/cpb.js", import.meta.url));
const run = promisify(execFile);

t.test(
  "cpb import: exit 1 with at most 50 problem lines and a count; a summary per file; --skip-invalid exits 0",
  async (t) => {
    const { url } = await createTestDatabase(t);
    const dir = await createTempDir(t);
    // 70 rows: the first 60 without a name, the last 10 good.
    const rows = Array.from({ length: 70 }, (_, i) => `${i + 1},${i >= 60 ? "Crime" : ""}`);
    await writeFile(path.join(dir, "coverages.csv"), `coverage_id,name\n${rows.join("\n")}\n`);
    const env = { ...process.env, DATABASE_URL: url };
    const refused = await run(process.execPath, [cpb, "import", dir], { env }).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => error,
    );
    t.equal(refused.code, 1, "bad rows: exit 1");
    const lines = refused.stdout.trim().split("\n");
    t.equal(lines[0], 'coverages.csv:2: name "": is required');
    t.equal(lines.filter((line) => /^coverages\.csv:\d+:/.test(line)).length, 50, "the first 50");
    t.ok(lines.includes("… and 10 more problems"), "then a count");
    t.match(refused.stdout, /^coverages\.csv: 70 read, 0 inserted, 0 updated, 60 rejected in \d+\.\d s$/m);
    t.match(refused.stdout, /nothing was imported/);

    const rejects = path.join(dir, "rejects.csv");
    const { stdout } = await run(process.execPath, [cpb, "import", dir, "--skip-invalid", "--rejects", rejects], {
      env,
    });
    t.match(stdout, /^coverages\.csv: 70 read, 10 inserted, 0 updated, 60 rejected in \d+\.\d s$/m);
    t.match(stdout, /^dataset version 1$/m);
    t.equal((await readFile(rejects, "utf8")).trim().split("\n").length, 61, "header and every problem");
  },
);

t.test("round trip: cpb generate, cpb import, and the API answers the generated companies", async (t) => {
  const { url, knex } = await createTestDatabase(t);
  const dir = await createTempDir(t);
  const env = { ...process.env, DATABASE_URL: url };
  await run(
    process.execPath,
    [cpb, "generate", dir, "--companies", "40", "--programs", "100", "--losses", "20", "--seed", "round-trip"],
    { env },
  );
  const { stdout } = await run(process.execPath, [cpb, "import", dir], { env });
  t.match(stdout, /^companies\.csv: 40 read, 40 inserted, 0 updated, 0 rejected/m);
  const server = await startTestServer(t, knex);
  const companies = await readCsv(dir, "companies.csv");
  for (const row of companies.slice(0, 10)) {
    const answer = (await (
      await fetch(`${server.url}/commercialpolicybenchmark/v2.0/company/${row.company_id}`)
    ).json()) as Record<string, unknown>;
    t.same(
      { id: answer.id, name: answer.companyName, type: answer.organizationType, employees: answer.numberOfEmployees },
      {
        id: Number(row.company_id),
        name: row.company_name,
        type: row.organization_type!.toUpperCase(),
        employees: row.employees ? Number(row.employees) : null,
      },
      `company ${row.company_id}`,
    );
  }
});
