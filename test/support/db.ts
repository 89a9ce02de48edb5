// A fresh database for one test file, removed afterwards: in-memory PGlite by default, a new database on
// the Postgres server named by TEST_DATABASE_URL (which must allow CREATE DATABASE), or on the Citus
// cluster named by TEST_CITUS_URL (test/support/citus.ts).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import knex from 'knex';
import { createDb, type Db } from '../../src/db/knex.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { seedDemoData } from '../../src/fixtures/demo.js';
import { createCitusDatabase, onCitus } from './citus.js';

export interface TestDatabase {
  db: Db;
  backend: 'pglite' | 'postgres' | 'citus';
  /** The database's own URL on Postgres (for child processes); null on PGlite. */
  url: string | null;
  destroy: () => Promise<void>;
}

export interface TestDatabaseOptions {
  /** Apply the migrations (default true). */
  migrate?: boolean;
  /** Load the demo data set (default true; implies migrate). */
  seed?: boolean;
  /** The seed's clock. */
  now?: Date;
}

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** A real server, Postgres or the Citus cluster: where races are run (PGlite runs one statement at a time). */
export const onServer = onPostgres || onCitus;

/** Where the suite's global setup left the migrated PGlite image (PGLITE_MIGRATED_IMAGE), read once per worker. */
let migratedImage: Blob | null | undefined;
function migratedPgliteImage(): Blob | null {
  if (migratedImage === undefined) {
    const path = process.env.PGLITE_MIGRATED_IMAGE;
    migratedImage = path ? new Blob([readFileSync(path)]) : null;
  }
  return migratedImage;
}

/** An embedded database with every migration applied, dumped as PGlite's data directory (global setup). */
export async function dumpMigratedPglite(): Promise<Buffer> {
  const db = createDb({ databaseUrl: null, dataDir: null });
  try {
    await migrateLatest(db);
    // knex-pglite's one connection is the PGlite instance itself.
    const pglite = (await db.client.acquireConnection()) as PGlite;
    try {
      return Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
    } finally {
      await db.client.releaseConnection(pglite);
    }
  } finally {
    await db.destroy();
  }
}

async function withAdmin<T>(adminUrl: string, work: (admin: knex.Knex) => Promise<T>): Promise<T> {
  const admin = knex({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  try {
    return await work(admin);
  } finally {
    await admin.destroy();
  }
}

/**
 * A Postgres database with every migration applied, for the test files' databases to be copied from
 * (global setup; POSTGRES_MIGRATED_TEMPLATE names it): copying it takes about a third of the time of
 * migrating an empty database, the Postgres counterpart of PGlite's migrated image.
 */
export async function createMigratedPostgresTemplate(
  adminUrl: string,
): Promise<{ name: string; drop: () => Promise<void> }> {
  const created = await createPostgresDatabase(adminUrl);
  const db = createDb({ databaseUrl: created.url, dataDir: null, poolMax: 1 });
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy(); // a template is copied only while nobody is connected to it
  }
  return { name: new URL(created.url).pathname.slice(1), drop: created.drop };
}

/**
 * Creates a Postgres database and returns its URL and a remover: empty, or a copy of `template` (a
 * database nobody is connected to).
 */
export async function createPostgresDatabase(
  adminUrl: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `dfs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (admin) =>
    template ? admin.raw('create database ?? template ??', [name, template]) : admin.raw('create database ??', [name]),
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin(adminUrl, (admin) => admin.raw('drop database if exists ?? with (force)', [name])).then(
        () => undefined,
      ),
  };
}

export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const seed = options.seed ?? true;
  const migrate = seed || (options.migrate ?? true);
  const adminUrl = process.env.TEST_DATABASE_URL;

  let test: TestDatabase;
  if (onCitus) {
    // A cluster of its own (test/support/citus.ts): migrated and distributed there, no template to copy.
    const created = await createCitusDatabase({ migrate });
    test = { db: created.db, backend: 'citus', url: created.url, destroy: created.destroy };
  } else if (adminUrl) {
    // A migrated database starts as a copy of the global setup's template; migrateLatest then finds nothing to do.
    const template = migrate ? process.env.POSTGRES_MIGRATED_TEMPLATE : undefined;
    const created = await createPostgresDatabase(adminUrl, template);
    const db = createDb({ databaseUrl: created.url, dataDir: null, poolMax: 20 });
    test = {
      db,
      backend: 'postgres',
      url: created.url,
      destroy: async () => {
        await db.destroy();
        await created.drop();
      },
    };
  } else {
    // A migrated database starts from the global setup's image; migrateLatest then finds nothing to do.
    const image = migrate ? migratedPgliteImage() : null;
    const db = createDb({ databaseUrl: null, dataDir: null, ...(image ? { embeddedImage: image } : {}) });
    test = { db, backend: 'pglite', url: null, destroy: () => db.destroy() };
  }
  if (migrate) await migrateLatest(test.db);
  if (seed) await seedDemoData(test.db, { production: false, now: options.now });
  return test;
}
