// The production build: `npm run build` compiles the service to dist/ (the console bundled there too), and
// the compiled service runs the way production starts it (the start:prod script: plain node, no TypeScript
// compiler loaded, the heap limit of npm start), browser pages, the console and their assets included,
// after the compiled db commands migrated and seeded a fresh database (embedded under a temporary DATA_DIR,
// or a new Postgres database with TEST_DATABASE_URL).
import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICE_IMEI } from '../../src/fixtures/demoIds.js';
import { holdCheckoutLock } from '../support/checkoutLock.js';
import { type Finished, finish } from '../support/childProcess.js';
import { createPostgresDatabase, onPostgres } from '../support/db.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const { scripts } = manifest;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * Plain node, as production runs it: no loader, no TypeScript anywhere on the command line; the one
 * --import allowed is the compiled tracing preload (dist/src/telemetry/preload.js, which does nothing
 * without OTEL_EXPORTER_OTLP_ENDPOINT).
 */
function node(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const preloads = args.flatMap((arg, index) => (arg === '--import' ? [args[index + 1]] : []));
  expect(preloads.filter((preload) => preload !== './dist/src/telemetry/preload.js')).toEqual([]);
  const rest = args.filter((arg, index) => arg !== '--import' && args[index - 1] !== '--import');
  expect(rest.filter((arg) => /tsx|--import|--loader|--require|\.ts$/.test(arg))).toEqual([]);
  return spawn(process.execPath, args, { cwd: ROOT, env });
}

/** Starts the compiled service as start:prod does, on an ephemeral port; resolves with its base URL. */
async function startProd(
  env: NodeJS.ProcessEnv,
): Promise<{ service: ChildProcess; exited: Promise<Finished>; baseUrl: string }> {
  const [, ...args] = scripts['start:prod']!.split(' ');
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
  return { service, exited, baseUrl };
}

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** An OTLP/HTTP receiver (JSON encoding) on loopback: the spans the compiled service exports. */
async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close: () => void }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => server.close() };
}

describe('npm run build and the compiled service', () => {
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    const npmEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    // dist/ is the checkout's: another test run's build waits until this file is done with it.
    cleanups.push(await holdCheckoutLock('dist'));
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

  it("writes the console's bundle and its operations' texts into dist/ (decisions.md 46)", () => {
    for (const file of ['console.js', 'console.css']) {
      expect(statSync(join(ROOT, 'dist/src/pages/console', file)).size, file).toBeGreaterThan(1000);
    }
    const operations = readdirSync(join(ROOT, 'console/operations')).filter((file) => file.endsWith('.graphql'));
    expect(operations.length).toBeGreaterThan(0);
    expect(readdirSync(join(ROOT, 'dist/console/operations')).sort()).toEqual(operations.sort());
    for (const file of operations) {
      expect(readFileSync(join(ROOT, 'dist/console/operations', file), 'utf8'), file).toBe(
        readFileSync(join(ROOT, 'console/operations', file), 'utf8'),
      );
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

    const { service, exited, baseUrl } = await startProd(env);

    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    // The OpenAPI document the build copied to dist/: the repo's openapi.json.
    const document = await fetch(`${baseUrl}/openapi.json`);
    expect(document.status).toBe(200);
    expect(await document.json()).toEqual(JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')));
    const golden = JSON.parse(readFileSync(join(ROOT, 'test/golden/list-clerks/demo-partner-key.json'), 'utf8'));
    const clerks = await fetch(`${baseUrl}${golden.request.path}`);
    expect(clerks.status).toBe(200);
    expect(await clerks.text()).toBe(JSON.stringify(golden.response.body));

    // The browser pages and every file they load, found from dist/ (the pages' own scripts copied there
    // by the build, the npm packages' builds in node_modules).
    for (const path of ['/', '/docs', '/graphiql']) {
      const page = await fetch(`${baseUrl}${path}`);
      expect(page.status, path).toBe(200);
      const assets = [...(await page.text()).matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
      expect(assets.length, path).toBeGreaterThan(0);
      for (const asset of assets) {
        const answer = await fetch(`${baseUrl}${asset}`);
        expect(answer.status, asset).toBe(200);
        const own = /^\/assets\/(docs|graphiql-page|pages)\.[0-9a-f]+\.(js|css)$/.exec(asset);
        if (own)
          expect(await answer.text()).toBe(readFileSync(join(ROOT, `src/pages/browser/${own[1]}.${own[2]}`), 'utf8'));
        else await answer.arrayBuffer();
      }
    }

    // The console (decisions.md 46): its page and the two files the build bundled into dist/, byte for byte.
    const consolePage = await fetch(`${baseUrl}/console`);
    expect(consolePage.status).toBe(200);
    const consoleAssets = [...(await consolePage.text()).matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(consoleAssets.map((asset) => asset.replace(/\.[0-9a-f]{12}\./, '.')).sort()).toEqual([
      '/console/assets/console.css',
      '/console/assets/console.js',
    ]);
    for (const asset of consoleAssets) {
      const answer = await fetch(`${baseUrl}${asset}`);
      expect(answer.status, asset).toBe(200);
      const built = readFileSync(
        join(ROOT, 'dist/src/pages/console', asset.replace(/^.*\/(console)\.[0-9a-f]{12}\./, '$1.')),
      );
      expect(Buffer.from(await answer.arrayBuffer()).equals(built), asset).toBe(true);
    }

    service.kill('SIGTERM');
    const stopped = await exited;
    expect(stopped.code, stopped.stderr).toBe(0);
    // The old generation's ceiling set on the command line, plus V8's young generation.
    const heapLimitMb = Number(/"heapLimitMb":(\d+)/.exec(stopped.stdout)?.[1]);
    expect(heapLimitMb).toBeGreaterThanOrEqual(Number(heapLimit[1]));
    expect(heapLimitMb).toBeLessThan(Number(heapLimit[1]) + 128);
  });

  it('traces a lookup through the compiled preload when OTEL_EXPORTER_OTLP_ENDPOINT is set, and flushes on SIGTERM', async () => {
    const receiver = await startOtlpReceiver();
    cleanups.push(receiver.close);
    const { service, exited, baseUrl } = await startProd({
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    const traceId = '5b8aa5a2d2c872e8321cf37308d69df2';
    const lookup = await fetch(
      `${baseUrl}/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}`,
      {
        headers: { traceparent: `00-${traceId}-051581bf3cb55c13-01` },
      },
    );
    expect(lookup.status).toBe(200);
    service.kill('SIGTERM'); // the batched spans go out before the process ends
    const stopped = await exited;
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain(`"trace_id":"${traceId}"`);

    const names = receiver.spans.filter((span) => span.traceId === traceId).map((span) => span.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /v1/lookup-customer.php', // http (the server span) and express (the route)
        'query LookupCustomer', // graphql
        'graphql.resolve customer',
      ]),
    );
    expect(names.filter((name) => name === 'GET /v1/lookup-customer.php')).toHaveLength(2);
    // pg's spans on Postgres, the embedded database's own otherwise: the key, the customer, the orders, the
    // payments (on Postgres the key's statement also counts the request limits).
    expect(names.filter((name) => /^(pg|pglite)\.query:/.test(name))).toHaveLength(4);
  });

  it('runs npm run db:migrate where tsx is not installed (a production install): the compiled command', {
    timeout: 300_000,
  }, async () => {
    // A folder with what a production install holds: package.json, the launcher, dist/, and every
    // installed package but tsx (linked, not copied: the point is the launcher's choice, not the size).
    const install = mkdtempSync(join(tmpdir(), 'dfs-install-'));
    cleanups.push(() => rmSync(install, { recursive: true, force: true }));
    const { workspaces: _workspaces, ...installed } = manifest as Record<string, unknown>;
    writeFileSync(join(install, 'package.json'), JSON.stringify(installed, null, 2));
    cpSync(join(ROOT, 'scripts/run-command.mjs'), join(install, 'scripts/run-command.mjs'));
    mkdirSync(join(install, 'node_modules'));
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry === 'tsx' || entry === '.bin' || entry.startsWith('.')) continue;
      symlinkSync(join(ROOT, 'node_modules', entry), join(install, 'node_modules', entry));
    }
    const npm = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      finish(spawn('npm', ['run', '--silent', ...args], { cwd: install, env: { ...env, ...extra } }));

    // Without dist/ and without tsx there is nothing to run: one line says what to do.
    const unbuilt = await npm(['db:migrate']);
    expect(unbuilt.code).toBe(1);
    expect(unbuilt.stderr.trim()).toMatch(
      /^command error: .*dist\/src\/cli\/db\.js is missing and tsx is not installed; run npm run build first$/,
    );

    cpSync(join(ROOT, 'dist'), join(install, 'dist'), { recursive: true });
    const fresh = onPostgres ? await createPostgresDatabase(process.env.TEST_DATABASE_URL!) : null;
    if (fresh) cleanups.push(() => fresh.drop());
    const target = fresh ? { DATABASE_URL: fresh.url } : { DATA_DIR: mkdtempSync(join(install, 'data-')) };
    const migrated = await npm(['db:migrate'], target);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('applied: 20261121000100_principals');
    const again = await npm(['db:migrate'], target);
    expect(again.stdout).toContain('already up to date');
    const help = await npm(['keys', '--', '--help'], target);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run keys -- create /);
  });
});
