// The image without a container engine (Postgres only): the Dockerfile's own steps, read through its
// parser so they cannot drift, run in a temporary folder (the build context .dockerignore lets through,
// the build stage's `npm run build`, the runtime stage's `npm ci --omit=dev` and its COPY of dist/),
// then the runtime folder used as the image uses it: the release step (`npm run db:migrate`, with
// DATABASE_URL alone; and the README's deploy recipe, run as written from the build's folder), the
// image's CMD with `--role api` and `--role worker` (a payment through the API, delivered by the
// worker's webhook to a real receiver; the console served from dist/ with no esbuild), its HEALTHCHECK, and the startup failures an operator meets
// first (port in use, database unreachable, database missing), each one line and a non-zero exit.
// As root (here and in CI), every process of the runtime folder runs as `nobody`, not root, over files
// it cannot write: the image's USER and its read-only code.
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { finish } from '../support/childProcess.js';
import { createPostgresDatabase, onPostgres } from '../support/db.js';
import { buildContextFiles, ROOT, readDockerfile, type Stage } from '../support/dockerfile.js';
import { readmeShellBlock } from '../support/readme.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { listeningPort } from '../support/serviceProcess.js';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
/** The production tree's ceiling (`du -sh node_modules` at most 92 MB: decisions.md 31), in du's KiB. */
const MAX_NODE_MODULES_KIB = 92 * 1024;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh set of production secrets, as an operator makes them once. */
function productionSecrets(): Record<string, string> {
  const device = generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' });
  return {
    TOKEN_SIGNING_SECRET: 'a-signing-secret-of-at-least-32-characters',
    DEVICE_SIGNING_KEYS: `k1:${Buffer.from(device).toString('base64url')}`,
    DEVICE_UNLOCK_SEALING_KEYS: `u1:${randomBytes(32).toString('base64url')}`,
  };
}

describe.skipIf(!onPostgres)("the image's steps in a clean folder", () => {
  let stages: Stage[];
  let runtime: Stage;
  let build: Stage;
  let appDir: string; // the runtime stage's WORKDIR
  let home: string; // the unprivileged user's home (npm keeps its logs there)
  const secrets = productionSecrets();

  /** A process in the runtime folder, as the image's user would run it. */
  function inImage(command: string[], env: Record<string, string>): ChildProcess {
    return spawn(command[0]!, command.slice(1), {
      cwd: appDir,
      env: { PATH: process.env.PATH, HOME: home, ...runtime.env, ...env },
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    });
  }

  beforeAll(async () => {
    stages = readDockerfile();
    build = stages.find((stage) => stage.name === 'build')!;
    runtime = stages.at(-1)!;
    // Under /tmp itself when root, not the run's TMPDIR (mode 700): the unprivileged user must reach it.
    const root = mkdtempSync(join(asRoot ? '/tmp' : tmpdir(), 'dfs-image-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    chmodSync(root, 0o755);
    home = join(root, 'home');
    mkdirSync(home);
    if (asRoot) chownSync(home, NOBODY, NOBODY);
    const context = buildContextFiles();
    const folders = new Map<string, string>(); // stage name -> its WORKDIR here

    for (const stage of stages) {
      const dir = join(root, stage.name);
      mkdirSync(dir, { recursive: true });
      folders.set(stage.name, dir);
      for (const step of stage.steps) {
        if (step.kind === 'copy') {
          const target = join(dir, step.destination);
          if (step.from) {
            const fromStage = stages.find((other) => other.name === step.from)!;
            for (const source of step.sources) {
              expect(source.startsWith(`${fromStage.workdir}/`), source).toBe(true);
              cpSync(join(folders.get(step.from)!, source.slice(fromStage.workdir!.length + 1)), target, {
                recursive: true,
              });
            }
            continue;
          }
          for (const source of step.sources) {
            // A source ending in / is a folder: its files, under the destination by their paths in it.
            const folder = source.endsWith('/');
            const files =
              source === '.' ? context : context.filter((file) => (folder ? file.startsWith(source) : file === source));
            expect(files.length, `COPY ${source}: not in the build context`).toBeGreaterThan(0);
            for (const file of files) {
              const to =
                source === '.'
                  ? join(target, file)
                  : join(target, folder ? file.slice(source.length) : file.split('/').at(-1)!);
              mkdirSync(dirname(to), { recursive: true });
              cpSync(join(ROOT, file), to);
            }
          }
          continue;
        }
        if (stage === build && /^npm ci\b/.test(step.command)) {
          // The build stage's full install is this checkout's own (the same lockfile): installing the
          // whole development tree again would take minutes and prove nothing the runtime stage does not.
          expect(readFileSync(join(dir, 'package-lock.json'), 'utf8')).toBe(
            readFileSync(join(ROOT, 'package-lock.json'), 'utf8'),
          );
          symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
          continue;
        }
        // Every other RUN as the Dockerfile says it; the npm cache mount is this machine's npm cache.
        const ran = await finish(
          spawn('sh', ['-c', step.command], {
            cwd: dir,
            env: { PATH: process.env.PATH, HOME: process.env.HOME, ...stage.env },
          }),
        );
        expect(ran.code, `RUN ${step.command}\n${ran.stdout}${ran.stderr}`).toBe(0);
      }
    }
    appDir = folders.get(runtime.name)!;
    for (const dir of folders.values()) chmodSync(dir, 0o755);
  }, 600_000);

  it('installs the production tree alone: no package the lockfile marks as for development', () => {
    const lock = JSON.parse(readFileSync(join(appDir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; optional?: boolean }>;
    };
    const devOnly = Object.entries(lock.packages)
      .filter(([path, entry]) => path.startsWith('node_modules/') && entry.dev)
      .map(([path]) => path);
    expect(devOnly).toContain('node_modules/tsx'); // the check has something to find
    const installed = new Set(
      readdirSync(join(appDir, 'node_modules'), { withFileTypes: true }).flatMap((entry) =>
        entry.name.startsWith('@')
          ? readdirSync(join(appDir, 'node_modules', entry.name)).map((name) => `node_modules/${entry.name}/${name}`)
          : [`node_modules/${entry.name}`],
      ),
    );
    expect(devOnly.filter((path) => installed.has(path))).toEqual([]);
    // The console is served from the build's bundle: its bundler is not installed here (decisions.md 46).
    expect(devOnly).toContain('node_modules/esbuild');
    expect(installed.has('node_modules/esbuild')).toBe(false);
    expect(readdirSync(join(appDir, 'dist/src')).includes('main.js')).toBe(true);
    expect(readdirSync(join(appDir, 'dist/src/pages/console')).sort()).toEqual(['console.css', 'console.js']);
  });

  it("applies the patches in patches/ as npm ci's postinstall: graphql-jit's leaf checks (decisions.md 47)", () => {
    for (const build of ['execution.js', 'execution.mjs']) {
      const source = readFileSync(join(appDir, 'node_modules/graphql-jit/dist', build), 'utf8');
      expect(source, build).toContain('Patched (docs/decisions.md 47)');
      expect(source, build).not.toContain('checkNonNullLeaf(${');
    }
  });

  it('keeps the production node_modules at most 92 MB (du)', async () => {
    const du = await finish(spawn('du', ['-sk', 'node_modules'], { cwd: appDir }));
    const kib = Number(du.stdout.split('\t')[0]);
    process.stdout.write(`production node_modules: ${(kib / 1024).toFixed(1)} MiB (du -sk ${kib})\n`);
    expect(kib).toBeGreaterThan(0);
    expect(kib).toBeLessThanOrEqual(MAX_NODE_MODULES_KIB);
  });

  /** Every migration the build carries is applied to the database at `url`. */
  async function expectMigrated(url: string): Promise<void> {
    const admin = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    try {
      const applied = await admin('knex_migrations').count({ n: '*' });
      const built = readdirSync(join(appDir, 'dist/migrations')).filter((file) => file.endsWith('.js'));
      expect(Number(applied[0]!.n)).toBe(built.length);
    } finally {
      await admin.destroy();
    }
  }

  it('runs the release step, npm run db:migrate, in the production install with DATABASE_URL alone (no secret, no tsx, no sources)', async () => {
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    cleanups.push(() => database.drop());
    // NODE_ENV=production from the image; the database's URL and nothing else.
    const migrated = await finish(inImage(['npm', 'run', '--silent', 'db:migrate'], { DATABASE_URL: database.url }));
    expect(migrated.code, migrated.stdout + migrated.stderr).toBe(0);
    await expectMigrated(database.url);
    // The other commands that sign nothing, the same way.
    for (const args of [['ledger:check'], ['events:purge'], ['keys', '--', 'list']]) {
      const ran = await finish(inImage(['npm', 'run', '--silent', ...args], { DATABASE_URL: database.url }));
      expect(ran.code, `${args.join(' ')}: ${ran.stdout}${ran.stderr}`).toBe(0);
    }
  });

  it("follows the README's deploy recipe as written: the release step in its clean folder needs the database alone", {
    timeout: 600_000,
  }, async () => {
    const recipe = readmeShellBlock('readme-deploy');
    const [buildLine, ...steps] = recipe.trimEnd().split('\n');
    // Its first line is the build stage's two RUNs, which the Dockerfile's steps above ran in the build's folder.
    expect(buildLine).toBe('npm ci && npm run build');
    expect(build.steps.flatMap((step) => (step.kind === 'run' ? [step.command] : []))).toEqual([
      expect.stringMatching(/^npm ci\b/),
      'npm run build',
    ]);
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    cleanups.push(() => database.drop());
    const release = mkdtempSync(join(tmpdir(), 'dfs-release-'));
    cleanups.push(() => rmSync(release, { recursive: true, force: true }));
    // The recipe's words, its two placeholders pointed here: the release folder and the database.
    const script = steps
      .join('\n')
      .replace(/^RELEASE=\S+$/m, `RELEASE=${release}`)
      .replace(/DATABASE_URL=\S+$/m, `DATABASE_URL=${database.url}`);
    expect(script).toContain(`RELEASE=${release}`);
    expect(script).toContain(`DATABASE_URL=${database.url}`);
    const ran = await finish(
      spawn('bash', ['-c', `set -euo pipefail\n${script}`], {
        cwd: join(appDir, '..', build.name),
        // npm's cache of this machine, as the image's build uses its cache mount.
        env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_prefer_offline: 'true' },
      }),
    );
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('applied: 20261121000100_principals');
    expect(`${ran.stdout}${ran.stderr}`).not.toMatch(/^\s+at /m);
    expect(readdirSync(release).sort()).toEqual([
      'dist',
      'node_modules',
      'package-lock.json',
      'package.json',
      'patches',
      'scripts',
    ]);
    // npm ci's postinstall applied the patches there too.
    expect(readFileSync(join(release, 'node_modules/graphql-jit/dist/execution.js'), 'utf8')).toContain(
      'Patched (docs/decisions.md 47)',
    );
    await expectMigrated(database.url);
  });

  describe('the two roles, and the startup failures', () => {
    let databaseUrl: string;
    let db: knex.Knex;
    let receiver: Receiver;

    /** The image's CMD with more arguments (`docker run image ... ` cannot add them; compose uses SERVICE_ROLE). */
    async function startRole(role: string, env: Record<string, string>) {
      const child = inImage([...runtime.cmd!, '--role', role], env);
      cleanups.push(() => child.kill('SIGKILL'));
      const exited = finish(child);
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout!.on('data', (chunk) => {
          output += chunk;
          const port = listeningPort(output);
          if (port) resolve(`http://127.0.0.1:${port}`);
        });
        void exited.then((done) =>
          reject(new Error(`${role} exited with ${done.code}:\n${done.stdout}${done.stderr}`)),
        );
      });
      return { child, exited, baseUrl, port: new URL(baseUrl).port };
    }

    /** The image's HEALTHCHECK command against an instance on `port`: its exit code. */
    async function healthcheck(port: string): Promise<number | null> {
      return (await finish(inImage(runtime.healthcheck!.command, { PORT: port }))).code;
    }

    beforeAll(async () => {
      const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
      cleanups.push(() => database.drop());
      databaseUrl = database.url;
      db = knex({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 2 } });
      cleanups.push(() => db.destroy());
      // The compiled migrate command (the release step's own test is above), then the demo data set,
      // which only a development database takes.
      for (const args of [['migrate'], ['seed']]) {
        const done = await finish(
          inImage(['node', 'dist/src/cli/db.js', ...args], {
            ...secrets,
            DATABASE_URL: databaseUrl,
            NODE_ENV: 'development',
          }),
        );
        expect(done.code, done.stdout + done.stderr).toBe(0);
      }
      receiver = await startReceiver();
      cleanups.push(() => receiver.close());
    }, 120_000);

    it('runs --role api and --role worker: a payment through the API is delivered by the worker', async () => {
      // NODE_ENV=development for this one: production delivers only to public https receivers
      // (decisions.md 13), and the receiver here is on loopback. Same install, same command.
      const env = {
        ...secrets,
        NODE_ENV: 'development',
        DATABASE_URL: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        WEBHOOK_POLL_MS: '200',
      };
      const api = await startRole('api', env);
      expect(await healthcheck(api.port)).toBe(0);
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${api.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
      const endpoint = await post(
        '/graphql',
        {
          query:
            'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
          variables: { input: { url: receiver.url('/deploy'), eventTypes: ['PAYMENT_RECORDED'] } },
        },
        { 'x-api-key': 'demo-partner-key' },
      );
      const created = (await endpoint.json()) as { data?: { createWebhookEndpoint: { endpoint: { id: string } } } };
      expect(created.data?.createWebhookEndpoint.endpoint.id, JSON.stringify(created)).toBeTruthy();

      const payment = await fetch(
        `${api.baseUrl}/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}` +
          `&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=0.10&currency=USD`,
        { headers: { 'idempotency-key': 'deploy-clean-folder' } },
      );
      expect(payment.status).toBe(200);
      const paymentId = ((await payment.json()) as { payment: { id: number } }).payment.id;

      // The api role runs no background job: with no worker yet the delivery waits, undelivered.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(receiver.received.filter((request) => request.path === '/deploy')).toEqual([]);
      expect(await db('webhook_deliveries').whereNot({ status: 'pending' }).count({ n: '*' })).toEqual([{ n: '0' }]);

      const worker = await startRole('worker', env);
      expect(await healthcheck(worker.port)).toBe(0);
      // The worker serves the ops endpoints only.
      expect((await fetch(`${worker.baseUrl}/healthz`)).status).toBe(200);
      expect((await fetch(`${worker.baseUrl}/graphql`, { method: 'POST' })).status).toBe(404);
      await vi.waitFor(
        () =>
          expect(
            receiver.received
              .filter((request) => request.path === '/deploy' && request.answer === 'ok')
              .map((request) => JSON.parse(request.body).data.payment.id),
            // payment.recorded's ids are the graph's, strings (decisions.md 41).
          ).toEqual([String(paymentId)]),
        { timeout: 20_000, interval: 100 },
      );

      // SIGTERM, as the platform stops a container: each drains and exits 0 by itself.
      for (const instance of [api, worker]) {
        instance.child.kill('SIGTERM');
        expect((await instance.exited).code).toBe(0);
      }
      expect(await healthcheck(api.port)).toBe(1);
    }, 120_000);

    it('starts --role api and --role worker in production: ready, the worker on its three endpoints only, JSON on stdout', async () => {
      const env = { ...secrets, NODE_ENV: 'production', DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1' };
      const api = await startRole('api', env);
      const worker = await startRole('worker', env);
      for (const instance of [api, worker]) expect(await healthcheck(instance.port)).toBe(0);
      expect((await fetch(`${api.baseUrl}/v1/list-clerks.php?key=demo-retail-key`)).status).toBe(200);
      expect((await fetch(`${worker.baseUrl}/metrics`)).status).toBe(200);
      expect((await fetch(`${worker.baseUrl}/v1/list-clerks.php?key=demo-retail-key`)).status).toBe(404);
      // The console from dist/ with no esbuild installed, without its sandbox view; the worker serves none.
      const consolePage = await fetch(`${api.baseUrl}/console`);
      expect(consolePage.status).toBe(200);
      const html = await consolePage.text();
      expect(html).toContain('data-sandbox="false"');
      const consoleAssets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!);
      expect(consoleAssets).toHaveLength(2);
      for (const asset of consoleAssets) {
        const answer = await fetch(`${api.baseUrl}${asset}`);
        expect(answer.status, asset).toBe(200);
        expect((await answer.arrayBuffer()).byteLength, asset).toBeGreaterThan(1000);
      }
      expect((await fetch(`${worker.baseUrl}/console`)).status).toBe(404);
      for (const instance of [api, worker]) {
        instance.child.kill('SIGTERM');
        const done = await instance.exited;
        expect(done.code, done.stderr).toBe(0);
        for (const line of done.stdout.split('\n').filter((text) => text.trim() !== '')) {
          expect(() => JSON.parse(line), line).not.toThrow();
        }
        expect(done.stdout, 'the console is built: no line says it cannot be served').not.toContain(
          'console is not built',
        );
      }
    }, 120_000);

    /** The image's CMD in production that must not start: its one line on stderr and its exit code. */
    async function failedStart(env: Record<string, string>): Promise<{ code: number | null; line: string }> {
      const done = await finish(
        inImage(runtime.cmd!, { ...secrets, NODE_ENV: 'production', HOST: '127.0.0.1', ...env }),
      );
      const output = `${done.stdout}${done.stderr}`;
      expect(output).not.toMatch(/^\s+at /m); // no stack trace
      const lines = done.stderr.split('\n').filter((line) => line.trim() !== '');
      expect(lines, output).toHaveLength(1);
      expect(done.code, output).not.toBe(0);
      expect(done.code, output).not.toBeNull();
      return { code: done.code, line: lines[0]! };
    }

    it('stops with one line and a non-zero exit on a port in use', async () => {
      const taken: Server = createServer();
      taken.listen(0, '127.0.0.1');
      await new Promise((resolve) => taken.once('listening', resolve));
      cleanups.push(() => taken.close());
      const port = String((taken.address() as AddressInfo).port);
      const { line } = await failedStart({ DATABASE_URL: databaseUrl, PORT: port });
      expect(line).toMatch(new RegExp(`port.*${port}|${port}.*in use`, 'i'));
    });

    it('stops with one line and a non-zero exit on an unreachable database', async () => {
      // A port nothing listens on: taken, then freed.
      const probe = createServer().listen(0, '127.0.0.1');
      await new Promise((resolve) => probe.once('listening', resolve));
      const closed = (probe.address() as AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
      const { line } = await failedStart({
        DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/financing`,
        PORT: '0',
      });
      expect(line).toMatch(/unreachable|reach|connect|refused/i);
    });

    it('stops with one line and a non-zero exit without a secret of the roles: DEVICE_UNLOCK_SEALING_KEYS', async () => {
      const { line } = await failedStart({ DATABASE_URL: databaseUrl, PORT: '0', DEVICE_UNLOCK_SEALING_KEYS: '' });
      expect(line).toBe('configuration error: DEVICE_UNLOCK_SEALING_KEYS is required when NODE_ENV=production');
    }, 60_000);

    it('stops with one line and a non-zero exit on a missing database', async () => {
      const url = new URL(databaseUrl);
      url.pathname = '/dfs_test_missing_database';
      const { line } = await failedStart({ DATABASE_URL: url.toString(), PORT: '0' });
      expect(line).toMatch(/dfs_test_missing_database/);
      expect(line).toMatch(/does not exist|missing/i);
    });
  });
});
