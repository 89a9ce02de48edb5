// Webhook endpoints and signed deliveries, through the graph and a real receiver on loopback that
// fails the first attempts (500, no answer, a dropped connection) and then accepts. Signatures are
// checked with the standardwebhooks package, not with the service's own signing code.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobLoop } from '../../src/jobs/loop.js';
import { startWebhookJobs } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import type { NewEvent } from '../../src/modules/events/rows.js';
import { fanOutCommittedEvents } from '../../src/modules/webhooks/fanOut.js';
import type { DeliverySettings } from '../../src/modules/webhooks/worker.js';
import { deliveryMetrics } from '../../src/ops/metrics.js';
import { useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

const fixture = useSeededService();
let receiver: Receiver;
let worker: JobLoop | undefined;
beforeAll(async () => {
  // Stand-in data beside real events (docs/decisions.md 41): the envelopes are checked, not the data.
  receiver = await startReceiver({ payloads: 'stand-ins' });
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const as = (key: string) => (query: string, variables?: Record<string, unknown>) =>
  fixture.service.graphql(query, { 'x-api-key': key }, variables).then((result) => result.body);
const demo = as('demo-partner-key');
const other = as('other-partner-key');
const operator = as('demo-operator-key');
const retail = as('demo-retail-key');

const CREATE = `mutation($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { secret endpoint { id url eventTypes format enabled } } }`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const partnerId = async (name: string) => String((await fixture.database.db('partners').where({ name }).first()).id);

/** Writes a partner's events as a change's transaction would. */
const writeEvents = (partner: string, events: NewEvent[]) =>
  fixture.database.db.transaction((trx) => appendEvents(trx, partner, events));

const startWorker = (settings: Partial<DeliverySettings> = {}) => {
  worker = startWebhookJobs({
    db: fixture.database.db,
    logger: createLogger('silent'),
    now: () => new Date(),
    production: false,
    observe: deliveryMetrics,
    settings: { scheduleMs: [30], jitter: 0, pollMs: 20, timeoutMs: 2000, maxPerEndpoint: 2, ...settings },
  });
};

/**
 * Waits until every event is fanned out and no delivery is pending (the worker retries without end
 * inside the 3-day window).
 */
async function settled(): Promise<void> {
  for (;;) {
    // The events first: the fan-out marks an event and writes its deliveries in one transaction, so once
    // none is left to fan out every delivery is there to be counted (the other order missed one made between).
    const unfanned = await fixture.database.db('events').whereRaw('not fanned_out').count({ n: '*' }).first();
    const pending = await fixture.database
      .db('webhook_deliveries')
      .where({ status: 'pending' })
      .count({ n: '*' })
      .first();
    if (Number(pending?.n) === 0 && Number(unfanned?.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhook deliveries', () => {
  it('delivers every event at least once through failures, signed, and only to its own partner', async () => {
    const demoId = await partnerId('Demo Retail');
    const otherId = await partnerId('Other Retail');
    const standard = (
      await demo(CREATE, {
        input: {
          url: receiver.url('/demo'),
          eventTypes: ['PAYMENT_RECORDED', 'TRANSACTION_CREATED', 'FINANCE_ORDER_CREATED', 'FINANCE_ORDER_PAID_OFF'],
          description: 'till events',
        },
      })
    ).data.createWebhookEndpoint;
    expect(standard.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(standard.endpoint).toMatchObject({ format: 'STANDARD', enabled: true });
    const legacy = (
      await operator(CREATE, {
        input: {
          partnerId: demoId,
          url: receiver.url('/legacy'),
          eventTypes: ['TRANSACTION_CREATED'],
          format: 'PAYJOY_V1',
        },
      })
    ).data.createWebhookEndpoint;
    const elsewhere = (
      await other(CREATE, { input: { url: receiver.url('/other'), eventTypes: ['PAYMENT_RECORDED'] } })
    ).data.createWebhookEndpoint;
    receiver.script('/demo', ['fail', 'hang', 'drop']);
    receiver.script('/legacy', ['drop', 'fail']);

    const at = new Date();
    const transaction = { transactionId: 77, type: 'cash', amount: 12.5, currency: 'USD', time: 1764000000 };
    const demoEvents = await writeEvents(demoId, [
      { type: 'payment.recorded', occurredAt: at, data: { payment: { id: 1, amount: 12.5 } } },
      { type: 'transaction.created', occurredAt: at, data: transaction },
      { type: 'finance_order.created', occurredAt: at, data: { id: 9 } },
      { type: 'finance_order.paid_off', occurredAt: at, data: { id: 9 } },
    ]);
    const otherEvents = await writeEvents(otherId, [
      { type: 'payment.recorded', occurredAt: at, data: { payment: { id: 2, amount: 1 } } },
      { type: 'transaction.created', occurredAt: at, data: { transactionId: 78 } },
    ]);
    // Nothing was written with the events; the relay writes their deliveries: 4 + 1 of Demo's, 1 of Other's.
    expect(await fixture.database.db('webhook_deliveries').count({ n: '*' })).toEqual([{ n: '0' }]);
    await fanOutCommittedEvents(fixture.database.db, 100);
    const queued = await fixture.database.db('webhook_deliveries').select('partner_id', 'endpoint_id', 'status');
    expect(queued.map((row) => [String(row.partner_id), String(row.endpoint_id), row.status]).sort()).toEqual(
      [
        ...Array(4).fill([demoId, standard.endpoint.id, 'pending']),
        [demoId, legacy.endpoint.id, 'pending'],
        [otherId, elsewhere.endpoint.id, 'pending'],
      ].sort(),
    );
    startWorker();
    await settled();

    const accepted = (path: string) =>
      receiver.received.filter((request) => request.path === path && request.answer === 'ok');
    // STANDARD: every event, each verified by standardwebhooks with the endpoint's secret.
    const verifier = new Webhook(standard.secret);
    const delivered = accepted('/demo').map((request) => ({
      id: request.headers['webhook-id'],
      payload: verifier.verify(request.body, request.headers) as { type: string; timestamp: string; data: unknown },
    }));
    expect(new Set(delivered.map((entry) => entry.id))).toEqual(new Set(demoEvents.map((event) => event.id)));
    for (const event of demoEvents) {
      const entry = delivered.find((candidate) => candidate.id === event.id)!;
      expect(entry.payload).toEqual({ type: event.type, timestamp: at.toISOString(), data: event.data });
    }
    expect(receiver.received.filter((request) => request.path === '/demo').map((request) => request.answer)).toEqual(
      expect.arrayContaining(['fail', 'hang', 'drop']),
    );
    // PAYJOY_V1: the transaction event only, the bare transaction as the body, its HMAC recomputed here.
    const [legacyDelivery, ...more] = accepted('/legacy');
    expect(more).toEqual([]);
    expect(JSON.parse(legacyDelivery!.body)).toEqual(transaction);
    expect(legacyDelivery!.headers['x-payjoy-signature']).toBe(
      createHmac('sha256', legacy.secret).update(legacyDelivery!.body).digest('base64'),
    );
    // The other partner's endpoint heard its own payment, nothing of Demo's; Demo's heard nothing of it.
    const otherIds = accepted('/other').map((request) => request.headers['webhook-id']);
    expect(otherIds).toEqual([otherEvents[0]!.id]);
    new Webhook(elsewhere.secret).verify(accepted('/other')[0]!.body, accepted('/other')[0]!.headers);
    const demoReceived = receiver.received.filter((r) => r.path !== '/other').map((r) => r.headers['webhook-id']);
    for (const event of otherEvents) expect(demoReceived).not.toContain(event.id);

    // Every attempt is in the graph: failures first, then the 2xx.
    const log =
      await demo(`{ webhookEndpoints { nodes { id enabled failingSince deliveries(first: 4) { nodes { status nextAttemptAt
      event { id deliveries { endpoint { id } status } } attempts { at statusCode latencyMs response error } } } } } }`);
    const demoEndpoint = log.data.webhookEndpoints.nodes.find(
      (endpoint: { id: string }) => endpoint.id === standard.endpoint.id,
    );
    expect(demoEndpoint.failingSince).toBeNull();
    expect(demoEndpoint.deliveries.nodes).toHaveLength(4);
    const attempts = demoEndpoint.deliveries.nodes.flatMap((delivery: { attempts: unknown[] }) => delivery.attempts);
    for (const delivery of demoEndpoint.deliveries.nodes) {
      expect(delivery.status).toBe('DELIVERED');
      expect(delivery.nextAttemptAt).toBeNull();
      expect(delivery.attempts.at(-1)).toMatchObject({ statusCode: 200, response: 'thanks', error: null });
      // Event.deliveries: this endpoint's, and the PAYJOY_V1 endpoint's for the transaction event.
      const expected = [{ endpoint: { id: standard.endpoint.id }, status: 'DELIVERED' }];
      if (delivery.event.id === demoEvents[1]!.id) {
        expected.push({ endpoint: { id: legacy.endpoint.id }, status: 'DELIVERED' });
      }
      expect(delivery.event.deliveries).toEqual(expected);
    }
    expect(attempts).toContainEqual(expect.objectContaining({ statusCode: 500, response: 'x'.repeat(1024) }));
    expect(attempts).toContainEqual(expect.objectContaining({ statusCode: null, error: 'no answer within 2000 ms' }));
    expect(attempts).toContainEqual(
      expect.objectContaining({ statusCode: null, error: expect.stringMatching(/^the request failed/) }),
    );
    expect(log.data.webhookEndpoints.nodes.map((endpoint: { id: string }) => endpoint.id).sort()).toEqual(
      [standard.endpoint.id, legacy.endpoint.id].sort(),
    );

    // Both lists page like every connection: one endpoint (one delivery) at a time, after the last cursor.
    const PAGE = `query($after: String, $deliveriesAfter: String) {
      webhookEndpoints(first: 1, after: $after) {
        nodes { id deliveries(first: 1, after: $deliveriesAfter) { edges { cursor } pageInfo { hasNextPage hasPreviousPage } } }
        pageInfo { hasNextPage hasPreviousPage endCursor }
      } }`;
    const endpointIds = [standard.endpoint.id, legacy.endpoint.id].sort((a, b) => Number(a) - Number(b));
    const first = (await demo(PAGE)).data.webhookEndpoints;
    expect(first.nodes.map((node: { id: string }) => node.id)).toEqual([endpointIds[0]]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = (await demo(PAGE, { after: first.pageInfo.endCursor })).data.webhookEndpoints;
    expect(second.nodes.map((node: { id: string }) => node.id)).toEqual([endpointIds[1]]);
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const standardPage = (after?: string) =>
      demo(PAGE, {
        after: standard.endpoint.id === endpointIds[0] ? null : first.pageInfo.endCursor,
        deliveriesAfter: after,
      });
    const firstDelivery = (await standardPage()).data.webhookEndpoints.nodes[0].deliveries;
    expect(firstDelivery.edges).toHaveLength(1);
    expect(firstDelivery.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
    const nextDelivery = (await standardPage(firstDelivery.edges[0].cursor)).data.webhookEndpoints.nodes[0].deliveries;
    expect(nextDelivery.edges).toHaveLength(1);
    expect(nextDelivery.edges[0].cursor).not.toBe(firstDelivery.edges[0].cursor);
    expect(nextDelivery.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    // Another connection's cursor is refused, naming after.
    const foreign = await demo(PAGE, { after: firstDelivery.edges[0].cursor });
    expect(foreign.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'after' });

    // The metrics: attempts by outcome, the lag of each delivery, the queue (empty now).
    const metrics = await (await fixture.service.request('/metrics')).text();
    const sample = (name: string) => Number(new RegExp(`^${escapeRegExp(name)} (\\S+)$`, 'm').exec(metrics)?.[1]);
    expect(sample('webhook_delivery_attempts_total{outcome="delivered"}')).toBeGreaterThanOrEqual(6);
    expect(sample('webhook_delivery_attempts_total{outcome="http_error"}')).toBeGreaterThanOrEqual(2);
    expect(sample('webhook_delivery_attempts_total{outcome="no_answer"}')).toBeGreaterThanOrEqual(3);
    expect(sample('webhook_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(6);
    expect(sample('webhook_deliveries_pending{state="pending"}')).toBe(0);

    // Redelivery: a new delivery of the same event (same webhook-id), due at once.
    const before = accepted('/demo').length;
    const again = await demo(
      `mutation($e: ID!, $w: ID!) { redeliverEvent(eventId: $e, endpointId: $w) {
        status event { id } endpoint { id } } }`,
      { e: demoEvents[0]!.id, w: standard.endpoint.id },
    );
    expect(again.data.redeliverEvent).toMatchObject({ status: 'PENDING', event: { id: demoEvents[0]!.id } });
    await settled();
    expect(
      accepted('/demo')
        .slice(before)
        .map((request) => request.headers['webhook-id']),
    ).toEqual([demoEvents[0]!.id]);
    // The other partner can neither see nor redeliver Demo's events.
    const refused = await other(
      `mutation($e: ID!, $w: ID!) { redeliverEvent(eventId: $e, endpointId: $w) { status } }`,
      {
        e: demoEvents[0]!.id,
        w: elsewhere.endpoint.id,
      },
    );
    expect(refused.errors[0].extensions.code).toBe('RESOURCE_NOT_FOUND');
    await worker?.stop();
    worker = undefined;
  });

  it('signs with the old secret beside the new one for 24 hours after a rotation', async () => {
    const created = (await demo(CREATE, { input: { url: receiver.url('/rotated'), eventTypes: ['PAYMENT_RECORDED'] } }))
      .data.createWebhookEndpoint;
    const rotated = (
      await demo(`mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret endpoint { id } } }`, {
        id: created.endpoint.id,
      })
    ).data.rotateWebhookSecret;
    expect(rotated.secret).not.toBe(created.secret);
    const test = (
      await demo(`mutation($id: ID!) { sendTestWebhook(endpointId: $id) { id status } }`, {
        id: created.endpoint.id,
      })
    ).data.sendTestWebhook;
    expect(test).toMatchObject({ status: 'PENDING' });
    startWorker();
    await settled();
    await worker?.stop();
    worker = undefined;
    const [attempt] = await fixture.database.db('webhook_attempts').where({ delivery_id: test.id });
    expect(attempt).toMatchObject({ status_code: 200, error: null });
    const request = receiver.received.filter((entry) => entry.path === '/rotated').at(-1)!;
    expect(request.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [created.secret, rotated.secret]) {
      expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({ type: 'webhook.test' });
    }
    await demo(`mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }`, { id: created.endpoint.id });
  });

  it('keeps each partner to its own endpoints; retail keys manage none; every change audited, no secret', async () => {
    const demoId = await partnerId('Demo Retail');
    const created = (await demo(CREATE, { input: { url: receiver.url('/mine'), eventTypes: ['PAYMENT_RECORDED'] } }))
      .data.createWebhookEndpoint;
    const id = created.endpoint.id;
    const code = (body: { errors?: Array<{ extensions: { code: string } }> }) => body.errors?.[0]?.extensions.code;
    expect(
      (await other('{ webhookEndpoints { nodes { id } } }')).data.webhookEndpoints.nodes.map(
        (e: { id: string }) => e.id,
      ),
    ).not.toContain(id);
    expect(code(await other(`mutation { updateWebhookEndpoint(input: { id: "${id}", enabled: false }) { id } }`))).toBe(
      'RESOURCE_NOT_FOUND',
    );
    expect(code(await other(`mutation { rotateWebhookSecret(id: "${id}") { secret } }`))).toBe('RESOURCE_NOT_FOUND');
    expect(code(await other(`mutation { deleteWebhookEndpoint(id: "${id}") { id } }`))).toBe('RESOURCE_NOT_FOUND');
    expect(code(await other(`mutation { sendTestWebhook(endpointId: "${id}") { status } }`))).toBe(
      'RESOURCE_NOT_FOUND',
    );
    expect(
      code(
        await other(CREATE, {
          input: { partnerId: demoId, url: receiver.url('/x'), eventTypes: ['PAYMENT_RECORDED'] },
        }),
      ),
    ).toBe('RESOURCE_NOT_FOUND');
    expect(code(await retail('{ webhookEndpoints { nodes { id } } }'))).toBe('FORBIDDEN');
    expect(code(await retail(CREATE, { input: { url: receiver.url('/x'), eventTypes: ['PAYMENT_RECORDED'] } }))).toBe(
      'FORBIDDEN',
    );
    expect(code(await operator(CREATE, { input: { url: receiver.url('/x'), eventTypes: ['PAYMENT_RECORDED'] } }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(code(await demo(CREATE, { input: { url: 'ftp://example.com/', eventTypes: ['PAYMENT_RECORDED'] } }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(
      code(
        await demo(CREATE, {
          input: { url: receiver.url('/x'), eventTypes: ['PAYMENT_RECORDED'], format: 'PAYJOY_V1' },
        }),
      ),
    ).toBe('INVALID_ARGUMENT');

    const updated = await demo(
      `mutation { updateWebhookEndpoint(input: {
        id: "${id}", enabled: false, eventTypes: [PAYMENT_RECORDED, FINANCE_ORDER_CREATED] }) {
        id enabled eventTypes } }`,
    );
    expect(updated.data.updateWebhookEndpoint).toEqual({
      id,
      enabled: false,
      eventTypes: ['PAYMENT_RECORDED', 'FINANCE_ORDER_CREATED'],
    });
    // A disabled endpoint gets no deliveries.
    const [event] = await writeEvents(demoId, [{ type: 'payment.recorded', occurredAt: new Date(), data: {} }]);
    expect(await fixture.database.db('webhook_deliveries').where({ endpoint_id: id, event_id: event!.id })).toEqual([]);
    await demo(`mutation { rotateWebhookSecret(id: "${id}") { secret } }`);
    await demo(`mutation { deleteWebhookEndpoint(id: "${id}") { id } }`);

    const trail = await fixture.database
      .db('audit_events')
      .where({ subject_kind: 'webhook_endpoint', subject_id: id })
      .orderBy('id');
    expect(trail.map((row) => [row.action, row.actor_kind, String(row.actor_id)])).toEqual([
      ['webhook_endpoint.create', 'partner', demoId],
      ['webhook_endpoint.update', 'partner', demoId],
      ['webhook_endpoint.rotate_secret', 'partner', demoId],
      ['webhook_endpoint.delete', 'partner', demoId],
    ]);
    expect(JSON.stringify(await fixture.database.db('audit_events').select('*'))).not.toContain('whsec_');
  });

  it('fails a delivery past the retry window, disables an endpoint failing past its limit, saying why', async () => {
    const demoId = await partnerId('Demo Retail');
    const created = (
      await demo(CREATE, { input: { url: receiver.url('/down'), eventTypes: ['FINANCE_ORDER_CREATED'] } })
    ).data.createWebhookEndpoint;
    receiver.script('/down', ['fail', 'fail', 'fail']);
    await writeEvents(demoId, [{ type: 'finance_order.created', occurredAt: new Date(), data: { id: 1 } }]);
    // Windows of 0: the first failed attempt ends the delivery and, its endpoint failing since, disables it.
    startWorker({ retryWindowMs: 0, disableAfterMs: 0 });
    await settled();
    await worker?.stop();
    worker = undefined;
    const endpoint = (
      await demo(
        '{ webhookEndpoints { nodes { id enabled disabledReason failingSince deliveries { nodes { status attempts { statusCode } } } } } }',
      )
    ).data.webhookEndpoints.nodes.find((entry: { id: string }) => entry.id === created.endpoint.id);
    expect(endpoint).toMatchObject({
      enabled: false,
      disabledReason: 'disabled by the service: every delivery attempt failed for 0 days',
      failingSince: expect.any(Number),
      deliveries: { nodes: [{ status: 'FAILED', attempts: [{ statusCode: 500 }] }] },
    });
    // Enabled again: no reason, no failing streak.
    const enabled = await demo(
      `mutation { updateWebhookEndpoint(input: { id: "${created.endpoint.id}", enabled: true }) {
        enabled disabledReason failingSince } }`,
    );
    expect(enabled.data.updateWebhookEndpoint).toEqual({ enabled: true, disabledReason: null, failingSince: null });
    await demo(`mutation { deleteWebhookEndpoint(id: "${created.endpoint.id}") { id } }`);
  });
});
