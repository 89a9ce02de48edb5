// Operations: health endpoints, Prometheus metrics, security headers, CORS on /graphql, the
// query-string limit, the HTTP server's timeouts and the database statement timeout.
import type { RequestListener, Server } from 'node:http';
import { connect } from 'node:net';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { type AppDeps, createApp } from '../../src/app.js';
import { createDb, type Db } from '../../src/db/knex.js';
import { MIGRATIONS, migrateLatest } from '../../src/db/migrate.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { isDatabaseUnavailable } from '../../src/kernel/errors.js';
import { createLogger } from '../../src/kernel/logger.js';
import { createHttpServer, httpServerTimeouts, MAX_QUERY_STRING_LENGTH } from '../../src/ops/httpLimits.js';
import { type ServiceLayerSettings, serviceLayers } from '../../src/serviceLayers.js';
import { createTestDatabase, onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { TEST_TOKENS, TEST_UNLOCK_KEYS } from '../support/service.js';

const fixture = useSeededService();
const service = () => fixture.service;

/** An app of its own (other options than the fixture's) on an ephemeral port. */
async function startApp(
  db: Db,
  { corsOrigins, ...options }: Partial<AppDeps> & ServiceLayerSettings = {},
  server?: (app: RequestListener) => Server,
) {
  const deps: AppDeps = {
    db,
    logger: createLogger('silent'),
    now: () => new Date(),
    production: false,
    tokens: TEST_TOKENS,
    unlockKeys: TEST_UNLOCK_KEYS,
    ...options,
  };
  const { app, stop } = await createApp(deps, serviceLayers(deps, { corsOrigins }));
  const listening = (server ? server(app) : app).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => listening.once('listening', resolve));
  const address = listening.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    baseUrl,
    request: (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init),
    close: async () => {
      await new Promise<void>((resolve) => {
        listening.close(() => resolve());
        listening.closeAllConnections();
      });
      await stop();
    },
  };
}

const unreachableDb = () =>
  createDb({ databaseUrl: 'postgres://postgres@127.0.0.1:1/nowhere', dataDir: null, logger: createLogger('silent') });

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} with no credential', async () => {
    const response = await service().request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"status":"ok"}');
  });

  it('answers 200 even when the database cannot be reached: it only says the process is up', async () => {
    const db = unreachableDb();
    const app = await startApp(db);
    try {
      const response = await app.request('/healthz');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe('GET /readyz', () => {
  // Where the request limits are counted (test/ops/shared-limits.test.ts covers the insurance states).
  const rateLimitStore = onPostgres ? 'shared (postgres)' : 'memory';

  it('answers 200 when the database answers and every migration is applied', async () => {
    const response = await service().request('/readyz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      database: 'ok',
      migrations: 'current',
      rateLimitStore,
      replica: 'none',
    });
  });

  it('answers 503 with database "unreachable" when the database cannot be reached', async () => {
    const db = unreachableDb();
    const app = await startApp(db);
    try {
      const response = await app.request('/readyz');
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        status: 'not ready',
        database: 'unreachable',
        migrations: 'unknown',
        rateLimitStore: 'shared (postgres)',
        replica: 'none',
      });
    } finally {
      await app.close();
      await db.destroy();
    }
  });

  it('answers 503 naming the pending migration, and 200 once it is applied', async () => {
    const database = await createTestDatabase({ migrate: false, seed: false });
    const names = Object.keys(MIGRATIONS).sort();
    const last = names.at(-1)!;
    // Every migration but the last, through knex's migrator with the same names as src/db/migrate.ts.
    const allButLast: Knex.MigrationSource<string> = {
      getMigrations: async () => names.slice(0, -1),
      getMigrationName: (name) => name,
      getMigration: async (name) => MIGRATIONS[name]!,
    };
    await database.db.migrate.latest({ migrationSource: allButLast });
    const app = await startApp(database.db);
    try {
      const pending = await app.request('/readyz');
      expect(pending.status).toBe(503);
      expect(await pending.json()).toEqual({
        status: 'not ready',
        database: 'ok',
        migrations: `pending: ${last}`,
        rateLimitStore,
        replica: 'none',
      });
      await migrateLatest(database.db);
      const ready = await app.request('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        database: 'ok',
        migrations: 'current',
        rateLimitStore,
        replica: 'none',
      });
    } finally {
      await app.close();
      await database.destroy();
    }
  });
});

/** The value of one sample of the Prometheus text, 0 when absent; `labels` must match exactly. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]),
    );
    const wanted = Object.entries(labels);
    if (Object.keys(found).length === wanted.length && wanted.every(([key, value]) => found[key] === value))
      return Number(match[3]);
  }
  return 0;
}

const scrape = async () => {
  const response = await service().request('/metrics');
  expect(response.status).toBe(200);
  return response.text();
};

const RECORD = `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&currency=USD`;

describe('GET /metrics', () => {
  it('serves the Prometheus text format with the default process metrics and the pool gauges', async () => {
    const response = await service().request('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    for (const state of ['used', 'free', 'pending'])
      expect(text).toMatch(new RegExp(`^db_pool_connections\\{state="${state}"\\} \\d+$`, 'm'));
    const open =
      sample(text, 'db_pool_connections', { state: 'used' }) + sample(text, 'db_pool_connections', { state: 'free' });
    if (fixture.database.backend === 'pglite') expect(open).toBeLessThanOrEqual(1); // PGlite: a pool of one
    expect(open).toBeGreaterThanOrEqual(1);
  });

  it('counts requests by route template and status, never by raw URL or query string', async () => {
    const before = await scrape();
    const key = { method: 'GET', route: '/v1/list-clerks.php', status: '200' };
    await service().request('/v1/list-clerks.php?key=demo-partner-key');
    await service().request('/no/such/path-12345?key=demo-partner-key');
    await service().graphql('{ __typename }', { 'x-api-key': 'demo-partner-key' });
    const after = await scrape();
    expect(sample(after, 'http_requests_total', key) - sample(before, 'http_requests_total', key)).toBe(1);
    expect(
      sample(after, 'http_request_duration_seconds_count', key) -
        sample(before, 'http_request_duration_seconds_count', key),
    ).toBe(1);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(sample(after, 'http_requests_total', unmatched) - sample(before, 'http_requests_total', unmatched)).toBe(1);
    const graphql = { method: 'POST', route: '/graphql', status: '200' };
    expect(sample(after, 'http_requests_total', graphql) - sample(before, 'http_requests_total', graphql)).toBe(1);
    expect(after).not.toContain('demo-partner-key');
    expect(after).not.toContain('path-12345');
    expect(after).toMatch(
      /^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/v1\/list-clerks\.php",status="200"\} \d+$/m,
    );
  });

  it('counts a recorded, a replayed and a refused in-store payment', async () => {
    const before = await scrape();
    const recorded = await service().request(`${RECORD}&amount=1.00`, {
      headers: { 'idempotency-key': 'ops-metrics-1' },
    });
    expect(recorded.status).toBe(200);
    const replayed = await service().request(`${RECORD}&amount=1.00`, {
      headers: { 'idempotency-key': 'ops-metrics-1' },
    });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect((await service().request(`${RECORD}&amount=999999.00`)).status).toBe(400);
    expect((await service().request(`${RECORD.replace('currency=USD', 'currency=EUR')}&amount=1.00`)).status).toBe(400);
    const conflict = await service().request(`${RECORD}&amount=2.00`, {
      headers: { 'idempotency-key': 'ops-metrics-1' },
    });
    expect(conflict.status).toBe(409);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta('payments_recorded_total', { channel: 'in_store' })).toBe(1);
    expect(delta('payments_replayed_total', { channel: 'in_store' })).toBe(1);
    expect(delta('payments_refused_total', { code: 'AMOUNT_EXCEEDS_BALANCE' })).toBe(1);
    expect(delta('payments_refused_total', { code: 'CURRENCY_MISMATCH' })).toBe(1);
    expect(delta('payments_refused_total', { code: 'IDEMPOTENCY_CONFLICT' })).toBe(1);
    // The one payment recorded wrote its event and its cash and commission transactions' (a replay none).
    expect(delta('events_written_total', { type: 'payment.recorded' })).toBe(1);
    expect(delta('events_written_total', { type: 'transaction.created' })).toBe(2);
  });

  it('counts a recorded and a refused vendor payment', async () => {
    const token = await service().request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    const accessToken = ((await token.json()) as { data: { access_token: string } }).data.access_token;
    const notify = (body: Record<string, unknown>) =>
      service().request('/payments/v1/notification', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
        body: JSON.stringify({ paymentVendor: 'demo-vendor', currency: 'USD', deviceTag: 'DTSTBBD', ...body }),
      });
    const before = await scrape();
    expect((await notify({ amount: '2.00', reference: 'OPS-METRICS-1' })).status).toBe(200);
    expect((await notify({ amount: '2.00', reference: 'OPS-METRICS-2', deviceTag: 'NO-SUCH-TAG' })).status).toBe(404);
    expect((await notify({ amount: '2.00' })).status).toBe(400); // no reference: fails the vendor's schema
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta('payments_recorded_total', { channel: 'vendor' })).toBe(1);
    expect(delta('payments_refused_total', { code: 'RESOURCE_NOT_FOUND' })).toBe(1);
    expect(delta('payments_refused_total', { code: 'INVALID_NOTIFICATION' })).toBe(1);
    expect(delta('events_written_total', { type: 'payment.recorded' })).toBe(1);
    expect(delta('events_written_total', { type: 'transaction.created' })).toBe(0);
  });

  it('counts the events an adjustment writes, by type', async () => {
    const before = await scrape();
    const answer = await service().graphql(
      `mutation { createAdjustment(input: { partnerId: "1", kind: PAYMENT, amount: "-1.00", currency: "USD", notes: "ops", merchantId: "${DEMO_MERCHANT_ID}" }) { id } }`,
      { 'x-api-key': 'demo-operator-key' },
    );
    expect((answer.body as { errors?: unknown }).errors).toBeUndefined();
    const after = await scrape();
    expect(
      sample(after, 'events_written_total', { type: 'transaction.created' }) -
        sample(before, 'events_written_total', { type: 'transaction.created' }),
    ).toBe(1);
  });
});

describe('security headers', () => {
  const expectHelmet = (response: Response) => {
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('x-request-id')).toBeTruthy();
  };

  it('are on every kind of answer, next to X-Request-ID, Cache-Control and Allow', async () => {
    expectHelmet(await service().request('/v1/list-clerks.php?key=demo-partner-key'));
    expectHelmet(await service().request('/v1/list-clerks.php'));
    expectHelmet(await service().request('/healthz'));
    expectHelmet(await service().request('/nothing'));
    const graphql = await service().request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ __typename }"}',
    });
    expectHelmet(graphql);
    const payment = await service().request(`${RECORD}&amount=0`);
    expectHelmet(payment);
    expect(payment.headers.get('cache-control')).toBe('no-store');
    const wrongMethod = await service().request('/v1/list-clerks.php?key=demo-partner-key', { method: 'POST' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    expectHelmet(wrongMethod);
  });

  it('leave Apollo Sandbox its own CSP outside production: no CSP header on its page, every other header', async () => {
    const response = await service().request('/graphql', { headers: { accept: 'text/html' } });
    const html = await response.text();
    expect(html).toContain('embeddable-sandbox.cdn.apollographql.com');
    expect(html).toContain('http-equiv="Content-Security-Policy"'); // Apollo's nonce-based policy
    expect(response.headers.get('content-security-policy')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('apply the strict CSP to /graphql too in production', async () => {
    const app = await startApp(fixture.database.db, { production: true });
    try {
      const response = await app.request('/graphql', { headers: { accept: 'text/html' } });
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    } finally {
      await app.close();
    }
  });
});

describe('CORS on /graphql', () => {
  const DASHBOARD = 'https://dashboard.example.com';
  const query = (origin: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'demo-partner-key', origin },
    body: '{"query":"{ __typename }"}',
  });

  it('allows exactly the configured origins, on /graphql only', async () => {
    const app = await startApp(fixture.database.db, { corsOrigins: [DASHBOARD] });
    try {
      const allowed = await app.request('/graphql', query(DASHBOARD));
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
      expect(allowed.headers.get('access-control-expose-headers')).toBe(
        'X-Request-ID,Retry-After,RateLimit,RateLimit-Policy',
      );
      expect(allowed.headers.get('vary')).toMatch(/origin/i);

      const preflight = await app.request('/graphql', {
        method: 'OPTIONS',
        headers: {
          origin: DASHBOARD,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-api-key',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(DASHBOARD);
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,POST');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,x-api-key');

      const other = await app.request('/graphql', query('https://evil.example.com'));
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const legacy = await app.request('/v1/list-clerks.php?key=demo-partner-key', { headers: { origin: DASHBOARD } });
      expect(legacy.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('sends no CORS headers by default', async () => {
    const response = await service().request('/graphql', query(DASHBOARD));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('query-string limit', () => {
  const padding = (length: number) => `&pad=${'x'.repeat(length - '&pad='.length)}`;

  it('answers a query string over 8 KiB with 414 in the body of its door', async () => {
    const base = 'key=demo-partner-key';
    const partner = await service().request(
      `/v1/list-clerks.php?${base}${padding(MAX_QUERY_STRING_LENGTH + 1 - base.length)}`,
    );
    expect(partner.status).toBe(414);
    const message = 'the query string is longer than 8192 bytes';
    expect(await partner.json()).toEqual({ valid: false, message, error: { code: 'URI_TOO_LONG', message } });
    expect(partner.headers.get('x-request-id')).toBeTruthy();

    const payments = await service().request(`/payments/v1/token?a=1${padding(MAX_QUERY_STRING_LENGTH)}`, {
      method: 'POST',
    });
    expect(payments.status).toBe(414);
    expect(await payments.json()).toEqual({ error: { code: 'URI_TOO_LONG', message } });

    const graphql = await service().request(
      `/graphql?query=${encodeURIComponent('{ __typename }')}${padding(MAX_QUERY_STRING_LENGTH)}`,
    );
    expect(graphql.status).toBe(414);
    expect(await graphql.json()).toEqual({ errors: [{ message, extensions: { code: 'URI_TOO_LONG' } }] });
  });

  it('lets exactly 8 KiB through', async () => {
    const base = 'key=demo-partner-key';
    const response = await service().request(
      `/v1/list-clerks.php?${base}${padding(MAX_QUERY_STRING_LENGTH - base.length)}`,
    );
    expect(response.status).toBe(200);
  });
});

describe('HTTP server timeouts', () => {
  it("keep the head timeout below the request timeout, and keep-alive past load balancers' 60 s", () => {
    expect(httpServerTimeouts(30_000)).toEqual({
      requestTimeout: 30_000,
      headersTimeout: 10_000,
      keepAliveTimeout: 65_000,
    });
    expect(httpServerTimeouts(1000)).toEqual({ requestTimeout: 1000, headersTimeout: 500, keepAliveTimeout: 65_000 });
  });

  it('answer 408 to a client that never finishes its request head', async () => {
    const app = await startApp(fixture.database.db, {}, (listener) => createHttpServer(listener, 1000));
    try {
      const port = Number(new URL(app.baseUrl).port);
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n')); // no blank line
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await app.close();
    }
  });
});

describe('database statement timeout', () => {
  it('treats a cancelled statement (SQLSTATE 57014) as the database being unavailable', () => {
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      ),
    ).toBe(true);
  });

  it.runIf(onPostgres)(
    'is set on every Postgres connection, and a statement past it answers 503 SERVICE_UNAVAILABLE',
    async () => {
      const db = createDb({
        databaseUrl: fixture.database.url!,
        dataDir: null,
        statementTimeoutMs: 300,
        logger: createLogger('silent'),
      });
      const app = await startApp(db);
      const blocker = await fixture.database.db.transaction();
      try {
        expect((await db.raw('show statement_timeout')).rows[0].statement_timeout).toBe('300ms');
        // Another transaction holds the order's row: the payment waits for its lock past the timeout.
        await blocker.raw('select 1 from finance_orders where id = ? for update', [DEMO_ORDER_ID]);
        const response = await app.request(`${RECORD}&amount=1.00`);
        expect(response.status).toBe(503);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
      } finally {
        await blocker.rollback();
        await app.close();
        await db.destroy();
      }
    },
  );
});
