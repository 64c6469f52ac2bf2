// `cpb` as production runs it: the compiled JavaScript of bin/compiled.js, which `npm
// test` writes first. Its migrations are JavaScript files that must keep the names the
// sources recorded, or a database migrated by one would look corrupt to the other.
import t from "tap";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
// @ts-expect-error: plain JavaScript (bin/ runs before any TypeScript loader), without types.
import { compiledIsCurrent } from "../../bin/compiled.js";
import { createTestDatabase } from "../helpers/database.js";

const cpb = fileURLToPath(new URL("../../bin/cpb.js", import.meta.url));
const run = promisify(execFile);

t.test("the compiled cpb migrates a database the sources migrated, under the same names", async (t) => {
  if (!(compiledIsCurrent as () => boolean)()) {
    // Only when a test file is run by hand after an edit: `npm test` compiles first.
    t.fail("dist/server is not the compilation of the sources: run npm run build (npm test does)");
    return;
  }
  const { knex, url } = await createTestDatabase(t);
  const before = await knex("knex_migrations").orderBy("id").pluck("name");
  t.ok(before.length > 0 && before.every((name: string) => name.endsWith(".ts")), "the sources' names");
  const { stdout, stderr } = await run(process.execPath, [cpb, "migrate"], {
    env: { ...process.env, DATABASE_URL: url },
  });
  t.notMatch(`${stdout}${stderr}`, /corrupt|missing/i, "nothing missing");
  t.strictSame(await knex("knex_migrations").orderBy("id").pluck("name"), before, "nothing applied again");
});
