// Every startup failure is one line on stderr naming the problem and the fix, a non-zero exit code and no
// stack trace (decisions.md 27): the port in use (before the database is touched: a fresh embedded folder
// or Postgres database stays as it was; given a free port, the start says one line while it migrates and
// seeds), the embedded data folder in use by another process,
// and on Postgres in production the database unreachable, missing, refusing the user, and the schema
// behind or ahead of the build (production never migrates at start); then a shutdown that hangs is ended
// after SHUTDOWN_TIMEOUT_MS, naming the step it waited for.
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../src/db/knex.js';
import { MIGRATIONS, migrateLatest } from '../../src/db/migrate.js';
import { seedDemoData } from '../../src/fixtures/demo.js';
import { createPostgresDatabase, onPostgres } from '../support/db.js';
import { listeningPort } from '../support/serviceProcess.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const PRODUCTION = {
  NODE_ENV: 'production',
  TOKEN_SIGNING_SECRET: 'startup-failures-signing-secret-0123456789',
  DEVICE_SIGNING_KEYS: `s:${generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url')}`,
  DEVICE_UNLOCK_SEALING_KEYS: `s:${randomBytes(32).toString('base64url')}`,
};

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dfs-startup-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Run {
  child: ChildProcess;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Resolves with the base URL once the service listens; rejects if it exits first. */
  listening: Promise<string>;
  output: () => string;
}

/** src/main.ts as a child process, with only the given environment. */
function startMain(env: Record<string, string>, args: string[] = []): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
  });
  cleanups.push(() => child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const port = listeningPort(stdout);
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    void exited.then(({ code }) => reject(new Error(`exited with ${code} before listening:\n${stdout}${stderr}`)));
  });
  listening.catch(() => undefined);
  return { child, exited, listening, output: () => stdout + stderr };
}

/** The refusal: exit code 1, one line on stderr matching `pattern`, no stack trace anywhere. */
async function expectOneLineRefusal(run: Run, pattern: RegExp, options: { quietStdout?: boolean } = {}) {
  const { code, stdout, stderr } = await run.exited;
  expect(code, stdout + stderr).toBe(1);
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^startup error: /);
  expect(lines[0]).toMatch(pattern);
  expect(stdout + stderr).not.toMatch(/^\s+at /m);
  if (options.quietStdout) expect(stdout).toBe('');
  return lines[0]!;
}

/** A TCP port free a moment ago (listened on and let go). */
async function freePort(): Promise<number> {
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP port this test holds open, as another process would. */
async function occupiedPort(): Promise<number> {
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as { port: number }).port;
}

/**
 * A request whose body never finishes (REQUEST_TIMEOUT_MS far away): the listener's close waits for it.
 * Resolves once the service has read its head (a 100 Continue is not asked for: the head is in when the
 * socket has been written and the service answers another request after it).
 */
async function hangingRequest(baseUrl: string): Promise<Socket> {
  const { port } = new URL(baseUrl);
  const socket = new Socket();
  cleanups.push(() => socket.destroy());
  await new Promise<void>((resolve) => socket.connect(Number(port), '127.0.0.1', resolve));
  socket.write(
    'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"qu',
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  return socket;
}

/** SIGTERM, then the exit: code 1 and the error line naming the listener's requests in flight. */
async function expectBoundedShutdown(run: Run) {
  run.child.kill('SIGTERM');
  const { code, stdout } = await run.exited;
  expect(code, stdout).toBe(1);
  const timedOut = stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .find((line) => /shutdown did not finish/.test(line.msg));
  expect(timedOut, stdout).toMatchObject({ step: 'the listener: requests in flight', shutdownTimeoutMs: 1000 });
  expect(stdout).not.toContain('"msg":"stopped"');
}

describe('the port first, then one line while the database is prepared', () => {
  it('a port in use fails before the database is touched; a free one says one line, then migrates and seeds', {
    timeout: 600_000,
  }, async () => {
    const dataDir = tempDir();
    let database: { url: string; drop: () => Promise<void> } | undefined;
    if (onPostgres) {
      database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
      cleanups.push(() => database!.drop());
    }
    // A development start: Postgres when the suite runs on it, else a new embedded folder.
    const env = { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) };
    const untouched = async () => {
      if (!database) return !existsSync(join(dataDir, 'pglite')) && !existsSync(join(dataDir, 'pglite.lock'));
      const db = createDb({ databaseUrl: database.url, dataDir: null, poolMax: 1 });
      try {
        return !(await db.schema.hasTable('knex_migrations'));
      } finally {
        await db.destroy();
      }
    };
    expect(await untouched()).toBe(true);

    const port = await occupiedPort();
    const line = await expectOneLineRefusal(startMain({ ...env, PORT: String(port) }), /is in use by another process/, {
      quietStdout: true,
    });
    expect(line).toBe(
      `startup error: port ${port} on 127.0.0.1 is in use by another process; stop that process or set PORT to a free port`,
    );
    expect(await untouched(), 'the start opened, migrated or seeded the database before it failed on its port').toBe(
      true,
    );

    // A free port: one line before the work, then the banner once ready. A request sent while the
    // database is prepared finds the port open and is answered once the service is ready.
    const chosen = await freePort();
    const first = startMain({ ...env, PORT: String(chosen) });
    await vi.waitFor(() => expect(first.output()).toContain('preparing the database'), {
      timeout: 300_000,
      interval: 20,
    });
    const early = await fetch(`http://127.0.0.1:${chosen}/readyz`);
    expect(early.status).toBe(200);
    await first.listening;
    const lines = first.output().split('\n');
    const preparing = lines.filter((text) => text.startsWith('preparing the database'));
    const migrations = Object.keys(MIGRATIONS).length;
    expect(preparing).toEqual([
      `preparing the database: applying ${migrations} migrations${database ? '' : ', then loading the demo data set'} ...`,
    ]);
    const banner = lines.findIndex((text) => text.startsWith('device-financing service listening on'));
    expect(lines.indexOf(preparing[0]!)).toBeLessThan(banner);
    if (!database) {
      const seeded = lines.findIndex((text) => text.includes('demo data loaded into the new embedded database'));
      expect(lines.indexOf(preparing[0]!)).toBeLessThan(seeded);
    }
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);

    // Nothing left to do: nothing said.
    const again = startMain(env);
    await again.listening;
    expect(again.output()).not.toContain('preparing the database');
    again.child.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
  });
});

describe.skipIf(onPostgres)('startup failures on the embedded database', () => {
  // One folder for the file: the first start migrates and seeds it (slow on a busy machine), the others reuse it.
  let dataDir: string;

  it('port in use, then the data folder in use by a running service; a hung shutdown ends after SHUTDOWN_TIMEOUT_MS', {
    timeout: 600_000,
  }, async () => {
    dataDir = tempDir();
    // The folder starts migrated and seeded (the suite's migrated image): the children only open it.
    const image = process.env.PGLITE_MIGRATED_IMAGE;
    const embedded = createDb({
      databaseUrl: null,
      dataDir: join(dataDir, 'pglite'),
      ...(image ? { embeddedImage: new Blob([readFileSync(image)]) } : {}),
    });
    await migrateLatest(embedded);
    await seedDemoData(embedded, { production: false });
    await embedded.destroy();
    const port = await occupiedPort();
    // The port is taken: the start fails before it opens the embedded database.
    const portInUse = startMain({ DATA_DIR: dataDir, PORT: String(port) });
    const line = await expectOneLineRefusal(portInUse, /is in use by another process; .*set PORT/);
    expect(line).toBe(
      `startup error: port ${port} on 127.0.0.1 is in use by another process; stop that process or set PORT to a free port`,
    );

    const first = startMain({ DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '600000' });
    const baseUrl = await first.listening;
    const second = startMain({ DATA_DIR: dataDir });
    await expectOneLineRefusal(
      second,
      new RegExp(
        `the embedded database in .*pglite is in use by process ${first.child.pid} .*; stop that process first`,
      ),
      { quietStdout: true },
    );
    // The first never noticed: it still serves.
    expect((await fetch(`${baseUrl}/v1/list-clerks.php?key=demo-partner-key`)).status).toBe(200);

    await hangingRequest(baseUrl);
    await expectBoundedShutdown(first);
  });

  it('takes over the lock of a process that is gone', { timeout: 300_000 }, async () => {
    // A pid no process has: the lock of a killed service.
    writeFileSync(join(dataDir, 'pglite.lock'), '2147483646\n');
    const run = startMain({ DATA_DIR: dataDir });
    await run.listening;
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(0);
  });
});

describe.skipIf(!onPostgres)('startup failures on Postgres, in production', () => {
  const admin = process.env.TEST_DATABASE_URL!;
  const urlWith = (change: (url: URL) => void) => {
    const url = new URL(admin);
    change(url);
    return url.toString();
  };

  it('the database unreachable, missing, or refusing the user: one line each, no password', {
    timeout: 300_000,
  }, async () => {
    // The three start together (each loads the whole service first: slow on a busy machine).
    const unreachable = startMain({
      ...PRODUCTION,
      DATABASE_URL: 'postgres://app:s3cret-password@127.0.0.1:1/financing',
    });
    const missing = startMain({
      ...PRODUCTION,
      DATABASE_URL: urlWith((url) => (url.pathname = '/dfs_no_such_database')),
    });
    const stranger = startMain({
      ...PRODUCTION,
      DATABASE_URL: urlWith((url) => {
        url.username = 'dfs_no_such_role';
        url.password = 's3cret-password';
      }),
    });
    // The release step says the same in one line.
    const releaseStep = spawn('npm', ['run', '--silent', 'db:migrate'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: 'postgres://app:s3cret-password@127.0.0.1:1/financing',
      },
    });
    let releaseErrors = '';
    releaseStep.stderr!.on('data', (chunk) => (releaseErrors += chunk));
    const releaseExit = new Promise<number | null>((resolve) => releaseStep.on('close', resolve));
    const refused = await expectOneLineRefusal(
      unreachable,
      /database unreachable at 127\.0\.0\.1:1: connection refused; start Postgres there or fix DATABASE_URL/,
      { quietStdout: true },
    );
    expect(refused).not.toContain('s3cret');
    await expectOneLineRefusal(
      missing,
      /database "dfs_no_such_database" does not exist on .*; create it \(createdb dfs_no_such_database\) or fix DATABASE_URL/,
      { quietStdout: true },
    );
    const auth = await expectOneLineRefusal(
      stranger,
      /authentication failed for user "dfs_no_such_role" on .*; fix the user or password in DATABASE_URL/,
      { quietStdout: true },
    );
    expect(auth).not.toContain('s3cret');
    expect(await releaseExit).toBe(1);
    expect(releaseErrors).toBe(
      'database error: database unreachable at 127.0.0.1:1: connection refused; start Postgres there or fix DATABASE_URL\n',
    );
  });

  it('the schema behind (refused, never migrated), migrated by the release step, then ahead (refused); a hung shutdown ends', {
    timeout: 300_000,
  }, async () => {
    const database = await createPostgresDatabase(admin);
    cleanups.push(() => database.drop());
    const env = { ...PRODUCTION, DATABASE_URL: database.url, DATA_DIR: tempDir() };

    const behind = startMain(env);
    await expectOneLineRefusal(
      behind,
      /the database schema is behind this release: \d+ migration\(s\) pending \(20261121000100_principals, .* more\); run npm run db:migrate \(the release step\) before starting/,
      { quietStdout: true },
    );
    const db = createDb({ databaseUrl: database.url, dataDir: null, poolMax: 1 });
    cleanups.push(() => db.destroy());
    expect(await db.schema.hasTable('knex_migrations'), 'production migrated at start').toBe(false);

    // The release step, as an operator runs it.
    const migrate = spawn('npm', ['run', '--silent', 'db:migrate'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    const migrated = await new Promise<number | null>((resolve) => migrate.on('close', resolve));
    expect(migrated).toBe(0);

    const current = startMain({ ...env, SHUTDOWN_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '600000' });
    const baseUrl = await current.listening;
    // Production: no banner, the JSON line instead.
    expect(current.output()).not.toContain('start here');
    const listening = current
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"listening"'))
      .map((line) => JSON.parse(line));
    expect(listening).toEqual([
      expect.objectContaining({ host: '127.0.0.1', port: Number(new URL(baseUrl).port), role: 'all' }),
    ]);
    expect(listening[0].database).toMatch(/^Postgres at 127\.0\.0\.1:\d+\/dfs_test_/);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
    await hangingRequest(baseUrl);
    await expectBoundedShutdown(current);

    await db('knex_migrations').insert({
      name: '29990101000000_from_a_newer_release',
      batch: 99,
      migration_time: new Date(),
    });
    const ahead = startMain(env);
    await expectOneLineRefusal(
      ahead,
      /the database schema is ahead of this release: 1 migration\(s\) it does not know were applied \(29990101000000_from_a_newer_release\); start the release that applied them/,
      { quietStdout: true },
    );
    // Outside production too: a database ahead of the code is never migrated "back".
    const aheadInDevelopment = startMain({ DATABASE_URL: database.url, DATA_DIR: tempDir() });
    await expectOneLineRefusal(aheadInDevelopment, /the database schema is ahead of this release/);
  });
});
