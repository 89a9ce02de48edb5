// The roles (decisions.md 27), as separate processes on one Postgres database: an api instance serves the
// doors and runs no job; a worker serves only /healthz, /readyz and /metrics and runs the jobs, among them
// the webhook deliveries of a payment the api recorded. The refusals of a role (a bad value, a role on the
// embedded database) are in src/kernel/config.test.ts.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { type ServiceProcess, startServiceProcess } from '../support/serviceProcess.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/**
 * The jobs a process says it started ("msg":"role"). Waited for: the log line is written by pino's
 * stream, which may reach the output after the banner the start is awaited by.
 */
async function startedJobs(service: ServiceProcess): Promise<{ role: string; jobs: string[] }> {
  const line = await vi.waitFor(
    () => {
      const found = service
        .output()
        .split('\n')
        .find((entry) => entry.includes('"msg":"role"'));
      expect(found, service.output()).toBeDefined();
      return found!;
    },
    { timeout: 30_000, interval: 50 },
  );
  const { role, jobs } = JSON.parse(line);
  return { role, jobs };
}

describe.skipIf(!onPostgres)('roles (Postgres: separate processes)', () => {
  it('an api instance records a payment and runs no job; a worker serves only the probes and metrics and delivers its webhook', {
    timeout: 240_000,
  }, async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanups.push(() => database.destroy());
    const receiver: Receiver = await startReceiver();
    cleanups.push(() => receiver.close());

    // The flag, and the variable: both name a role.
    const api = await startServiceProcess(database.url!, cleanups, { LOG_LEVEL: 'info' }, ['--role', 'api']);
    expect(await startedJobs(api)).toEqual({ role: 'api', jobs: [] });
    expect(api.output()).toContain(', role api');

    const created = await fetch(`${api.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-partner-key' },
      body: JSON.stringify({
        query: `mutation { createWebhookEndpoint(input: {
          url: "${receiver.url('/roles')}", eventTypes: [PAYMENT_RECORDED] }) { endpoint { id } } }`,
      }),
    }).then((response) => response.json() as Promise<any>);
    expect(created.errors).toBeUndefined();
    const payment = await fetch(
      `${api.baseUrl}/v1/record-customer-payment.php?key=demo-retail-key&merchantId=851005&salesClerkId=5335&financeOrderId=4000004&amount=18.00&currency=USD`,
      { headers: { 'Idempotency-Key': 'roles-payment-1' } },
    );
    expect(payment.status).toBe(200);
    // The payment's events are committed, to be fanned out by a worker; nothing in the api fans out or
    // claims. (Not a measure of speed: with a worker in this process its wake-up would have posted
    // within milliseconds.)
    expect(
      Number((await database.db('events').whereRaw('not fanned_out').count({ n: '*' }).first())?.n),
    ).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.received).toEqual([]);
    expect(await database.db('webhook_deliveries').count({ n: '*' })).toEqual([{ n: '0' }]);

    const worker = await startServiceProcess(database.url!, cleanups, { SERVICE_ROLE: 'worker', LOG_LEVEL: 'info' });
    expect(await startedJobs(worker)).toEqual({
      role: 'worker',
      jobs: [
        'partitions upkeep',
        'event retention',
        'idempotency key retention',
        'unlock key sealing',
        'report file retention',
        'lock instants',
        'portfolio snapshots',
        'report runs',
        'webhook fan-out',
        'webhook deliveries',
      ],
    });
    await vi.waitFor(() => expect(receiver.received.map((request) => request.path)).toEqual(['/roles']), {
      timeout: 60_000,
      interval: 100,
    });
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'payment.recorded' });
    await vi.waitFor(async () =>
      expect(await database.db('webhook_deliveries').first('status')).toEqual({ status: 'delivered' }),
    );

    // The worker's three endpoints, and nothing else.
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect((await fetch(`${worker.baseUrl}${path}`)).status, path).toBe(200);
    }
    expect(await (await fetch(`${worker.baseUrl}/readyz`)).json()).toMatchObject({
      status: 'ready',
      migrations: 'current',
    });
    for (const [method, path] of [
      ['POST', '/graphql'],
      ['GET', '/v1/list-clerks.php?key=demo-partner-key'],
      ['POST', '/payments/v1/token'],
      ['GET', '/'],
      ['GET', '/openapi.json'],
      ['GET', '/devices/v1/jwks.json'],
      ['GET', '/reports/v1/files/1'],
    ] as const) {
      const answer = await fetch(`${worker.baseUrl}${path}`, { method });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    // The api still serves its doors (and its own probes).
    expect((await fetch(`${api.baseUrl}/v1/list-clerks.php?key=demo-partner-key`)).status).toBe(200);
    expect((await fetch(`${api.baseUrl}/readyz`)).status).toBe(200);

    // Both drain and stop on SIGTERM.
    worker.child.kill('SIGTERM');
    api.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await api.exited).toBe(0);
    expect(worker.output()).toContain('"msg":"stopped"');
  });
});
