// Webhook deliveries survive a SIGKILLed service (Postgres only: the service runs as its own process).
// The receiver holds the first posts unanswered; the service is killed while they hang; two instances
// are started on the same database: the dead instance's claims run out (WEBHOOK_LEASE_MS), the two
// claim from one queue (FOR UPDATE SKIP LOCKED), and every event is delivered, signed.
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { appendEvents } from '../../src/modules/events/queries.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { startServiceProcess } from '../support/serviceProcess.js';

const cleanups: Array<() => Promise<unknown>> = [];
/** A short retry schedule, poll interval and lease, so a killed instance's deliveries are taken over quickly. */
const FAST_RETRIES = {
  LOG_LEVEL: 'warn',
  WEBHOOK_RETRY_SCHEDULE_MS: '50',
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_LEASE_MS: '1000',
};
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

const until = async (condition: () => Promise<boolean> | boolean) => {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe.skipIf(!onPostgres)('webhook deliveries through faults (Postgres)', () => {
  it('a service SIGKILLed mid-delivery loses nothing: two new instances deliver every event', async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanups.push(() => database.destroy());
    const receiver: Receiver = await startReceiver({ payloads: 'stand-ins' });
    cleanups.push(() => receiver.close());
    const first = await startServiceProcess(database.url!, cleanups, FAST_RETRIES);
    const created = await fetch(`${first.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-partner-key' },
      body: JSON.stringify({
        query: `mutation { createWebhookEndpoint(input: {
          url: "${receiver.url('/killed')}", eventTypes: [PAYMENT_RECORDED] }) {
          secret endpoint { id } } }`,
      }),
    }).then((response) => response.json() as Promise<any>);
    const { secret } = created.data.createWebhookEndpoint;
    // Every first post hangs: the worker is mid-delivery when it dies.
    receiver.script('/killed', Array(100).fill('hang'));
    const partnerId = String((await database.db('partners').where({ name: 'Demo Retail' }).first()).id);
    const events = await database.db.transaction((trx) =>
      appendEvents(
        trx,
        partnerId,
        Array.from({ length: 20 }, (_, n) => ({
          type: 'payment.recorded' as const,
          occurredAt: new Date(),
          data: { n },
        })),
      ),
    );
    await until(() => receiver.received.length >= 2);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await database.db('webhook_deliveries').whereNotNull('claimed_until').count({ n: '*' }).first()).toEqual({
      n: expect.stringMatching(/^[1-9]/),
    });

    receiver.script('/killed', []);
    const beforeRestart = receiver.received.length;
    await Promise.all([
      startServiceProcess(database.url!, cleanups, FAST_RETRIES),
      startServiceProcess(database.url!, cleanups, FAST_RETRIES),
    ]);
    await until(
      async () =>
        Number(
          (await database.db('webhook_deliveries').whereNot({ status: 'delivered' }).count({ n: '*' }).first())?.n,
        ) === 0,
    );
    const verifier = new Webhook(secret);
    const delivered = new Set(
      receiver.received
        .filter((request) => request.answer === 'ok')
        .map((request) => {
          verifier.verify(request.body, request.headers);
          return request.headers['webhook-id'];
        }),
    );
    expect([...delivered].sort()).toEqual(events.map((event) => event.id).sort());
    // The two instances never posted one delivery twice: after the restart, each event exactly once.
    const afterRestart = receiver.received.slice(beforeRestart).map((request) => request.headers['webhook-id']);
    expect(afterRestart.sort()).toEqual(events.map((event) => event.id).sort());
    // Each delivery's 2xx is recorded as its last attempt.
    const last = await database.db('webhook_attempts').where({ status_code: 200 }).count({ n: '*' }).first();
    expect(Number(last?.n)).toBe(events.length);
  });
});
