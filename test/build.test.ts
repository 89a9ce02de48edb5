// The production build: `npm run build` compiles the service to dist/, and the compiled service runs the way
// production starts it (the start:prod script: plain node, no TypeScript compiler loaded, the heap limit of
// npm start) after the compiled db commands migrated and seeded a fresh database (embedded under a temporary
// DATA_DIR, or a new Postgres database with TEST_DATABASE_URL).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, onPostgres } from './support/db.js';

const ROOT = new URL('../', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const { scripts } = manifest;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function finish(child: ChildProcess): Promise<Finished> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Plain node, as production runs it: no --import, no loader, no TypeScript anywhere on the command line. */
function node(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  expect(args.filter((arg) => /tsx|--import|--loader|--require|\.ts$/.test(arg))).toEqual([]);
  return spawn(process.execPath, args, { cwd: ROOT, env });
}

describe('npm run build and the compiled service', () => {
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    const npmEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    const built = await finish(spawn('npm', ['run', '--silent', 'build'], { cwd: ROOT, env: npmEnv }));
    expect(built.code, built.stdout + built.stderr).toBe(0);

    const dataDir = mkdtempSync(join(tmpdir(), 'dfs-build-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    if (onPostgres) {
      const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
      cleanups.push(() => database.drop());
      env.DATABASE_URL = database.url;
    }
  });

  it('has compiled command line tools: the db commands migrate and seed, the keys command answers --help', async () => {
    const migrated = await finish(node(['dist/src/cli/db.js', 'migrate'], env));
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('applied: 20261121000100_principals');
    const seeded = await finish(node(['dist/src/cli/db.js', 'seed'], env));
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stdout).toContain('demo data loaded');
    const help = await finish(node(['dist/src/cli/keys.js', '--help'], env));
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run keys -- create /);
  });

  it('starts as npm run start:prod does (plain node, the heap limit of npm start) and serves', async () => {
    const [command, ...args] = scripts['start:prod']!.split(' ');
    expect(command).toBe('node');
    expect(args).toContain('dist/src/main.js');
    const heapLimit = /--max-old-space-size=(\d+)/.exec(scripts.start!)!;
    expect(args).toContain(heapLimit[0]);

    const service = node(args, { ...env, PORT: '0', HOST: '127.0.0.1' });
    cleanups.push(() => service.kill('SIGKILL'));
    const exited = finish(service);
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let banner = '';
      service.stdout!.on('data', (chunk) => {
        banner += chunk;
        const port = /listening on 127\.0\.0\.1:(\d+)/.exec(banner)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      void exited.then(({ code, stdout, stderr }) => {
        reject(new Error(`exited with ${code} before listening:\n${stdout}${stderr}`));
      });
    });

    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    const golden = JSON.parse(readFileSync(join(ROOT, 'test/golden/list-clerks/demo-partner-key.json'), 'utf8'));
    const clerks = await fetch(`${baseUrl}${golden.request.path}`);
    expect(clerks.status).toBe(200);
    expect(await clerks.text()).toBe(JSON.stringify(golden.response.body));

    service.kill('SIGTERM');
    const stopped = await exited;
    expect(stopped.code, stopped.stderr).toBe(0);
    // The old generation's ceiling set on the command line, plus V8's young generation.
    const heapLimitMb = Number(/"heapLimitMb":(\d+)/.exec(stopped.stdout)?.[1]);
    expect(heapLimitMb).toBeGreaterThanOrEqual(Number(heapLimit[1]));
    expect(heapLimitMb).toBeLessThan(Number(heapLimit[1]) + 128);
  });
});
