import type { Client } from "pg";

/** An index, or an index-backed constraint (primary key, unique), of a table. */
export interface IndexDefinition {
  name: string;
  /** Whether it is a constraint (then `definition` is its ALTER TABLE ... ADD CONSTRAINT text). */
  constraint: boolean;
  /** pg_get_indexdef, or pg_get_constraintdef for a constraint. */
  definition: string;
}

/** A foreign key: the table it is declared on, and the table it references. */
export interface ForeignKeyDefinition {
  table: string;
  name: string;
  references: string;
  /** pg_get_constraintdef: FOREIGN KEY (...) REFERENCES table(...) ... */
  definition: string;
}

export interface Grant {
  grantee: string;
  privilege: string;
  grantable: boolean;
}

/**
 * What a table is beyond its columns and checks, read from the catalogs, so that a
 * replacement built beside it can be given the same indexes, keys, references and
 * grants whatever the migrations made of it.
 */
export interface TableDefinition {
  table: string;
  /** The schema the table is in (where its replacement goes at the swap). */
  schema: string;
  owner: string;
  indexes: IndexDefinition[];
  /** Its own foreign keys. */
  foreignKeys: ForeignKeyDefinition[];
  /** Other tables' foreign keys to it. */
  referencedBy: ForeignKeyDefinition[];
  grants: Grant[];
}

export async function readTableDefinition(client: Client, table: string): Promise<TableDefinition> {
  const owner = await client.query<{ owner: string; schema: string }>(
    "select pg_get_userbyid(relowner) as owner, quote_ident(relnamespace::regnamespace::text) as schema from pg_class where oid = $1::regclass",
    [table],
  );
  const indexes = await client.query<IndexDefinition>(
    `select quote_ident(coalesce(c.conname, ic.relname)) as name, c.oid is not null as constraint,
            coalesce(pg_get_constraintdef(c.oid), pg_get_indexdef(i.indexrelid)) as definition
       from pg_index i join pg_class ic on ic.oid = i.indexrelid
       left join pg_constraint c on c.conindid = i.indexrelid and c.conrelid = i.indrelid and c.contype in ('p', 'u', 'x')
      where i.indrelid = $1::regclass
      order by i.indexrelid`,
    [table],
  );
  const keys = await client.query<ForeignKeyDefinition>(
    `select conrelid::regclass::text as table, quote_ident(conname) as name, confrelid::regclass::text as references, pg_get_constraintdef(oid) as definition
       from pg_constraint where contype = 'f' and (conrelid = $1::regclass or confrelid = $1::regclass)
      order by oid`,
    [table],
  );
  const grants = await client.query<Grant>(
    `select case when a.grantee = 0 then 'public' else quote_ident(pg_get_userbyid(a.grantee)) end as grantee,
            a.privilege_type as privilege, a.is_grantable as grantable
       from pg_class c, aclexplode(c.relacl) a
      where c.oid = $1::regclass and a.grantee <> c.relowner`,
    [table],
  );
  return {
    table,
    schema: owner.rows[0]!.schema,
    owner: owner.rows[0]!.owner,
    indexes: indexes.rows,
    foreignKeys: keys.rows.filter((key) => key.table === table),
    referencedBy: keys.rows.filter((key) => key.table !== table),
    grants: grants.rows,
  };
}

/** The CREATE INDEX statement of `index` for another table (the index, of the same name, goes in that table's schema). */
export function indexStatementFor(index: IndexDefinition, table: string): string {
  const match = /^(CREATE (?:UNIQUE )?INDEX \S+) ON (?:ONLY )?\S+ (USING .*)$/s.exec(index.definition);
  if (!match) throw new Error(`cannot read the definition of index ${index.name}: ${index.definition}`);
  return `${match[1]} ON ${table} ${match[2]}`;
}

/** The foreign key's definition, referencing `target` instead of the table it references now. */
export function foreignKeyReferencing(key: ForeignKeyDefinition, target: string): string {
  const from = `REFERENCES ${key.references}(`;
  if (!key.definition.includes(from))
    throw new Error(`cannot read the definition of foreign key ${key.name}: ${key.definition}`);
  return key.definition.replace(from, `REFERENCES ${target}(`);
}
