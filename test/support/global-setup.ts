// Says which database the suite runs on, so a log of the run shows it; gives the run a temporary
// directory of its own (TMPDIR, inherited by the test workers) and fails the run if a test left anything in it.
// On PGlite it also migrates one database and leaves its image for the workers (PGLITE_MIGRATED_IMAGE):
// each test file's database starts from it instead of running PGlite's initdb and every migration again;
// on Postgres, likewise, one migrated database the files' databases are copied from (POSTGRES_MIGRATED_TEMPLATE).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMigratedPostgresTemplate, dumpMigratedPglite } from './db.js';

const named = (files: string[]) =>
  files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');

export default async function setup(): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  const where = url
    ? `Postgres (${new URL(url).host}), a fresh database per test file`
    : 'embedded PGlite, in memory, one per test file';
  process.stdout.write(`\n[test database] ${where}\n`);

  // Made before TMPDIR points at the run's directory (os.tmpdir() reads it), so the image, the setup's
  // own file, is not among the leftovers that fail the run.
  const imageDir = url ? null : mkdtempSync(join(tmpdir(), 'dfs-test-pglite-'));
  if (imageDir) {
    const image = join(imageDir, 'migrated.tar');
    writeFileSync(image, await dumpMigratedPglite());
    process.env.PGLITE_MIGRATED_IMAGE = image;
  }
  // On Postgres one migrated database, which each test file's migrated database is copied from.
  const template = url ? await createMigratedPostgresTemplate(url) : null;
  if (template) process.env.POSTGRES_MIGRATED_TEMPLATE = template.name;
  const runTmp = mkdtempSync(join(tmpdir(), 'dfs-test-run-'));
  const outerTmp = process.env.TMPDIR;
  process.env.TMPDIR = runTmp;
  return async () => {
    if (template) {
      await template.drop();
      delete process.env.POSTGRES_MIGRATED_TEMPLATE;
    }
    if (imageDir) {
      rmSync(imageDir, { recursive: true, force: true });
      delete process.env.PGLITE_MIGRATED_IMAGE;
    }
    if (outerTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outerTmp;
    const leftovers = readdirSync(runTmp);
    rmSync(runTmp, { recursive: true, force: true });
    if (leftovers.length === 0) return;
    // A throw here is only logged by vitest; the exit code is what CI sees.
    process.stderr.write(`\ntests left temporary files behind (removed now): ${named(leftovers)}\n`);
    process.exitCode = 1;
  };
}
