// The service behind a real PgBouncer in transaction pooling (docs/operating.md#behind-a-connection-pooler,
// decisions.md 30): the golden files answered byte for byte by a service whose pool goes through it
// with prepared statements off; a concurrent keyed payment load through a service process configured
// as production would be (DATABASE_URL the pooler, DATABASE_DIRECT_URL the server), each payment once
// and the ledger clean; the LISTEN connections (webhook wake, the event feed) on the direct URL, heard;
// the commands on the direct URL; and prepared statements on failing through the pooler, so the
// setting is needed. Postgres only: the embedded database has no pooler.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createClient } from 'graphql-ws';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createDb, type Db } from '../../src/db/knex.js';
import { checkPooledStatementTimeout } from '../../src/db/open.js';
import { runSql } from '../../src/db/prepared.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { GOLDEN_NOW, type GoldenCase, goldenFiles, goldenFolders, goldenInit, readGolden } from '../support/golden.js';
import { inParallel } from '../support/parallel.js';
import { type PgBouncer, startPgBouncer } from '../support/pgbouncer.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { startTestService, type TestService } from '../support/service.js';
import { type ServiceProcess, startServiceProcess } from '../support/serviceProcess.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const PINNED_HEADERS = ['content-type', 'allow', 'cache-control', 'idempotent-replayed'];
const databaseName = (url: string) => new URL(url).pathname.slice(1);
const DEMO_ORDER = { merchant: DEMO_MERCHANT_ID, clerk: DEMO_CLERK_ID, id: DEMO_ORDER_ID, currency: 'USD' };
const OTHER_ORDER = { merchant: '2000001', clerk: '6001', id: '5000002', currency: 'MXN' };
/** An in-store payment of 0.10 on `order` with a retail key of its partner. */
const payment = (key: string, order: typeof DEMO_ORDER) =>
  `/v1/record-customer-payment.php?key=${key}&merchantId=${order.merchant}&salesClerkId=${order.clerk}` +
  `&financeOrderId=${order.id}&amount=0.10&currency=${order.currency}`;

/** The pool of `database` through `bouncer`, sessions (LISTEN) on the database itself. */
function pooledDb(
  bouncer: PgBouncer,
  database: TestDatabase,
  options: { preparedStatements: boolean; poolMax?: number },
) {
  return createDb({
    databaseUrl: bouncer.url(databaseName(database.url!)),
    directUrl: database.url,
    dataDir: null,
    poolMax: options.poolMax ?? 10,
    preparedStatements: options.preparedStatements,
  });
}

describe.runIf(onPostgres)('behind PgBouncer in transaction pooling', () => {
  let bouncer: PgBouncer;
  beforeAll(async () => {
    bouncer = await startPgBouncer(process.env.TEST_DATABASE_URL!, { poolSize: 4 });
  });
  afterAll(async () => {
    await bouncer?.destroy();
  });

  for (const folder of goldenFolders()) {
    describe(`golden through the pooler: ${folder}`, () => {
      let database: TestDatabase;
      let pooled: Db;
      let service: TestService;
      beforeAll(async () => {
        database = await createTestDatabase({ now: GOLDEN_NOW });
        pooled = pooledDb(bouncer, database, { preparedStatements: false });
        service = await startTestService(pooled, { now: () => GOLDEN_NOW });
      });
      afterAll(async () => {
        await service?.close();
        await pooled?.destroy();
        await database?.destroy();
      });

      it.each(goldenFiles(folder))('%s', async (file) => {
        const golden: GoldenCase = readGolden(folder, file);
        const response = await service.request(golden.request.path, goldenInit(golden.request));
        const text = await response.text();
        const headers = Object.fromEntries(
          PINNED_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])),
        );
        expect(response.status).toBe(golden.response.status);
        expect(headers).toEqual(golden.response.headers);
        const apolloNewline = golden.request.path === '/graphql' && text.endsWith('}\n') ? '\n' : '';
        expect(text).toBe(JSON.stringify(golden.response.body) + apolloNewline);
      });

      it('ran its statements through the pooler', async () => {
        await vi.waitFor(
          async () => expect((await bouncer.stats(databaseName(database.url!))).transactions).toBeGreaterThan(0),
          { timeout: 5000, interval: 200 },
        );
      });
    });
  }

  describe('a service process with DATABASE_URL on the pooler and DATABASE_DIRECT_URL on the server', () => {
    let database: TestDatabase;
    let receiver: Receiver;
    let service: ServiceProcess;
    const cleanups: Array<() => Promise<unknown>> = [];

    beforeAll(async () => {
      database = await createTestDatabase();
      cleanups.push(() => database.destroy());
      // The statement timeout is the server's for the pooled connections (decisions.md 30).
      await database.db.raw(`alter database ?? set statement_timeout = 15000`, [databaseName(database.url!)]);
      receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      service = await startServiceProcess(bouncer.url(databaseName(database.url!)), cleanups, {
        DATABASE_DIRECT_URL: database.url!,
        DATABASE_PREPARED_STATEMENTS: 'off',
        DATABASE_POOL_MAX: '8',
        // No safety-net poll while the test runs: a delivery comes only from the LISTEN wake.
        WEBHOOK_POLL_MS: '600000',
        RATE_LIMIT_REQUESTS: '100000',
      });
    }, 120_000);
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    });

    const post = (path: string, headers: Record<string, string>, body?: unknown) =>
      fetch(`${service.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
    const demoPayment = () => payment('demo-retail-key', DEMO_ORDER);

    it('records each of 200 keyed payments exactly once when each key is sent twice at once, and the ledger is clean', async () => {
      const count = async () => Number((await database.db('payments').count({ n: '*' }))[0]!.n);
      const before = await count();
      const pairs = await inParallel(200, 8, (index) => {
        const headers = { 'idempotency-key': `pooler-load-${index}` };
        return Promise.all([post(demoPayment(), headers), post(demoPayment(), headers)]);
      });
      for (const [first, second] of pairs) {
        expect([first.status, second.status], JSON.stringify(first.body)).toEqual([200, 200]);
        expect(second.body).toEqual(first.body);
      }
      expect(new Set(pairs.map(([first]) => first.body.payment.id)).size).toBe(200);
      expect((await count()) - before).toBe(200);
      expect((await checkLedger(database.db)).problems).toEqual([]);
      await vi.waitFor(
        async () => expect((await bouncer.stats(databaseName(database.url!))).transactions).toBeGreaterThan(400),
        { timeout: 5000, interval: 200 },
      );
    }, 120_000);

    it('delivers a webhook woken by the event log notification, heard on the direct URL', async () => {
      const created = await post(
        '/graphql',
        { 'x-api-key': 'demo-partner-key' },
        {
          query:
            'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
          variables: { input: { url: receiver.url('/pooler'), eventTypes: ['PAYMENT_RECORDED'] } },
        },
      );
      expect(created.body.errors, JSON.stringify(created.body)).toBeUndefined();
      const paid = await post(demoPayment(), { 'idempotency-key': 'pooler-webhook' });
      expect(paid.status).toBe(200);
      await vi.waitFor(
        () => {
          const bodies = receiver.received
            .filter((request) => request.path === '/pooler')
            .map((r) => JSON.parse(r.body));
          // payment.recorded's ids are the graph's, strings (decisions.md 41).
          expect(bodies.map((body) => body.data?.payment?.id)).toContain(String(paid.body.payment.id));
        },
        { timeout: 20_000, interval: 50 },
      );
    });

    it('shows a subscriber the payment made after it subscribed (the event feed listens on the direct URL)', async () => {
      const events: Array<{ data: { payment: { id: string } } }> = [];
      let acknowledged = false;
      const client = createClient({
        url: `${service.baseUrl.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'X-Api-Key': 'demo-partner-key' },
        retryAttempts: 0,
      });
      cleanups.push(async () => client.dispose());
      client.on('connected', () => {
        acknowledged = true;
      });
      client.subscribe(
        { query: 'subscription { events(types: [PAYMENT_RECORDED]) { type data } }' },
        { next: ({ data }) => events.push((data as any).events), error: () => undefined, complete: () => undefined },
      );
      await vi.waitFor(() => expect(acknowledged).toBe(true));
      // The feed listens once its first subscriber is there: a payment before that is not in it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const paid = await post(demoPayment(), { 'idempotency-key': 'pooler-feed' });
      expect(paid.status).toBe(200);
      await vi.waitFor(
        () => expect(events.map((event) => event.data.payment.id)).toContain(String(paid.body.payment.id)),
        {
          timeout: 10_000,
          interval: 20,
        },
      );
    });

    it('found the server statement timeout it is configured with, so it warned of nothing', () => {
      expect(service.output()).not.toMatch(/statement timeout/);
    });

    it('runs the commands on the direct URL: ledger:check with DATABASE_URL on a closed port', async () => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/ledger-check.ts'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere',
          DATABASE_DIRECT_URL: database.url!,
          LOG_LEVEL: 'silent',
        },
      });
      expect(stdout).toContain('ledger is consistent');
    });
  });

  describe('the statement timeout through the pooler', () => {
    const databases: TestDatabase[] = [];
    afterAll(async () => {
      for (const database of databases) await database.destroy();
    });
    /** A pool through the pooler (directUrl set: no startup parameter), and a logger whose warnings are kept. */
    async function checked(setOnServer: boolean): Promise<{ matches: boolean; warnings: string[] }> {
      const database = await createTestDatabase({ seed: false, migrate: false });
      databases.push(database);
      const name = databaseName(database.url!);
      // Before the pooler opens a server connection to it: each takes the database's settings when it opens.
      if (setOnServer) await database.db.raw('alter database ?? set statement_timeout = 15000', [name]);
      const warnings: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
      const pooled = createDb({
        databaseUrl: bouncer.url(name),
        directUrl: database.url,
        dataDir: null,
        statementTimeoutMs: 15_000,
      });
      try {
        return { matches: await checkPooledStatementTimeout(pooled, 15_000, logger), warnings };
      } finally {
        await pooled.destroy();
      }
    }

    it('is refused as a startup parameter (so a pool through the pooler sends none)', async () => {
      const database = await createTestDatabase({ seed: false, migrate: false });
      databases.push(database);
      const sending = createDb({
        databaseUrl: bouncer.url(databaseName(database.url!)),
        dataDir: null,
        statementTimeoutMs: 15_000,
      });
      try {
        await expect(sending.raw('select 1')).rejects.toThrow(/unsupported startup parameter: statement_timeout/);
      } finally {
        await sending.destroy();
      }
    });

    it('is the server setting on the pooled connections: a warning naming the fix when it differs', async () => {
      expect(await checked(false)).toEqual({
        matches: false,
        warnings: [expect.stringMatching(/ALTER ROLE <user> IN DATABASE <database> SET statement_timeout/)],
      });
      expect(await checked(true)).toEqual({ matches: true, warnings: [] });
    });
  });

  describe('prepared statements through the pooler (one server connection, two clients)', () => {
    let single: PgBouncer;
    let database: TestDatabase;
    beforeAll(async () => {
      single = await startPgBouncer(process.env.TEST_DATABASE_URL!, { poolSize: 1 });
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database?.destroy();
      await single?.destroy();
    });

    it('on: the second client to prepare a statement on the shared server connection fails (42P05)', async () => {
      const [a, b] = [0, 1].map(() => pooledDb(single, database, { preparedStatements: true, poolMax: 1 }));
      try {
        await expect(runSql(a!, 'select ?::int + 1 as n', [1])).resolves.toEqual([{ n: 2 }]);
        await expect(runSql(b!, 'select ?::int + 1 as n', [1])).rejects.toMatchObject({ code: '42P05' });
      } finally {
        await Promise.all([a!.destroy(), b!.destroy()]);
      }
    });

    it('off: both clients run it, again and again', async () => {
      const [a, b] = [0, 1].map(() => pooledDb(single, database, { preparedStatements: false, poolMax: 1 }));
      try {
        for (let round = 0; round < 3; round++) {
          await expect(runSql(a!, 'select ?::int + 1 as n', [round])).resolves.toEqual([{ n: round + 1 }]);
          await expect(runSql(b!, 'select ?::int + 1 as n', [round])).resolves.toEqual([{ n: round + 1 }]);
        }
      } finally {
        await Promise.all([a!.destroy(), b!.destroy()]);
      }
    });

    it.each([
      ['on', true],
      ['off', false],
    ])(
      'two services with prepared statements %s, a payment each, one after the other: the second answers 500 when on',
      async (_, on) => {
        const services: TestService[] = [];
        const pools = [0, 1].map(() => pooledDb(single, database, { preparedStatements: on, poolMax: 1 }));
        try {
          for (const pool of pools) services.push(await startTestService(pool));
          // Each records a payment: the in-store payment's read is a named statement when on, which the
          // first service parses on the one server connection. (The key lookup has its own fallback.)
          const first = await services[0]!.request(payment('demo-retail-key', DEMO_ORDER));
          const second = await services[1]!.request(payment('other-retail-key', OTHER_ORDER));
          expect(first.status).toBe(200);
          expect(second.status).toBe(on ? 500 : 200);
        } finally {
          for (const service of services) await service.close();
          for (const pool of pools) await pool.destroy();
        }
      },
    );
  });
});
