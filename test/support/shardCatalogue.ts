// The database's own catalogue, read for the sharding invariants (test/reliability/scaling-invariants*.test.ts):
// tables, keys and unique indexes from pg_catalog, the tables global on purpose, and the violations of
// (a) a shard key leading every key and (b) foreign keys between shards.
import type { DbOrTrx } from '../../src/db/knex.js';

// ---------------------------------------------------------------------------------------------------
// The tables that are global on purpose although they carry a partner_id column: in Citus, reference
// tables or tables distributed by their own key (docs/operating.md#scaling). Each entry lists exactly the
// violations of (a) the table is allowed, so anything new on these tables fails too.

export const GLOBAL_WITH_PARTNER_ID = {
  // Credentials are looked up by their hash before anyone knows the partner; small, read-mostly.
  api_keys: ['api_keys: primary key (id)', 'api_keys: unique (key_hash)', 'api_keys: partner_id nullable'],
  // The operators' append-only trail; partner_id is kept for filtering, many events have none.
  audit_events: ['audit_events: primary key (id)', 'audit_events: partner_id nullable'],
  // IMEI and tag are unique across partners, and this is what routes a partner-less notification:
  // the pointer (partner_id, device_id) is all it holds. Its primary key does lead with partner_id.
  device_directory: ['device_directory: unique (imei)', 'device_directory: unique (tag)'],
  // The same for a notification naming a finance order (ids are unique across partners) or a phone number.
  finance_order_directory: ['finance_order_directory: primary key (id)'],
  customer_phone_directory: [],
  // And for what a request quotes before its partner is known, unique across partners here rather than in
  // the tenant table (decisions.md 48): a payment reference's code, a live device credential's hash.
  payment_reference_directory: ['payment_reference_directory: primary key (code)'],
  device_credential_directory: ['device_credential_directory: primary key (key_hash)'],
  // A vendor's reference is its idempotency key, claimed before the device (and so the partner) is known.
  vendor_notifications: ['vendor_notifications: primary key (vendor_id,reference)'],
} as const;

/** The global catalogue without partner_id: reference tables in Citus (device_families only through device_models). */
export const REFERENCE_TABLES = ['device_families', 'device_models', 'operators', 'partners', 'payment_vendors'];

// ---------------------------------------------------------------------------------------------------
// The catalogue (pg_catalog: the same on PGlite and Postgres).

export interface Catalogue {
  /** Every table of the schema with its columns and whether partner_id is nullable. */
  tables: Map<string, { columns: Set<string>; partnerIdNullable: boolean | null }>;
  /** Primary keys and unique indexes (constraint-backed or not, partial or not): key columns in order. */
  uniques: Array<{ table: string; primary: boolean; columns: string[] }>;
  foreignKeys: Array<{ from: string; fromColumns: string[]; to: string; toColumns: string[] }>;
  /** User triggers (not those of constraints), each with its function's body. */
  triggers: Array<{ table: string; name: string; function: string; source: string }>;
}

// A month of a partitioned table (decisions.md 25) is read as its parent, not as a table of its own.
export async function readCatalogue(dbOrTrx: DbOrTrx): Promise<Catalogue> {
  const columns: Array<{ table: string; column: string; nullable: boolean }> = (
    await dbOrTrx.raw(`
    select c.relname as "table", a.attname as "column", not a.attnotnull as "nullable"
      from pg_class c join pg_attribute a on a.attrelid = c.oid
     where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition and a.attnum > 0 and not a.attisdropped`)
  ).rows;
  const uniques: Array<{ table: string; primary: boolean; columns: string }> = (
    await dbOrTrx.raw(`
    select t.relname as "table", x.indisprimary as "primary",
           (select string_agg(coalesce(a.attname, '(expression)'), ',' order by k.n)
              from unnest(x.indkey::int2[]) with ordinality as k(attnum, n)
              left join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
             where k.n <= x.indnkeyatts) as "columns"
      from pg_index x join pg_class t on t.oid = x.indrelid
     where x.indisunique and t.relnamespace = current_schema()::regnamespace and not t.relispartition`)
  ).rows;
  const foreignKeys: Array<{ from: string; fromColumns: string; to: string; toColumns: string }> = (
    await dbOrTrx.raw(`
    select s.relname as "from", d.relname as "to",
           (select string_agg(a.attname, ',' order by k.n) from unnest(f.conkey) with ordinality as k(attnum, n)
              join pg_attribute a on a.attrelid = f.conrelid and a.attnum = k.attnum) as "fromColumns",
           (select string_agg(a.attname, ',' order by k.n) from unnest(f.confkey) with ordinality as k(attnum, n)
              join pg_attribute a on a.attrelid = f.confrelid and a.attnum = k.attnum) as "toColumns"
      from pg_constraint f join pg_class s on s.oid = f.conrelid join pg_class d on d.oid = f.confrelid
     where f.contype = 'f' and s.relnamespace = current_schema()::regnamespace and not s.relispartition`)
  ).rows;

  // A month's partition carries a clone of its parent's trigger: the parent's is the one read.
  const triggers: Catalogue['triggers'] = (
    await dbOrTrx.raw(`
    select c.relname as "table", t.tgname as "name", p.proname as "function", p.prosrc as "source"
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
     where not t.tgisinternal and c.relnamespace = current_schema()::regnamespace and not c.relispartition`)
  ).rows;

  const tables: Catalogue['tables'] = new Map();
  for (const { table, column, nullable } of columns) {
    const entry = tables.get(table) ?? { columns: new Set<string>(), partnerIdNullable: null };
    entry.columns.add(column);
    if (column === 'partner_id') entry.partnerIdNullable = nullable;
    tables.set(table, entry);
  }
  return {
    tables,
    uniques: uniques.map((row) => ({ ...row, columns: row.columns.split(',') })),
    foreignKeys: foreignKeys.map((row) => ({
      ...row,
      fromColumns: row.fromColumns.split(','),
      toColumns: row.toColumns.split(','),
    })),
    triggers,
  };
}

export const hasPartnerId = (catalogue: Catalogue, table: string) =>
  catalogue.tables.get(table)?.columns.has('partner_id') ?? false;

/** Tables sharded by partner: a partner_id column, and not global by design. */
export function tenantTables(catalogue: Catalogue): Set<string> {
  return new Set(
    [...catalogue.tables.keys()].filter(
      (table) => hasPartnerId(catalogue, table) && !(table in GLOBAL_WITH_PARTNER_ID),
    ),
  );
}

/** (a) Every way a table with partner_id could not be sharded by it, one line each. */
export function shardKeyViolations(catalogue: Catalogue): string[] {
  const found: string[] = [];
  for (const [table, { partnerIdNullable }] of catalogue.tables) {
    if (partnerIdNullable === null) continue;
    if (partnerIdNullable) found.push(`${table}: partner_id nullable`);
    const primary = catalogue.uniques.find((unique) => unique.table === table && unique.primary);
    if (!primary) found.push(`${table}: no primary key`);
    else if (primary.columns[0] !== 'partner_id') found.push(`${table}: primary key (${primary.columns})`);
    for (const unique of catalogue.uniques) {
      if (unique.table === table && !unique.primary && !unique.columns.includes('partner_id'))
        found.push(`${table}: unique (${unique.columns})`);
    }
  }
  return found.sort();
}

/** (b) Foreign keys between two partner tables that do not pair partner_id with partner_id. */
export function crossShardForeignKeys(catalogue: Catalogue): string[] {
  return catalogue.foreignKeys
    .filter((key) => hasPartnerId(catalogue, key.from) && hasPartnerId(catalogue, key.to))
    .filter((key) => !key.fromColumns.some((column, i) => column === 'partner_id' && key.toColumns[i] === 'partner_id'))
    .map((key) => `${key.from}(${key.fromColumns}) -> ${key.to}(${key.toColumns})`)
    .sort();
}

/** Foreign keys from a global table into a tenant table: a table copied to every node cannot point into a shard. */
export function globalToTenantKeys(catalogue: Catalogue): string[] {
  const tenant = tenantTables(catalogue);
  return catalogue.foreignKeys
    .filter((key) => !tenant.has(key.from) && tenant.has(key.to))
    .map((key) => `${key.from}(${key.fromColumns}) -> ${key.to}(${key.toColumns})`)
    .sort();
}

// What a trigger function's body may not do: write a table (or run SQL built at run time, which could).
// String literals and comments are blanked first, so a message or a `tg_op = 'UPDATE'` test is not read as a write.
const WRITES =
  /\b(insert\s+into|update\s+(?:only\s+)?[\w."]+\s+(?:as\s+)?[\w"]*\s*set|delete\s+from|merge\s+into|truncate|copy|execute)\b/gi;

/**
 * The triggers a table distributed by partner cannot keep: any user trigger on a tenant table (a
 * distributed table refuses them), and on any table a trigger whose function writes (a shard's trigger
 * cannot write the coordinator's tables, and a copied table's would write once per node). One line each.
 */
export function triggerViolations(catalogue: Catalogue): string[] {
  const tenant = tenantTables(catalogue);
  const found: string[] = [];
  for (const trigger of catalogue.triggers) {
    if (tenant.has(trigger.table)) found.push(`${trigger.table}: trigger ${trigger.name}`);
    const body = trigger.source.replace(/'(?:[^']|'')*'/g, "''").replace(/--[^\n]*/g, '');
    const writes = [...new Set([...body.matchAll(WRITES)].map((match) => match[1]!.toLowerCase().split(/\s+/)[0]))];
    if (writes.length)
      found.push(
        `${trigger.table}: trigger ${trigger.name} runs ${trigger.function}(), which writes (${writes.join(', ')})`,
      );
  }
  return found.sort();
}

/** The tables partnerScope (partnerScope.ts) reads a statement against: all, the tenant ones, those with partner_id. */
export interface ScopeTables {
  tables: Set<string>;
  tenant: Set<string>;
  withPartnerId: Set<string>;
}

/** The scope tables of the database's own catalogue. */
export async function readScopeTables(dbOrTrx: DbOrTrx): Promise<ScopeTables> {
  const catalogue = await readCatalogue(dbOrTrx);
  return {
    tables: new Set(catalogue.tables.keys()),
    tenant: tenantTables(catalogue),
    withPartnerId: new Set([...catalogue.tables.keys()].filter((table) => hasPartnerId(catalogue, table))),
  };
}
