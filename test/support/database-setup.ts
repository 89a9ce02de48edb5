// The global setup of the rooms whose files open a database (vitest.config.ts), so a run of the others
// alone (`npm run test:unit`) starts without it. Says which database the suite runs on, so a log of
// the run shows it. On PGlite it migrates one database and leaves its image for the workers
// (PGLITE_MIGRATED_IMAGE): each test file's database starts from it instead of running PGlite's initdb
// and every migration again; on Postgres, likewise, one migrated database the files' databases are
// copied from (POSTGRES_MIGRATED_TEMPLATE). Both rooms name this file: the first to run makes them,
// the second finds them made.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMigratedPostgresTemplate, dumpMigratedPglite } from './db.js';

const MADE = 'DFS_TEST_DATABASE_SETUP';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[MADE]) return undefined;
  process.env[MADE] = '1';
  const url = process.env.TEST_DATABASE_URL;
  const where = url
    ? `Postgres (${new URL(url).host}), a fresh database per test file`
    : 'embedded PGlite, in memory, one per test file';
  process.stdout.write(`\n[test database] ${where}\n`);

  // Made before the root's global setup points TMPDIR at the run's directory (vitest runs the rooms'
  // setups first), so the image is not among the leftovers that fail the run.
  const imageDir = url ? null : mkdtempSync(join(tmpdir(), 'dfs-test-pglite-'));
  if (imageDir) {
    const image = join(imageDir, 'migrated.tar');
    writeFileSync(image, await dumpMigratedPglite());
    process.env.PGLITE_MIGRATED_IMAGE = image;
  }
  // On Postgres one migrated database, which each test file's migrated database is copied from.
  const template = url ? await createMigratedPostgresTemplate(url) : null;
  if (template) process.env.POSTGRES_MIGRATED_TEMPLATE = template.name;
  return async () => {
    if (template) {
      await template.drop();
      delete process.env.POSTGRES_MIGRATED_TEMPLATE;
    }
    if (imageDir) {
      rmSync(imageDir, { recursive: true, force: true });
      delete process.env.PGLITE_MIGRATED_IMAGE;
    }
    delete process.env[MADE];
  };
}
