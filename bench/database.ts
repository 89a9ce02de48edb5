// The bench's database: a fresh dfs_bench_<random> on the Postgres server named by BENCH_DATABASE_URL
// (an admin URL that may CREATE DATABASE; default the local server), migrated and filled by the data
// set's generator (npm run bench:data), and dropped at the end unless --keep; or, with --database, one
// that exists already, migrated to the latest and used as it is.
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { runGenerator } from './fill.js';
import { log, phase } from './log.js';
import { ROOT } from './settings.js';

export interface Database {
  adminUrl: string;
  /** The server runs on this machine: its processes' CPU is read beside the service's (bench/cpu.ts). */
  postgresLocal: boolean;
  name: string;
  url: string;
  /** Whether it was created (and so is to be dropped), and the bench's own connection to it. */
  created: boolean;
  /** --database: an existing database, neither filled nor dropped. */
  reused: boolean;
  db: Db | null;
}

/** A fresh database's name, or `reuse`'s (--database). */
export function benchDatabase(reuse: string | null = null): Database {
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = reuse ?? `dfs_bench_${randomBytes(4).toString('hex')}`;
  return {
    adminUrl,
    postgresLocal: ['127.0.0.1', 'localhost', '[::1]', ''].includes(new URL(adminUrl).hostname),
    name,
    url: databaseUrl(adminUrl, name),
    created: false,
    reused: reuse !== null,
    db: null,
  };
}

/** The admin URL pointed at another database of its server. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(adminUrl: string, work: (admin: knex.Knex) => Promise<T>): Promise<T> {
  const admin = knex({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  try {
    return await work(admin);
  } finally {
    await admin.destroy();
  }
}

/** Creates, migrates and fills the database (phases createAndMigrate and fill); the bench's connection to it. */
export async function createAndFill(database: Database, customers: number): Promise<Db> {
  if (database.reused) {
    await phase('createAndMigrate', async () => {
      database.db = createDb({ databaseUrl: database.url, dataDir: null, poolMax: 4 });
      await migrateLatest(database.db);
    });
    log(`database ${database.name}: reused as it is (--database), not filled`);
    return database.db!;
  }
  await phase('createAndMigrate', async () => {
    await withAdmin(database.adminUrl, (admin) => admin.raw('create database ??', [database.name]));
    database.created = true;
    database.db = createDb({ databaseUrl: database.url, dataDir: null, poolMax: 4 });
    await migrateLatest(database.db);
  });
  log(`database ${database.name}: filling with npm run bench:data`);
  await phase('fill', async () => {
    await database.db!.destroy(); // the generator may want the database to itself
    await runGenerator(ROOT, database.url, customers);
    database.db = createDb({ databaseUrl: database.url, dataDir: null, poolMax: 4 });
  });
  return database.db!;
}

/** Rows of the data set's main tables, printed and recorded. */
export async function countRows(data: Db): Promise<Record<string, number>> {
  const counts = Object.fromEntries(
    await Promise.all(
      ['partners', 'merchants', 'clerks', 'customers', 'devices', 'finance_orders', 'payments', 'transactions'].map(
        async (table) => {
          const row = (await data.raw(`select count(*)::int8 as n from ??`, [table])).rows[0] as { n: string };
          return [table, Number(row.n)] as const;
        },
      ),
    ),
  );
  log(
    `data: ${Object.entries(counts)
      .map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`)
      .join(', ')}`,
  );
  return counts;
}

/** Closes the bench's connection and drops the database (kept with --keep). */
export async function dropDatabase(database: Database, keep: boolean): Promise<void> {
  if (database.db) await database.db.destroy().catch(() => undefined);
  if (database.created && !keep) {
    await withAdmin(database.adminUrl, (admin) =>
      admin.raw('drop database if exists ?? with (force)', [database.name]),
    ).catch((error: unknown) => process.stderr.write(`bench: could not drop ${database.name}: ${String(error)}\n`));
  } else if (database.created) log(`kept database ${database.name} (--keep): ${database.url}`);
}
