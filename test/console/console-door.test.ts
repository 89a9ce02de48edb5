// The console's door over HTTP (decisions.md 46), no browser needed (test/console/console.test.ts drives
// it in chromium): its page under its own strict policy with no inline code, its two files named by
// their bytes and cached for a year, GET and HEAD only, the service's 404 for anything else and when
// CONSOLE_ENABLED=false, no sandbox in production, nothing on the worker role, and its operations
// trusted with the REST door's in the trusted-documents mode (decisions.md 33).
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { Kind, type OperationDefinitionNode, parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { errorBody } from '../../src/http/errorResponses.js';
import { createLogger } from '../../src/kernel/logger.js';
import { parseTrustedDocuments } from '../../src/kernel/trustedDocuments.js';
import { consoleOperationTexts } from '../../src/pages/consoleBundle.js';
import { createWorkerApp } from '../../src/process/workerApp.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';

let database: TestDatabase;
let service: TestService;
const started: TestService[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  service = await start({});
  // The first request bundles the console, once for the process: every later app of this file serves
  // that bundle.
  expect((await service.request('/console')).status).toBe(200);
});
afterAll(async () => {
  for (const each of started) await each.close();
  await database?.destroy();
});

/** Another service over the same database, closed with the file. */
async function start(options: Parameters<typeof startTestService>[1]): Promise<TestService> {
  const each = await startTestService(database.db, options);
  started.push(each);
  return each;
}

/** A Content-Security-Policy header as its directives, each with its sources. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The page's HTML and the two files it names. */
async function consolePage(target: TestService): Promise<{ html: string; assets: string[] }> {
  const response = await target.request('/console');
  expect(response.status).toBe(200);
  const html = await response.text();
  const assets = [...html.matchAll(/\s(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!);
  return { html, assets };
}

const notFound = (method: string, path: string) =>
  errorBody('partner', 'RESOURCE_NOT_FOUND', `no endpoint ${method} ${path}`);

describe('GET /console', () => {
  it('answers HTML under its own policy: nothing unless named, its own files only, no inline code, no framing', async () => {
    const response = await service.request('/console');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = response.headers.get('content-security-policy')!;
    expect(directives(policy)).toEqual({
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'connect-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
      'frame-ancestors': ["'none'"],
    });
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('holds no inline script, no style attribute, no handler attribute, and names only its two files', async () => {
    const { html, assets } = await consolePage(service);
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts).toHaveLength(1);
    expect(scripts.filter((script) => !/\ssrc="\/console\/assets\/[^"]+"/.test(script))).toEqual([]);
    expect(html).not.toMatch(/<script\b[^>]*>[^<]+<\/script>/); // nothing between the tags either
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    const references = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
    expect(references.filter((reference) => reference !== 'data:,').sort()).toEqual([...assets].sort());
    expect(assets).toEqual([
      expect.stringMatching(/^\/console\/assets\/console\.[0-9a-f]{12}\.css$/),
      expect.stringMatching(/^\/console\/assets\/console\.[0-9a-f]{12}\.js$/),
    ]);
    // Outside production the script is told the sandbox view exists; the page holds no data and no key.
    expect(html).toContain('<div id="console" data-sandbox="true">');
    expect(html).not.toMatch(/-key\b/);
  });

  it('loads its two files with a year of immutable caching, their types, and names carrying a hash of their bytes', async () => {
    const { assets } = await consolePage(service);
    for (const asset of assets) {
      const response = await service.request(asset);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('content-type'), asset).toBe(
        asset.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
      );
      expect(response.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.byteLength, asset).toBeGreaterThan(1000);
      const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
      expect(asset, 'the name carries the hash of the bytes served').toContain(`.${hash}.`);
    }
  });

  it('takes HEAD as GET, and any other method is the service 405 naming GET and HEAD', async () => {
    const { assets } = await consolePage(service);
    for (const path of ['/console', ...assets]) {
      const head = await service.request(path, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(await head.text(), path).toBe('');
    }
    for (const [path, route] of [
      ['/console', '/console'],
      [assets[0]!, '/console/assets'],
    ] as const) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const refused = await service.request(path, { method });
        expect(refused.status, `${method} ${path}`).toBe(405);
        expect(refused.headers.get('allow')).toBe('GET, HEAD');
        expect(await refused.json()).toEqual(
          errorBody('partner', 'METHOD_NOT_ALLOWED', `${route} accepts GET or HEAD only, not ${method}`),
        );
      }
    }
  });

  it('answers any other file under /console/assets/ with the service 404', async () => {
    const { assets } = await consolePage(service);
    const stale = assets[1]!.replace(/\.[0-9a-f]{12}\./, '.000000000000.');
    for (const path of [
      stale,
      '/console/assets/console.js',
      '/console/assets/main.tsx',
      '/console/assets/..%2F..%2Fpackage.json',
      '/console/assets/',
    ]) {
      const response = await service.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
      expect(await response.json(), path).toEqual(notFound('GET', path));
    }
  });
});

describe('from the sources', () => {
  it('bundles once for the process: another app of it serves the same files, after the bundler has stopped', async () => {
    const first = await consolePage(service);
    const second = await consolePage(await start({}));
    expect(second.assets).toEqual(first.assets);
    for (const asset of second.assets) expect((await service.request(asset)).status, asset).toBe(200);
  });
});

describe('CONSOLE_ENABLED=false', () => {
  it('answers /console and its files with the service 404', async () => {
    const { assets } = await consolePage(service);
    const disabled = await start({ consoleEnabled: false });
    for (const path of ['/console', ...assets]) {
      const response = await disabled.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual(notFound('GET', path));
    }
    // The rest of the service is there.
    expect((await disabled.request('/docs')).status).toBe(200);
  });
});

describe('in production', () => {
  it('serves the console with no sandbox view: data-sandbox is "false"', async () => {
    const production = await start({ production: true });
    const { html, assets } = await consolePage(production);
    expect(html).toContain('<div id="console" data-sandbox="false">');
    expect(html).not.toContain('data-sandbox="true"');
    for (const asset of assets) expect((await production.request(asset)).status, asset).toBe(200);
    const response = await production.request('/console');
    expect(directives(response.headers.get('content-security-policy')!)['default-src']).toEqual(["'none'"]);
  });
});

describe('the worker role', () => {
  it('serves no console: /console and its files are 404', async () => {
    const { assets } = await consolePage(service);
    const { app } = createWorkerApp({ db: database.db, logger: createLogger('silent'), production: false });
    const server: Server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const address = server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200); // the worker answers at all
      for (const path of ['/console', ...assets]) {
        const response = await fetch(`${baseUrl}${path}`);
        expect(response.status, path).toBe(404);
        expect(await response.text(), path).not.toContain('<html');
      }
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});

describe('trusted documents (GRAPHQL_TRUSTED_DOCUMENTS, decisions.md 33)', () => {
  const PARTNER = { 'x-api-key': 'demo-partner-key' };
  // A manifest naming none of the console's texts: a dashboard's own.
  const DASHBOARD = 'query DashboardMerchants { merchants(first: 2) { id name } }';
  const manifest = parseTrustedDocuments(
    'dashboard.json',
    JSON.stringify({ [createHash('sha256').update(DASHBOARD).digest('hex')]: DASHBOARD }),
  );
  const texts = consoleOperationTexts();
  // A database of their own: a text that needs no variable runs, a mutation too.
  let own: TestDatabase;
  beforeAll(async () => {
    own = await createTestDatabase();
  });
  afterAll(async () => {
    await own?.destroy();
  });
  const operationOf = (text: string) =>
    parse(text).definitions.find(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    )!;
  const needsVariables = (text: string) =>
    (operationOf(text).variableDefinitions ?? []).some(
      (definition) => definition.type.kind === Kind.NON_NULL_TYPE && !definition.defaultValue,
    );

  /** A subscription's first answer on the WebSocket door: listening, or the errors it was refused with. */
  async function subscribed(target: TestService, query: string): Promise<{ listening?: true; errors?: any }> {
    const before = target.listeningSubscribers();
    const client = createClient({
      url: `${target.baseUrl.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { 'X-Api-Key': PARTNER['x-api-key'] },
      retryAttempts: 0,
    });
    const errors: unknown[] = [];
    client.subscribe({ query }, { next: () => undefined, error: (error) => errors.push(error), complete: () => {} });
    let answer: { listening?: true; errors?: any } = {};
    await vi.waitFor(
      () => {
        if (errors.length > 0) answer = { errors: errors[0] };
        else if (target.listeningSubscribers() > before) answer = { listening: true };
        else throw new Error('no answer yet');
      },
      { timeout: 10_000 },
    );
    await client.dispose();
    await vi.waitFor(() => expect(target.listeningSubscribers()).toBe(before), { timeout: 10_000 });
    return answer;
  }

  /** Whether `target` ran `text` for the partner key (it may still refuse its variables), not DOCUMENT_NOT_TRUSTED. */
  async function trustedAt(target: TestService, text: string): Promise<boolean> {
    if (operationOf(text).operation === 'subscription') return (await subscribed(target, text)).listening === true;
    const { status, body } = await target.graphql(text, PARTNER);
    const codes = (body.errors ?? []).map((error: any) => error.extensions?.code);
    if (codes.includes('DOCUMENT_NOT_TRUSTED')) {
      expect(status).toBe(403);
      return false;
    }
    // Without its variables a document is refused for them (400), never run; with none needed it answers.
    expect(status, text).toBe(needsVariables(text) ? 400 : 200);
    return true;
  }

  it("lets a partner key run each of the console's texts, and still refuses any other text", async () => {
    expect(texts.length).toBeGreaterThanOrEqual(4);
    const trusted = await startTestService(own.db, { trustedDocuments: manifest });
    try {
      for (const text of texts) expect(await trustedAt(trusted, text), text).toBe(true);
      for (const other of ['query Other { merchants(first: 1) { id } }', `${texts[0]!} `]) {
        const { status, body } = await trusted.graphql(other, PARTNER);
        expect(status, other).toBe(403);
        expect(body.errors[0].extensions.code).toBe('DOCUMENT_NOT_TRUSTED');
      }
      const refused = await subscribed(trusted, 'subscription { events { id } }');
      expect(refused.errors?.[0]?.extensions?.code).toBe('DOCUMENT_NOT_TRUSTED');
      expect((await trusted.graphql(DASHBOARD, PARTNER)).status).toBe(200);
    } finally {
      await trusted.close();
    }
  });

  it('trusts no text of the console when CONSOLE_ENABLED=false', async () => {
    const trusted = await startTestService(own.db, { trustedDocuments: manifest, consoleEnabled: false });
    try {
      for (const text of texts) expect(await trustedAt(trusted, text), text).toBe(false);
    } finally {
      await trusted.close();
    }
  });
});
