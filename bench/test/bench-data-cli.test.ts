// npm run bench:data's sizes (src/cli/bench-data.ts): --scale N is N times the bench's 20,000 customers,
// --customers N exactly N, never both; every mistake refused with exit code 2 before a database is
// opened. On Postgres, --scale 0.1 fills a fresh database with 2,000 customers.
import { spawn } from 'node:child_process';
import knex from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateLatest } from '../../src/db/migrate.js';
import { customersAtScale } from '../../src/fixtures/benchData.js';
import { createPostgresDatabase, onPostgres } from '../../test/support/db.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

function benchData(args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bench-data.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('bench:data sizes', () => {
  it('scale N is N times the bench data set of 20,000 customers', () => {
    expect(customersAtScale(1)).toBe(20_000);
    expect(customersAtScale(10)).toBe(200_000);
    expect(customersAtScale(100)).toBe(2_000_000);
    expect(customersAtScale(0.1)).toBe(2000);
  });

  it('--help names --scale and --customers', async () => {
    const { code, stdout } = await benchData(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--scale N');
    expect(stdout).toContain('--customers N');
  });

  it.each([
    [['--scale', '10', '--customers', '5000'], '--scale and --customers both name the size'],
    [['--scale', '0'], '--scale takes a number above 0'],
    [['--scale', 'ten'], '--scale takes a number above 0'],
    [['--scale', '0.00001'], 'at least 2 customers'],
    [['--customers', '1.5'], '--customers takes a whole number'],
  ])('refuses %j with exit code 2', async (args, message) => {
    const { code, stderr } = await benchData(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});

describe.skipIf(!onPostgres)('bench:data --scale (Postgres)', () => {
  it('--scale 0.1 fills a migrated, empty database with 2,000 customers', async () => {
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    cleanups.push(() => database.drop());
    const db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
    try {
      await migrateLatest(db);
      const { code, stdout } = await benchData(['--scale', '0.1'], { DATABASE_URL: database.url });
      expect(code).toBe(0);
      expect(stdout).toContain('generating: 2000 customers');
      const counted = await db('customers').count<{ n: string }[]>({ n: '*' });
      expect(Number(counted[0]!.n)).toBe(2000);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
