// Faults while requests are in flight, on real Postgres: database connections killed, the database
// going away and coming back, the service killed with SIGKILL mid-stream, and SIGTERM under load.
// Each ends with the ledger checker. Idempotency keys make every retry safe, so "nothing lost" is
// shown by retrying what failed and finding each payment exactly once.
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { createLogger } from '../../src/kernel/logger.js';
import { checkLedger } from '../../src/ledger/check.js';
import { addBulkOrders } from '../support/bulk.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { startProxy } from '../support/proxy.js';
import { startTestService, type TestService } from '../support/service.js';
import { startServiceProcess } from '../support/serviceProcess.js';

const summary: string[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  if (summary.length) console.info(`[reliability] ${summary.join('; ')}`);
});

async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  cleanups.push(() => database.destroy());
  return database;
}

/** The service over its own pool, so faults hit its connections and not the test's. */
async function serviceOver(url: string, poolMax = 10): Promise<{ service: TestService; db: Db }> {
  const db = createDb({ databaseUrl: url, dataDir: null, poolMax, logger: createLogger('silent') });
  const service = await startTestService(db);
  cleanups.push(
    () => db.destroy(),
    () => service.close(),
  );
  return { service, db };
}

const withParams = (url: string, params: Record<string, string>) => {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(params)) parsed.searchParams.set(name, value);
  return parsed.toString();
};

const paymentPath = (order: typeof DEMO_ORDER_ID | '4000012', amount: string) => {
  const query =
    order === DEMO_ORDER_ID
      ? { merchantId: DEMO_MERCHANT_ID, salesClerkId: DEMO_CLERK_ID }
      : { merchantId: '1000201', salesClerkId: '5320' };
  return `/v1/record-customer-payment.php?${new URLSearchParams({ key: 'demo-retail-key', ...query, financeOrderId: order, amount, currency: 'USD' })}`;
};

interface Attempt {
  key: string;
  path: string;
  status: number | 'no answer';
  body?: any;
}

/** Sends each payment with its own Idempotency-Key, `parallel` at a time; a dropped connection is "no answer". */
async function sendAll(
  baseUrl: string,
  requests: Array<{ key: string; path: string }>,
  parallel: number,
  onAnswer?: (count: number) => void,
): Promise<Attempt[]> {
  const results: Attempt[] = [];
  let next = 0;
  let answered = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      try {
        const response = await fetch(`${baseUrl}${request.path}`, { headers: { 'idempotency-key': request.key } });
        results.push({ ...request, status: response.status, body: await response.json() });
        onAnswer?.(++answered);
      } catch {
        results.push({ ...request, status: 'no answer' });
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

/** Every key's payment exists exactly once, and the ledger is consistent. */
async function expectExactlyOnce(db: Db, keys: string[]): Promise<number> {
  const stored = await db('idempotency_keys').whereIn('idempotency_key', keys).select('response_body');
  expect(stored).toHaveLength(keys.length);
  const paymentIds = stored.map((row) => String(row.response_body.paymentId));
  expect(new Set(paymentIds).size).toBe(keys.length);
  expect(await db('payments').whereIn('id', paymentIds)).toHaveLength(keys.length);
  const report = await checkLedger(db);
  expect(report.problems).toEqual([]);
  return report.checked.payments;
}

describe.skipIf(!onPostgres)('faults (Postgres)', () => {
  it('connections killed while payments are in flight: 200 or 503, never lost, never doubled', async () => {
    const database = await freshDatabase();
    // The service's own connections carry a name the killer looks for.
    const { service } = await serviceOver(withParams(database.url!, { application_name: 'dfs-fault-victim' }));
    let killing = true;
    let kills = 0;
    const killer = (async () => {
      while (killing) {
        const { rows } = await database.db.raw(
          "select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = 'dfs-fault-victim'",
        );
        kills += rows.filter((row: { killed: boolean }) => row.killed).length;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const requests = Array.from({ length: 150 }, (_, i) => ({
      key: `killed-${i}`,
      path: paymentPath(i % 2 ? DEMO_ORDER_ID : '4000012', '0.10'),
    }));
    const first = await sendAll(service.baseUrl, requests, 10);
    killing = false;
    await killer;

    const failed = first.filter((attempt) => attempt.status !== 200);
    expect(
      first.filter((attempt) => attempt.status !== 200 && attempt.status !== 503).map((a) => [a.status, a.body]),
    ).toEqual([]);
    for (const attempt of failed) expect(attempt.body.error.code).toBe('SERVICE_UNAVAILABLE');
    // The service stayed up: retrying what failed, with the same keys, now succeeds.
    const retried = await sendAll(service.baseUrl, failed, 5);
    expect(retried.every((attempt) => attempt.status === 200)).toBe(true);
    const payments = await expectExactlyOnce(
      database.db,
      requests.map((r) => r.key),
    );
    summary.push(
      `killed connections: ${requests.length} payments, ${kills} backends terminated, ${failed.length} answered 503 and retried, each payment once (${payments} checked)`,
    );
  });

  it('the database goes away and comes back: 503 while it is gone, the same process serves again after', async () => {
    const database = await freshDatabase();
    const proxy = await startProxy('127.0.0.1', Number(new URL(database.url!).port || 5432));
    cleanups.push(() => proxy.close());
    const viaProxy = new URL(database.url!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const { service } = await serviceOver(viaProxy.toString());

    const lookup = () =>
      service.request(`/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_TAG}`);
    expect((await lookup()).status).toBe(200);

    await proxy.cut();
    const during = await Promise.all(Array.from({ length: 10 }, lookup));
    for (const response of during) {
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ valid: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    }
    const paymentDuring = await sendAll(
      service.baseUrl,
      [{ key: 'outage-1', path: paymentPath(DEMO_ORDER_ID, '1.00') }],
      1,
    );
    expect(paymentDuring[0]!.status).toBe(503);

    await proxy.restore();
    // Connections broken by the outage are dropped by the pool; give it a few tries.
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      status = (await lookup()).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    const retry = await sendAll(service.baseUrl, [{ key: 'outage-1', path: paymentPath(DEMO_ORDER_ID, '1.00') }], 1);
    expect(retry[0]!.status).toBe(200);
    await expectExactlyOnce(database.db, ['outage-1']);
    summary.push(
      `database gone: ${during.length + 1} requests answered 503 while it was away, served again on its return`,
    );
  });

  it('SIGKILL in the middle of a stream of payments: no partial payment, and retries record each exactly once', async () => {
    const database = await freshDatabase();
    const start = () => startServiceProcess(database.url!, cleanups);
    const first = await start();
    const requests = Array.from({ length: 200 }, (_, i) => ({
      key: `sigkill-${i}`,
      path: paymentPath(i % 2 ? DEMO_ORDER_ID : '4000012', '0.25'),
    }));
    const attempts = await sendAll(first.baseUrl, requests, 4, (answered) => {
      if (answered === 60) first.child.kill('SIGKILL');
    });
    await first.exited;
    const before = await checkLedger(database.db);
    // Whatever was in flight when the process died either committed whole or not at all.
    expect(before.problems).toEqual([]);
    const acknowledged = attempts.filter((attempt) => attempt.status === 200);
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);
    expect(acknowledged.length).toBeLessThan(200);

    const second = await start();
    const again = await sendAll(second.baseUrl, requests, 4);
    expect(again.every((attempt) => attempt.status === 200)).toBe(true);
    // An acknowledged payment replays its first answer; nothing is recorded twice.
    for (const original of acknowledged) expect(again.find((a) => a.key === original.key)!.body).toEqual(original.body);
    const payments = await expectExactlyOnce(
      database.db,
      requests.map((r) => r.key),
    );
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    summary.push(
      `SIGKILL mid-stream: ${acknowledged.length} of ${requests.length} acknowledged before the kill, no partial payment, all ${requests.length} recorded once after retry (${payments} checked)`,
    );
  });

  it('SIGTERM under load: requests in flight finish, new ones are refused, the process exits cleanly', async () => {
    const database = await freshDatabase();
    // 6000 transactions, so each list request takes a while.
    await addBulkOrders(database.db, 2000, new Date(Date.now() - 86_400_000));
    const service = await startServiceProcess(database.url!, cleanups);
    const now = Math.floor(Date.now() / 1000);
    const list = `/v1/list-transactions.php?key=demo-partner-key&starttime=${now - 200 * 86_400}&endtime=${now}`;
    // Each request on its own connection, so all of them are on the server (not queued in a client
    // pool) when the signal arrives; each takes seconds, so a second's wait has the server holding
    // all of them (a connection still waiting in the listen backlog would be a new one, and refused).
    const inFlight = Array.from({ length: 8 }, () => getOnOwnConnection(`${service.baseUrl}${list}`));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    service.child.kill('SIGTERM');
    // The handler runs when the busy event loop gets to it; it logs "draining" in the same tick in
    // which it stops listening. From then on a new connection must be refused.
    for (let waited = 0; !service.output().includes('draining') && waited < 20_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(service.output()).toContain('draining');
    const refused = await fetch(`${service.baseUrl}${list}`).then(
      () => 'answered',
      () => 'refused',
    );
    const finished = await Promise.all(inFlight);
    expect(finished.map((result) => result.status)).toEqual(Array(8).fill(200));
    expect(finished.every((result) => (result.body as { transactions: unknown[] }).transactions.length >= 6000)).toBe(
      true,
    );
    expect(refused).toBe('refused');
    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('"msg":"stopped"');
    expect((await checkLedger(database.db)).problems).toEqual([]);
    summary.push(
      'SIGTERM under load: 8 in-flight list requests of 6000+ transactions finished, a new one was refused, exit 0',
    );
  });
});

/** A GET on a connection of its own (no keep-alive pool), with its status and JSON body. */
function getOnOwnConnection(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}
