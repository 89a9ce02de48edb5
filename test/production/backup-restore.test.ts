// A logical backup and its restore (Postgres only; docs/operating.md, Deployment: Backups and restore):
// `pg_dump -Fc` of a database with the demo data and the month partitions of the ledger and the event
// log, `pg_restore` into an empty database, then the restored copy holds the same ledger, passes
// ledger:check's checks, has the same partitions and migrations, and its sequences go on where the
// original's stood (a payment recorded after a restore takes a new id).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { checkLedger } from '../../src/ledger/check.js';
import { createPostgresDatabase, createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { ledgerSnapshot } from '../support/ledger.js';

const run = promisify(execFile);
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** What must survive a round trip besides the ledger: tables (partitions included), migrations, sequences. */
async function shape(db: Db) {
  const tables = await db.raw<{ rows: Array<{ name: string; rows: string }> }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
  );
  const sequences = await db.raw<{ rows: Array<{ name: string; last: string | null }> }>(
    `select sequencename as name, last_value::text as last from pg_sequences where schemaname = 'public' order by 1`,
  );
  return {
    tables: tables.rows.map((row) => row.name),
    migrations: (await db('knex_migrations').orderBy('id').select('name')).map((row) => row.name as string),
    sequences: sequences.rows,
  };
}

describe.skipIf(!onPostgres)('pg_dump and pg_restore', () => {
  let original: TestDatabase;
  let restored: Db;

  beforeAll(async () => {
    original = await createTestDatabase();
    cleanups.push(() => original.destroy());
    const dir = mkdtempSync(join(tmpdir(), 'dfs-backup-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dump = join(dir, 'financing.dump');
    // The commands of the manual, word for word.
    await run('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${original.url}`]);
    expect(statSync(dump).size).toBeGreaterThan(0);
    const target = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    cleanups.push(() => target.drop());
    const restoredRun = await run('pg_restore', ['--exit-on-error', '--no-owner', `--dbname=${target.url}`, dump]);
    expect(restoredRun.stderr).toBe('');
    restored = createDb({ databaseUrl: target.url, dataDir: null });
    cleanups.push(() => restored.destroy());
  }, 120_000);

  it('restores the same ledger, and ledger:check finds nothing wrong with the copy', async () => {
    const before = await ledgerSnapshot(original.db);
    expect(before.payments).toBeGreaterThan(0); // the demo data set has a ledger to compare
    expect(await ledgerSnapshot(restored)).toEqual(before);
    const report = await checkLedger(restored);
    expect(report.problems).toEqual([]);
    expect(report.checked).toEqual((await checkLedger(original.db)).checked);
  });

  it('restores every table and month partition, the migrations applied, and the sequences where they stood', async () => {
    const expected = await shape(original.db);
    for (const table of ['transactions', 'events']) {
      expect(
        expected.tables.some((name) => new RegExp(`^${table}_y\\d{4}m\\d{2}$`).test(name)),
        table,
      ).toBe(true);
    }
    expect(await shape(restored)).toEqual(expected);
  });
});
