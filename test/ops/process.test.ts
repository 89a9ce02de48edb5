// The service as a newcomer runs it: `npm start` (src/main.ts) and the db:* commands, as real child
// processes. On PGlite: the embedded default under a fresh DATA_DIR. On Postgres (TEST_DATABASE_URL):
// db:migrate, db:seed and start against a fresh database. Both must give the golden bodies, byte for byte.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createDb } from '../../src/db/knex.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import { createPostgresDatabase, onPostgres } from '../support/db.js';
import { expectReadmeExamplesWork, readmeShellBlock, runReadmeShell } from '../support/readme.js';

const ROOT = new URL('../../', import.meta.url).pathname;

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'info', ...extra };
  return env;
}

/** A child's whole output and exit code. */
function collect(child: ChildProcess): Promise<Finished> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `node --import tsx <script> ...args` to completion. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return collect(spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env }));
}

interface Started {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Sends SIGTERM and waits for the exit code. */
  stop: () => Promise<number | null>;
}

// Every service this file starts, so none outlives a failed test.
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts src/main.ts on a free port and waits for its banner. */
function start(env: NodeJS.ProcessEnv): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { ...env, PORT: '0', HOST: '127.0.0.1' },
    });
    running.add(child);
    child.on('close', () => running.delete(child));
    let output = '';
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        resolve({
          child,
          baseUrl: `http://127.0.0.1:${match[1]}`,
          output: () => output,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => (output += chunk));
    void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
}

/** Runs the README's example block against a started service; its output, or the failure. */
function runReadmeExamples(baseUrl: string): Promise<Finished> {
  return runReadmeShell(readmeShellBlock('readme-examples'), baseUrl);
}

function golden(name: string): string {
  const file = JSON.parse(readFileSync(join(ROOT, 'test/golden', `${name}.json`), 'utf8'));
  return JSON.stringify(file.response.body);
}

const dataDirs: string[] = [];
const tempDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dfs-process-'));
  dataDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('configuration', () => {
  it('stops at start with a message naming a bad variable', async () => {
    const result = await run('src/main.ts', [], baseEnv({ PORT: 'abc', DATA_DIR: tempDataDir() }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('configuration error: PORT must be a whole number, got "abc"');
  });

  it('refuses to seed in production mode', async () => {
    // Nothing is connected: the refusal comes before any query (and no secret is asked for first).
    const result = await run(
      'src/cli/db.ts',
      ['seed'],
      baseEnv({ NODE_ENV: 'production', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/unused' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refused: the demo data set is never loaded in production mode');
  });

  it('runs every command in production with DATABASE_URL alone: each goes for the database (decisions.md 27)', async () => {
    // A port nothing listens on: each command gets past its configuration and says the database's failure.
    const env = baseEnv({ NODE_ENV: 'production', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/financing' });
    const npmScript = (args: string[]) =>
      collect(spawn(process.execPath, ['scripts/run-command.mjs', ...args], { cwd: ROOT, env }));
    const commands = [['db', 'migrate'], ['db', 'rollback'], ['keys', 'list'], ['ledger-check'], ['events-purge']];
    const results = await Promise.all(commands.map(npmScript));
    for (const [index, result] of results.entries()) {
      const name = commands[index]!.join(' ');
      expect(result.code, `${name}: ${result.stderr}`).toBe(1);
      expect(result.stderr, name).toMatch(
        /^database error: database unreachable at 127\.0\.0\.1:1: connection refused; /,
      );
      expect(result.stderr, name).not.toMatch(/^\s+at /m);
    }
    // The one command that seals needs its key, and says so in one line.
    const sealing = await npmScript(['keys', 'seal-unlock-keys']);
    expect(sealing.code).toBe(1);
    expect(sealing.stderr).toBe(
      'configuration error: DEVICE_UNLOCK_SEALING_KEYS is required when NODE_ENV=production\n',
    );
  });
});

describe('the db command line', () => {
  it('prints its usage for --help and refuses an unknown option or a misplaced --all with exit code 2', async () => {
    const env = baseEnv({ DATA_DIR: tempDataDir() });
    const help = await run('src/cli/db.ts', ['rollback', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run db:migrate \| db:rollback \[-- --all\] \| db:seed \| db:distribute\n/);
    for (const [args, message] of [
      [['migrate', '--dry-run'], "Unknown option '--dry-run'"],
      [['migrate', '--all'], '--all goes with rollback only'],
      [['--all=yes', 'rollback'], "Option '--all' does not take an argument"],
      [['rollback', 'twice'], 'unexpected argument twice'],
    ] as const) {
      const result = await run('src/cli/db.ts', [...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      const [first, ...usage] = result.stderr.split('\n');
      expect(first).toBe(message);
      expect(usage.join('\n')).toMatch(/^usage: npm run db:migrate /);
    }
    // The documented npm run db:rollback -- --all still reads (here on a database with nothing to undo).
    const rollbackAll = await run('src/cli/db.ts', ['rollback', '--all'], env);
    expect(rollbackAll.code, rollbackAll.stderr).toBe(0);
    expect(rollbackAll.stdout).toContain('nothing to roll back');
  });
});

describe.skipIf(onPostgres)('npm start on the embedded default', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = tempDataDir();
  });

  it('migrates, seeds, serves the golden bodies, prints the demo keys, and drains on SIGTERM', async () => {
    const service = await start(baseEnv({ DATA_DIR: dataDir }));
    const clerks = await fetch(`${service.baseUrl}/v1/list-clerks.php?key=demo-partner-key`);
    expect(clerks.status).toBe(200);
    expect(await clerks.text()).toBe(golden('list-clerks/demo-partner-key'));
    const merchants = await fetch(`${service.baseUrl}/v1/list-merchants.php?key=demo-partner-key`);
    expect(await merchants.text()).toBe(golden('list-merchants/demo-partner-key'));
    expect(service.output()).toContain('demo data loaded into the new embedded database');
    expect(service.output()).toMatch(/demo-partner-key\s+partner key of Demo Retail/);
    expect(service.output()).toMatch(/demo-operator-key\s+operator key of Operations/);
    // The request log never carries the key from the query string.
    expect(service.output()).toContain('"path":"/v1/list-clerks.php"');
    expect(service.output()).not.toContain('key=demo-partner-key');
    expectReadmeExamplesWork(await runReadmeExamples(service.baseUrl));
    expect(await service.stop()).toBe(0);
  });

  it('keeps the data across a restart and does not seed again', async () => {
    const service = await start(baseEnv({ DATA_DIR: dataDir }));
    expect(service.output()).not.toContain('demo data loaded');
    const response = await fetch(`${service.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-operator-key' },
      body: JSON.stringify({ query: '{ partners(first: 10) { name merchants(first: 100) { id } } }' }),
    });
    const body = (await response.json()) as { data: { partners: Array<{ name: string; merchants: unknown[] }> } };
    expect(body.data.partners.map((p) => [p.name, p.merchants.length])).toEqual([
      ['Demo Retail', 3],
      ['Other Retail', 1],
    ]);
    expect(await service.stop()).toBe(0);
  });

  it('db:seed refuses the database that now holds data', async () => {
    const result = await run('src/cli/db.ts', ['seed'], baseEnv({ DATA_DIR: dataDir }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refused: the database already holds data');
  });
});

describe.skipIf(!onPostgres)('db:migrate, db:seed and npm start on an empty Postgres database', () => {
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase(process.env.TEST_DATABASE_URL!));
  });
  afterAll(async () => drop?.());

  it('gives the same bodies as the embedded default, byte for byte', async () => {
    const env = baseEnv({ DATABASE_URL: url, DATA_DIR: tempDataDir() });
    const migrated = await run('src/cli/db.ts', ['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('applied: 20261121000100_principals');
    const seeded = await run('src/cli/db.ts', ['seed'], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stdout).not.toContain('@'); // the database line names host and database, never credentials

    const service = await start(env);
    try {
      for (const name of [
        'list-clerks/demo-partner-key',
        'list-clerks/other-partner-key',
        'list-merchants/demo-partner-key',
      ]) {
        const request = JSON.parse(readFileSync(join(ROOT, 'test/golden', `${name}.json`), 'utf8')).request;
        const response = await fetch(`${service.baseUrl}${request.path}`);
        expect(await response.text(), name).toBe(golden(name));
      }
      // Started on a real server, the service does not seed by itself.
      expect(service.output()).not.toContain('demo data loaded');
      expectReadmeExamplesWork(await runReadmeExamples(service.baseUrl));
    } finally {
      expect(await service.stop()).toBe(0);
    }
    const again = await run('src/cli/db.ts', ['seed'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('refused: the database already holds data');
  });

  it('delivers to a subscriber an event another process committed, and closes it (1001) on SIGTERM', async () => {
    const service = await start(baseEnv({ DATABASE_URL: url, DATA_DIR: tempDataDir() }));
    const writer = createDb({ databaseUrl: url, dataDir: null, poolMax: 1 });
    try {
      const received: string[] = [];
      let closed: { code: number; reason: string } | undefined;
      const client = createClient({
        url: `${service.baseUrl.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'X-Api-Key': 'demo-partner-key' },
        retryAttempts: 0,
        on: { closed: (event) => (closed = event as { code: number; reason: string }) },
      });
      client.subscribe(
        { query: 'subscription { events { id } }' },
        {
          next: (value) => received.push((value.data as { events: { id: string } }).events.id),
          error: () => {},
          complete: () => {},
        },
      );
      const partnerId = String((await writer('partners').where({ name: 'Demo Retail' }).first()).id);
      const commit = async () => {
        const rows = await writer.transaction((trx) =>
          appendEvents(trx, partnerId, [{ type: 'payment.recorded', occurredAt: new Date(), data: {} }]),
        );
        return rows[0]!.id;
      };
      // Nothing says from outside when the subscription is live: commit until one event arrives, then one more.
      await vi.waitFor(
        async () => {
          await commit();
          expect(received.length).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      const id = await commit();
      await vi.waitFor(() => expect(received).toContain(id));
      expect(await service.stop()).toBe(0);
      await vi.waitFor(() => expect(closed).toMatchObject({ code: 1001 }));
    } finally {
      service.child.kill('SIGKILL');
      await writer.destroy();
    }
  });
});
