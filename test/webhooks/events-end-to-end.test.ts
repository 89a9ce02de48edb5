// The event backbone end to end: an in-store payment recorded over the legacy REST door reaches a
// GraphQL subscriber within a second (on this instance, and on Postgres through a second instance on
// the same database), and a signed webhook whose transaction.created data is, byte for byte, the object
// list-transactions returns for that transaction. Signatures are checked with the standardwebhooks package.
import { type Client, createClient } from 'graphql-ws';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createDb } from '../../src/db/knex.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import type { JobLoop } from '../../src/jobs/loop.js';
import { startWebhookJobs } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { deliveryMetrics } from '../../src/ops/metrics.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { startTestService, type TestService } from '../support/service.js';

const fixture = useSeededService();
let receiver: Receiver;
let worker: JobLoop | undefined;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

let receipt = 0;
/** One in-store payment of 1.00 on order 4000004 through record-customer-payment.php; its payment id. */
async function payInStore(target: TestService): Promise<number> {
  receipt += 1;
  const response = await target.request(
    `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=1.00&currency=USD`,
    { headers: { 'idempotency-key': `e2e-${receipt}` } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { payment: { id: number } }).payment.id;
}

interface Subscriber {
  client: Client;
  events: Array<{ id: string; type: string; data: any }>;
}

/** A partner subscriber to every event, ready once the service counts it as listening. */
async function subscribe(target: TestService): Promise<Subscriber> {
  const before = target.listeningSubscribers();
  const subscriber: Subscriber = {
    client: createClient({
      url: `${target.baseUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { 'X-Api-Key': 'demo-partner-key' },
      retryAttempts: 0,
    }),
    events: [],
  };
  subscriber.client.subscribe(
    { query: 'subscription { events { id type data } }' },
    {
      next: ({ data }) => subscriber.events.push((data as any).events),
      error: () => undefined,
      complete: () => undefined,
    },
  );
  await vi.waitFor(() => expect(target.listeningSubscribers()).toBeGreaterThan(before));
  return subscriber;
}

// payment.recorded's payment.id is a string (the graph's dialect), transaction.created's an integer (legacy): decisions.md 41.
const paymentEvent = (subscriber: Subscriber, paymentId: number) =>
  subscriber.events.find((event) => event.type === 'PAYMENT_RECORDED' && event.data.payment.id === String(paymentId));

describe('a payment recorded over REST', () => {
  it('reaches a subscriber within a second, with its transactions', async () => {
    const subscriber = await subscribe(fixture.service);
    try {
      const paymentId = await payInStore(fixture.service);
      const recordedAt = Date.now();
      await vi.waitFor(() => expect(paymentEvent(subscriber, paymentId)).toBeDefined(), { timeout: 1000, interval: 5 });
      expect(Date.now() - recordedAt).toBeLessThan(1000);
      await vi.waitFor(() =>
        expect(
          subscriber.events
            .filter((event) => event.type === 'TRANSACTION_CREATED' && event.data.payment?.id === paymentId)
            .map((event) => event.data.type),
        ).toEqual(['cash', 'commission']),
      );
    } finally {
      await subscriber.client.dispose();
    }
  });

  it.runIf(onPostgres)('reaches a subscriber of another instance on the same database within a second', async () => {
    const secondDb = createDb({ databaseUrl: fixture.database.url, dataDir: null, poolMax: 2 });
    const second = await startTestService(secondDb);
    try {
      const subscriber = await subscribe(second);
      try {
        const paymentId = await payInStore(fixture.service);
        const recordedAt = Date.now();
        await vi.waitFor(() => expect(paymentEvent(subscriber, paymentId)).toBeDefined(), {
          timeout: 1000,
          interval: 5,
        });
        expect(Date.now() - recordedAt).toBeLessThan(1000);
      } finally {
        await subscriber.client.dispose();
      }
    } finally {
      await second.close();
      await secondDb.destroy();
    }
  });

  it('is delivered to a webhook, signed, its transactions exactly as list-transactions has them', async () => {
    const created = await fixture.service.graphql(
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { id } } }`,
      { 'x-api-key': 'demo-partner-key' },
      { input: { url: receiver.url('/ledger'), eventTypes: ['PAYMENT_RECORDED', 'TRANSACTION_CREATED'] } },
    );
    const secret: string = created.body.data.createWebhookEndpoint.secret;
    worker = startWebhookJobs({
      db: fixture.database.db,
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      observe: deliveryMetrics,
      settings: { scheduleMs: [30], jitter: 0, pollMs: 20, timeoutMs: 2000 },
    });
    const paymentId = await payInStore(fixture.service);
    const verifier = new Webhook(secret);
    // payment.recorded's payment.id is a string, transaction.created's an integer (decisions.md 41).
    const delivered = () =>
      receiver.received
        .filter((request) => request.path === '/ledger' && request.answer === 'ok')
        .map((request) => ({
          id: request.headers['webhook-id'],
          body: verifier.verify(request.body, request.headers) as any,
        }));
    await vi.waitFor(
      () =>
        expect(delivered().filter((entry) => String(entry.body.data.payment?.id) === String(paymentId))).toHaveLength(
          3,
        ),
      { timeout: 10_000, interval: 20 },
    );
    const mine = delivered().filter((entry) => String(entry.body.data.payment?.id) === String(paymentId));
    expect(mine.map((entry) => entry.body.type).sort()).toEqual([
      'payment.recorded',
      'transaction.created',
      'transaction.created',
    ]);
    // The same transactions in list-transactions: each delivered object is the listed one, byte for byte.
    const now = Math.floor(Date.now() / 1000);
    const list = await fixture.service.request(
      `/v1/list-transactions.php?key=demo-partner-key&starttime=${now - 3600}&endtime=${now + 60}`,
    );
    const listed: unknown[] = ((await list.json()) as { transactions: unknown[] }).transactions;
    for (const entry of mine.filter((item) => item.body.type === 'transaction.created')) {
      const same = listed.filter((item) => JSON.stringify(item) === JSON.stringify(entry.body.data));
      expect(same, JSON.stringify(entry.body.data)).toHaveLength(1);
    }
    // Each delivery carries its event's id, as the event log has it.
    const deliveredIds = mine.map((entry) => String(entry.id));
    const ids = await fixture.database.db('events').select('id').whereIn('id', deliveredIds);
    expect(ids).toHaveLength(3);
  });
});
