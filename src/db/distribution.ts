// The schema on Citus (distributed Postgres; decisions.md 48, docs/operating.md#past-one-machine): which table
// goes where, and the step that puts it there. Every table with a partner_id column is a tenant table,
// distributed by partner_id and colocated with the others, so a partner's rows of every table sit on one
// node and a statement pinned to one partner runs there alone; the shared tables are reference tables,
// copied to every node, so any node joins them locally; a few stay on the coordinator alone. A table
// that is in none of these lists and has no partner_id stops the step, named: a new table is placed here
// on purpose. Where the citus extension is not installed (PGlite, plain Postgres) the step does nothing.
import type { Db, DbOrTrx } from './knex.js';

/** Shared tables, copied to every node: the principals, the catalogue and the global directories. */
export const REFERENCE_TABLES = [
  'partners',
  'operators',
  'payment_vendors',
  'api_keys',
  'device_families',
  'device_models',
  'device_directory',
  'finance_order_directory',
  'customer_phone_directory',
  'payment_reference_directory',
  'device_credential_directory',
  'vendor_notifications',
] as const;

/**
 * Tables of the coordinator alone: the migrations' own bookkeeping, the request limits' and the read
 * routing's UNLOGGED counters (a distributed table cannot be unlogged; both are the instances' shared
 * memory, not data), and the audit trail (append-only by triggers that only raise).
 */
export const COORDINATOR_TABLES = [
  'knex_migrations',
  'knex_migrations_lock',
  'rate_limits',
  'api_key_writes',
  'audit_events',
] as const;

/** The column every tenant table is distributed by. */
export const DISTRIBUTION_COLUMN = 'partner_id';

export interface Distribution {
  /** Tables made reference tables by this run, in the order it made them. */
  reference: string[];
  /** Tables distributed by partner_id by this run, in order; colocated with each other. */
  distributed: string[];
  /** Tables a run before this one placed already. */
  placedBefore: string[];
}

/** Whether the database has the citus extension (so its tables can be distributed). */
export async function citusInstalled(db: DbOrTrx): Promise<boolean> {
  const { rows } = await db.raw("select 1 from pg_extension where extname = 'citus'");
  return rows.length > 0;
}

/**
 * Places a tenant table a migration has just made, before its foreign keys are added: where the citus
 * extension is installed, by partner_id in the tenant tables' colocation group (Citus takes no key from
 * a table not yet distributed into a distributed one, decisions.md 52). Elsewhere it does nothing. A
 * migration that creates a tenant table calls it between the table and its keys, in its transaction.
 */
export async function distributeNewTenantTable(db: DbOrTrx, table: string): Promise<void> {
  if (!(await citusInstalled(db))) return;
  const { rows } = await db.raw(
    `select logicalrelid::regclass::text as name from pg_dist_partition
      where partmethod = 'h' and logicalrelid <> ?::regclass order by logicalrelid limit 1`,
    [table],
  );
  // The first database of all, distributed by the release step after its migrations: nothing to join yet.
  if (rows.length === 0) return;
  // One connection per node for the rest of the migration's transaction: its keys into a reference table
  // are refused after shards were made over several ("there was a parallel operation").
  await db.raw("set local citus.multi_shard_modify_mode to 'sequential'");
  await db.raw('select create_distributed_table(?::regclass, ?, colocate_with => ?)', [
    table,
    DISTRIBUTION_COLUMN,
    rows[0].name,
  ]);
}

/** Tables (a partitioned one as its parent) in dependency order: every table after those it references. */
function referencedFirst(tables: readonly string[], references: ReadonlyMap<string, Set<string>>): string[] {
  const inSet = new Set(tables);
  const ordered: string[] = [];
  const seen = new Set<string>();
  const visit = (table: string) => {
    if (seen.has(table)) return;
    seen.add(table);
    for (const target of references.get(table) ?? []) if (inSet.has(target) && target !== table) visit(target);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table);
  return ordered;
}

/** A schema's tables (partitioned ones as their parents) and the foreign keys between them. */
export interface SchemaTables {
  tables: ReadonlyArray<{ name: string; tenant: boolean }>;
  foreignKeys: ReadonlyArray<{ from: string; to: string }>;
}

/** Where each table goes, in the order to place them; `unplaced`: tables no list names and without partner_id. */
export function planDistribution(schema: SchemaTables): {
  reference: string[];
  distributed: string[];
  unplaced: string[];
} {
  const reference = new Set<string>(REFERENCE_TABLES);
  const coordinator = new Set<string>(COORDINATOR_TABLES);
  const references = new Map<string, Set<string>>();
  for (const key of schema.foreignKeys) references.set(key.from, (references.get(key.from) ?? new Set()).add(key.to));
  const named = (table: { name: string }) => reference.has(table.name) || coordinator.has(table.name);
  return {
    reference: referencedFirst(
      schema.tables.filter((table) => reference.has(table.name)).map((table) => table.name),
      references,
    ),
    distributed: referencedFirst(
      schema.tables.filter((table) => table.tenant && !named(table)).map((table) => table.name),
      references,
    ),
    unplaced: schema.tables
      .filter((table) => !table.tenant && !named(table))
      .map((table) => table.name)
      .sort(),
  };
}

/** The current schema's tables and foreign keys, from pg_catalog. */
export async function readSchemaTables(db: DbOrTrx): Promise<SchemaTables> {
  const tables = (
    await db.raw(
      `select c.relname as name,
              exists (select from pg_attribute a where a.attrelid = c.oid and a.attname = ? and not a.attisdropped) as tenant
         from pg_class c
        where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition`,
      [DISTRIBUTION_COLUMN],
    )
  ).rows;
  const foreignKeys = (
    await db.raw(`
    select s.relname as "from", d.relname as "to"
      from pg_constraint f join pg_class s on s.oid = f.conrelid join pg_class d on d.oid = f.confrelid
     where f.contype = 'f' and s.relnamespace = current_schema()::regnamespace and not s.relispartition`)
  ).rows;
  return { tables, foreignKeys };
}

/**
 * Places every table of the current schema where the lists above say (idempotent: a table placed
 * before is left as it is). Run by the release step after the migrations (`npm run db:distribute`), on
 * the coordinator. Nothing is done where citus is not installed.
 */
export async function distributeTables(db: Db): Promise<Distribution | null> {
  if (!(await citusInstalled(db))) return null;
  return db.transaction(async (trx) => {
    const plan = planDistribution(await readSchemaTables(trx));
    if (plan.unplaced.length)
      throw new Error(
        `no place on Citus for ${plan.unplaced.join(', ')}: give it a partner_id or list it in src/db/distribution.ts`,
      );
    const placed = new Set<string>(
      (await trx.raw('select logicalrelid::regclass::text as name from pg_dist_partition')).rows.map(
        (row: { name: string }) => row.name.replace(/^"|"$/g, ''),
      ),
    );
    // A foreign key from a table not yet distributed into one about to be copied makes Citus convert
    // every table of the key's graph into a coordinator table first, which fails on partitioned ones
    // ("child table is missing constraint"): such keys are set aside while the tables are placed, then
    // made again (a distributed table may point into a reference table).
    const reference = new Set(plan.reference.filter((table) => !placed.has(table)));
    const setAside: Array<{ table: string; name: string; definition: string }> = (
      await trx.raw(
        `
      select s.relname as "table", f.conname as name, pg_get_constraintdef(f.oid) as definition
        from pg_constraint f join pg_class s on s.oid = f.conrelid join pg_class d on d.oid = f.confrelid
       where f.contype = 'f' and s.relnamespace = current_schema()::regnamespace and not s.relispartition
         and d.relname = any(?) and not (s.relname = any(?))`,
        [[...reference], plan.reference],
      )
    ).rows;
    for (const key of setAside) await trx.raw('alter table ?? drop constraint ??', [key.table, key.name]);

    const result: Distribution = { reference: [], distributed: [], placedBefore: [] };
    for (const table of plan.reference) {
      if (placed.has(table)) result.placedBefore.push(table);
      else {
        await trx.raw('select create_reference_table(?::regclass)', [table]);
        result.reference.push(table);
      }
    }
    let colocateWith: string | null = null;
    for (const table of plan.distributed) {
      if (placed.has(table)) result.placedBefore.push(table);
      else {
        await trx.raw('select create_distributed_table(?::regclass, ?, colocate_with => ?)', [
          table,
          DISTRIBUTION_COLUMN,
          colocateWith ?? 'default',
        ]);
        result.distributed.push(table);
      }
      colocateWith ??= table;
    }
    for (const key of setAside)
      await trx.raw(`alter table ?? add constraint ?? ${key.definition}`, [key.table, key.name]);
    return result;
  });
}
