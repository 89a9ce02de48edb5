import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrateLatest, pendingMigrations, rollback } from '../../src/db/migrate.js';
import { seedDemoData } from '../../src/fixtures/demo.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

const DOMAIN_TABLES = [
  'adjustments',
  'api_key_writes',
  'api_keys',
  'audit_events',
  'carts',
  'clerks',
  'customer_phone_directory',
  'customers',
  'device_commands',
  'device_credential_directory',
  'device_credentials',
  'device_directory',
  'device_families',
  'device_models',
  'devices',
  'events',
  'finance_order_directory',
  'finance_orders',
  'idempotency_keys',
  'lock_timeline',
  'merchants',
  'operators',
  'partners',
  'payment_reference_directory',
  'payment_references',
  'payment_reversals',
  'payment_vendors',
  'payments',
  'portfolio_snapshots',
  'rate_limits',
  'report_file_chunks',
  'report_runs',
  'sandbox_clocks',
  'transactions',
  'vendor_notifications',
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_endpoints',
];
// Global tables (principals, catalogue, directories); every other table belongs to a partner.
const GLOBAL_TABLES = [
  'api_key_writes',
  'api_keys',
  'audit_events',
  'customer_phone_directory',
  'device_credential_directory',
  'device_directory',
  'device_families',
  'finance_order_directory',
  'device_models',
  'operators',
  'partners',
  'payment_reference_directory',
  'payment_vendors',
  // The request limits' shared counters (keys and client addresses, not tenant data).
  'rate_limits',
  'sandbox_clocks',
  'vendor_notifications',
];

let database: TestDatabase;

async function tables(): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await database
    .db('information_schema.tables')
    .select('table_name')
    .where({ table_schema: 'public', table_type: 'BASE TABLE' })
    .whereNot('table_name', 'like', 'knex_%')
    // A month of a partitioned table (decisions.md 25) is a table of its own, not a domain table.
    .whereRaw('not exists (select 1 from pg_class c where c.relname = table_name and c.relispartition)')
    .orderBy('table_name');
  return rows.map((row) => row.table_name);
}

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false, seed: false });
});
afterAll(async () => database?.destroy());

describe('migrations', () => {
  it('lists every file of migrations/, in order', () => {
    const files = readdirSync(new URL('../../migrations/', import.meta.url))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    expect(Object.keys(MIGRATIONS)).toEqual(files);
  });

  it('go up: every domain table, nothing pending', async () => {
    expect(await tables()).toEqual([]);
    expect(await migrateLatest(database.db)).toEqual(Object.keys(MIGRATIONS));
    expect(await tables()).toEqual(DOMAIN_TABLES);
    expect(await pendingMigrations(database.db)).toEqual([]);
  });

  it('carry partner_id on every tenant table, leading its primary key', async () => {
    const rows: Array<{ table_name: string; column_name: string; ordinal: number }> = await database.db
      .raw(`
      select tc.table_name, kcu.column_name, kcu.ordinal_position as ordinal
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu using (constraint_schema, constraint_name, table_name)
      where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = 'public' and kcu.ordinal_position = 1
    `)
      .then((result: { rows: never[] }) => result.rows);
    const leading = Object.fromEntries(rows.map((row) => [row.table_name, row.column_name]));
    for (const table of DOMAIN_TABLES.filter((name) => !GLOBAL_TABLES.includes(name))) {
      expect(leading[table], table).toBe('partner_id');
    }
  });

  it('go down completely, then up again, and the demo data still loads', async () => {
    expect(await rollback(database.db, true)).toHaveLength(Object.keys(MIGRATIONS).length);
    expect(await tables()).toEqual([]);
    expect(await pendingMigrations(database.db)).toEqual(Object.keys(MIGRATIONS));
    await migrateLatest(database.db);
    expect(await tables()).toEqual(DOMAIN_TABLES);
    await seedDemoData(database.db, { production: false });
    expect(await database.db('partners').count({ n: '*' })).toEqual([{ n: '2' }]);
  });

  it('roll back one batch at a time as well', async () => {
    const undone = await rollback(database.db);
    expect(undone.length).toBeGreaterThan(0);
    await migrateLatest(database.db);
    expect(await tables()).toEqual(DOMAIN_TABLES);
  });
});
