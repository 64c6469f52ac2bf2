import type { Client } from "pg";
import { DATASET_FILES, type DatasetFile, type ReferenceSpec } from "./dataset-files.js";
import { REJECTS_TABLE, stagingTable } from "./staging.js";

/** What the checks of one file need to know of the whole import. */
export interface CheckContext {
  /** The files of this import, staged already (a file's parents come first). */
  present: ReadonlySet<string>;
  /** --replace: a present file is the whole content of its table. */
  replace: boolean;
}

/**
 * The checks between rows, in SQL over the staging tables (DATA-FORMAT.md, Import
 * rules): a repeated id rejects the later rows; every reference must name a row of
 * the final state (accepted in this import, or stored and neither replaced nor
 * rejected here), and a row that refers to a rejected row is rejected too; a LOB
 * must belong to the row's coverage. Each check records its problems and marks the
 * rows rejected, so the checks after it, and the files after this one, see them.
 */
export async function checkRows(client: Client, spec: DatasetFile, rank: number, context: CheckContext): Promise<void> {
  await rejectRepeatedIds(client, spec, rank);
  for (const reference of spec.references) await rejectBrokenReferences(client, spec, rank, reference, context);
  if (spec.lineOfBusinessOfCoverage) await rejectForeignLinesOfBusiness(client, spec, rank, context);
  if (spec.table === "lines_of_business") await rejectStrandingCoverageMoves(client, rank, context);
}

async function rejectRepeatedIds(client: Client, spec: DatasetFile, rank: number): Promise<void> {
  const stage = stagingTable(spec);
  await reject(
    client,
    spec,
    rank,
    spec.key,
    `select s.line, s.${spec.key}::text as value, format('repeats the id of line %s', s.first_line) as reason
     from (select line, ${spec.key}, min(line) over (partition by ${spec.key}) as first_line
           from ${stage} where ${spec.key} is not null) s
     where s.line <> s.first_line`,
  );
}

async function rejectBrokenReferences(
  client: Client,
  spec: DatasetFile,
  rank: number,
  reference: ReferenceSpec,
  context: CheckContext,
) {
  const parent = specOf(reference.table);
  const key = parent.key;
  const staged = context.present.has(parent.file);
  const rejectedHere = staged
    ? `exists (select 1 from ${stagingTable(parent)} r where r.rejected and r.${key} = c.${reference.column})`
    : "false";
  await reject(
    client,
    spec,
    rank,
    reference.column,
    `select c.line, c.${reference.column}::text as value,
       case when ${rejectedHere}
         then format('refers to ${reference.noun} %s, which is rejected', c.${reference.column})
         else format('no ${reference.noun} %s in the import or the database', c.${reference.column}) end as reason
     from ${stagingTable(spec)} c
     where not c.rejected and not exists (select 1 from (${finalKeys(parent, context)}) f where f.id = c.${reference.column})`,
  );
}

async function rejectForeignLinesOfBusiness(client: Client, spec: DatasetFile, rank: number, context: CheckContext) {
  await reject(
    client,
    spec,
    rank,
    "line_of_business_id",
    `select c.line, c.line_of_business_id::text as value,
       format('line of business %s is not of coverage %s', c.line_of_business_id, c.coverage_id) as reason
     from ${stagingTable(spec)} c
     where not c.rejected and not exists (
       select 1 from (${finalLinesOfBusiness(context)}) f
       where f.line_of_business_id = c.line_of_business_id and f.coverage_id = c.coverage_id)`,
  );
}

/**
 * A LOB that moves to another coverage must not leave stored programs or losses,
 * which this import does not restate, under its old coverage.
 */
async function rejectStrandingCoverageMoves(client: Client, rank: number, context: CheckContext) {
  const spec = specOf("lines_of_business");
  // A stored child survives the import unless its file is present and either replaces
  // the table (--replace) or restates it with an accepted row.
  const dependents = ["programs", "loss_events"]
    .map(specOf)
    .filter((child) => !(context.replace && context.present.has(child.file)))
    .map((child) => {
      const restated = context.present.has(child.file)
        ? `and not exists (select 1 from ${stagingTable(child)} x where not x.rejected and x.${child.key} = d.${child.key})`
        : "";
      return `exists (select 1 from ${child.table} d where d.line_of_business_id = c.line_of_business_id
              and d.coverage_id = old.coverage_id ${restated})`;
    });
  if (dependents.length === 0) return;
  await reject(
    client,
    spec,
    rank,
    "coverage_id",
    `select c.line, c.coverage_id::text as value,
       format('moves line of business %s from coverage %s, which stored programs or losses still use', c.line_of_business_id, old.coverage_id) as reason
     from ${stagingTable(spec)} c join lines_of_business old using (line_of_business_id)
     where not c.rejected and old.coverage_id <> c.coverage_id and (${dependents.join(" or ")})`,
  );
}

/** The ids of a table in the final state: accepted here, or stored and neither replaced nor rejected here. */
function finalKeys(spec: DatasetFile, context: CheckContext): string {
  return finalRows(spec, context, `${spec.key} as id`);
}

/** (line_of_business_id, coverage_id) of the final state: a restated LOB counts as restated. */
function finalLinesOfBusiness(context: CheckContext): string {
  return finalRows(specOf("lines_of_business"), context, "line_of_business_id, coverage_id");
}

/** The given columns of a table's final rows: a row staged here, rejected or not, hides the stored one. */
function finalRows(spec: DatasetFile, context: CheckContext, columns: string): string {
  if (!context.present.has(spec.file)) return `select ${columns} from ${spec.table}`;
  const stage = stagingTable(spec);
  const accepted = `select ${columns} from ${stage} where not rejected`;
  if (context.replace) return accepted;
  return `${accepted} union all
    select ${columns} from ${spec.table} s where not exists (select 1 from ${stage} x where x.${spec.key} = s.${spec.key})`;
}

/** Records the problems the query finds ({line, value, reason}) and marks those rows rejected. */
async function reject(
  client: Client,
  spec: DatasetFile,
  rank: number,
  column: string,
  problems: string,
): Promise<void> {
  await client.query(
    `with found as (${problems}),
     recorded as (
       insert into ${REJECTS_TABLE} (file_rank, file, line, column_name, value, reason)
       select $1, $2, line, $3, value, reason from found order by line
       returning line)
     update ${stagingTable(spec)} set rejected = true where line in (select line from recorded)`,
    [rank, spec.file, headerOf(spec, column)],
  );
}

function headerOf(spec: DatasetFile, column: string): string {
  return spec.columns.find((c) => c.column === column)?.header ?? column;
}

export function specOf(table: string): DatasetFile {
  return DATASET_FILES.find((spec) => spec.table === table)!;
}
