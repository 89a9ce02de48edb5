// Every event type's payload against its description in openapi.json's `webhooks` (docs/decisions.md
// 41), on PGlite and on Postgres: one event of every type made through the service's own doors (a
// reminder and a lock on the sandbox clock, an in-store payment that unlocks, a check-in and an
// acknowledged command through the device agent, an adjustment, a financed cart, two orders closed,
// the payoff that releases, two report runs, a test message), delivered to a STANDARD endpoint subscribed to everything and a
// PAYJOY_V1 one, each post held to its entry by the test receiver; then every event of the log, in
// the envelope the worker signs, held to it too, and the events the bench data writes in bulk
// (src/fixtures/eventRows.ts). A payload that drifts from its description fails
// here (the last test shows the check refusing drifted copies). Deliveries are awaited by polling the
// receiver, never by a timed assertion.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { writeEventsOfRows } from '../../src/fixtures/eventRows.js';
import { EVENT_TYPES, type EventRow } from '../../src/modules/events/rows.js';
import type { WebhookEndpointRow } from '../../src/modules/webhooks/rows.js';
import { messageOfEvent, newWebhookSecret, signedRequest } from '../../src/modules/webhooks/signing.js';
import { DeviceAgent } from '../support/deviceAgent.js';
import { type ServiceFixture, useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { webhookPostProblems } from '../support/webhookPayloads.js';

const DEMO_PARTNER = '1';
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const DAY = 86_400;
const WAIT = { timeout: 30_000, interval: 50 };
/** The graph's name of a log type: payment.recorded -> PAYMENT_RECORDED. */
const graphName = (type: string) => type.replace('.', '_').toUpperCase();

async function graphql(fixture: ServiceFixture, headers: Record<string, string>, query: string, variables = {}) {
  const { status, body } = await fixture.service.graphql(query, headers, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  expect(status).toBe(200);
  return body.data as any;
}

describe('one event of every type, as delivered and as logged, against openapi.json', () => {
  const fixture = useSeededService({}, { background: { deliveries: { pollMs: 50 } } });
  let receiver: Receiver;
  let endpointId: string;
  let lockAt: number;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const payInStore = async (amount: string) => {
    const response = await fixture.service.request(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}` +
        `&financeOrderId=${DEMO_ORDER_ID}&amount=${amount}&currency=USD`,
    );
    expect(response.status).toBe(200);
  };
  const moveClockTo = (at: number) =>
    graphql(fixture, OPERATOR, 'mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
      input: { partnerId: DEMO_PARTNER, now: at },
    });
  /** The types delivered to `path` so far. */
  const deliveredTypes = (path: string) =>
    new Set(
      receiver.received.filter((request) => request.path === path).map((request) => JSON.parse(request.body).type),
    );

  it('registers a STANDARD endpoint for every type a partner may subscribe to, and a PAYJOY_V1 one', async () => {
    const subscribable = EVENT_TYPES.filter((type) => type !== 'webhook.test').map(graphName);
    const CREATE = `mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`;
    const standard = await graphql(fixture, PARTNER, CREATE, {
      input: { url: receiver.url('/all'), eventTypes: subscribable, format: 'STANDARD' },
    });
    endpointId = standard.createWebhookEndpoint.endpoint.id;
    await graphql(fixture, PARTNER, CREATE, {
      input: { url: receiver.url('/payjoy'), eventTypes: ['TRANSACTION_CREATED'], format: 'PAYJOY_V1' },
    });
    await graphql(
      fixture,
      OPERATOR,
      'mutation ($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id } }',
      { input: { partnerId: DEMO_PARTNER, lockGraceHours: 48, lockReminderDays: [3] } },
    );
    lockAt = (await graphql(fixture, PARTNER, `{ financeOrder(id: "${DEMO_ORDER_ID}") { lockAt } }`)).financeOrder
      .lockAt;
    expect(lockAt).toBeGreaterThan(0);
  });

  it('makes one event of every type through the doors', async () => {
    // The lock timeline: a reminder 3 days ahead, the lock, then a payment that unlocks.
    await moveClockTo(lockAt - 3 * DAY);
    await vi.waitFor(() => expect(deliveredTypes('/all')).toContain('device.lock_upcoming'), WAIT);
    await moveClockTo(lockAt);
    await vi.waitFor(() => expect(deliveredTypes('/all')).toContain('device.locked'), WAIT);
    await payInStore('18.00');
    // A payment reversed (decisions.md 44): payment.reversed, and its opposites' transaction.created.
    await payInStore('1.00');
    const [{ id: reversed }] = await fixture.database.db('payments').orderBy('id', 'desc').limit(1).select('id');
    await graphql(
      fixture,
      PARTNER,
      'mutation ($input: ReversePaymentInput!) { reversePayment(input: $input) { id } }',
      {
        input: { paymentId: String(reversed), reason: 'entered twice' },
      },
    );
    // The device door: a check-in, then a command carried by one check-in and acknowledged by the next.
    const device = (await graphql(fixture, OPERATOR, `{ device(tag: "${DEMO_DEVICE_TAG}") { id } }`)).device;
    const issued = await graphql(
      fixture,
      OPERATOR,
      'mutation ($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }',
      { id: device.id },
    );
    const agent = new DeviceAgent({
      service: new URL(`${fixture.service.baseUrl}/`),
      credential: issued.issueDeviceCredential.credential,
      deviceTag: DEMO_DEVICE_TAG,
      imei: DEMO_DEVICE_IMEI,
      appVersion: '2.0.0',
      simNumber: () => '8901000000000000001',
      carryOut: async () => undefined,
    });
    await agent.checkIn();
    await graphql(
      fixture,
      OPERATOR,
      'mutation ($input: SendDeviceCommandInput!) { sendDeviceCommand(input: $input) { id } }',
      { input: { deviceId: device.id, type: 'SHOW_MESSAGE', message: 'Your payment is due' } },
    );
    await agent.checkIn();
    await agent.checkIn();
    // An adjustment, a financed cart, the payoff, a test message.
    await graphql(
      fixture,
      OPERATOR,
      `mutation { createAdjustment(input: { partnerId: "1", kind: PAYMENT, amount: "-1.50", currency: "USD", notes: "till short", merchantId: "${DEMO_MERCHANT_ID}", financeOrderId: "${DEMO_ORDER_ID}" }) { id } }`,
    );
    const created = await graphql(
      fixture,
      OPERATOR,
      'mutation { createDevice(input: { partnerId: "1", customerId: "4000005", modelId: "3", tag: "DTPAYLOAD1", imei: "356938035643817", simNumber: "8901", phoneNumber: "13035550188" }) { id } }',
    );
    const financed = await graphql(
      fixture,
      OPERATOR,
      `mutation { financeCart(input: { partnerId: "1", cartTag: "${DEMO_CART_TAG}", deviceId: "${created.createDevice.id}" }) { id } }`,
    );
    // Two orders closed (decisions.md 44): the late one written off, the new one's device returned.
    for (const [id, reason] of [
      ['4000012', 'WRITE_OFF'],
      [financed.financeCart.id, 'DEVICE_RETURNED'],
    ]) {
      await graphql(
        fixture,
        OPERATOR,
        `mutation { closeFinanceOrder(input: { financeOrderId: "${id}", reason: ${reason}, note: "payload" }) { id } }`,
      );
    }
    const order = (await graphql(fixture, PARTNER, `{ financeOrder(id: "${DEMO_ORDER_ID}") { remainingBalance } }`))
      .financeOrder;
    // A window of 0: the payoff releases at once (decisions.md 44), so device.released comes with it.
    await graphql(
      fixture,
      OPERATOR,
      'mutation { updatePartnerSettings(input: { partnerId: "1", reversalWindowHours: 0 }) { id } }',
    );
    await payInStore(order.remainingBalance);
    // Report runs (decisions.md 45), run by the background's worker: one that succeeds, and one that fails
    // on a stored day the service cannot write (a currency it does not know).
    const REPORT = 'mutation ($input: CreateReportRunInput!) { createReportRun(input: $input) { id } }';
    await graphql(fixture, PARTNER, REPORT, { input: { partnerId: DEMO_PARTNER, type: 'AGEING' } });
    await fixture.database.db('portfolio_snapshots').insert({
      ...{ partner_id: DEMO_PARTNER, day: '2026-02-01', currency: 'XXX', as_of: '2026-02-01T00:00:00Z' },
      ...{ open_orders: 0, outstanding_minor: 1, par30_minor: 0, par60_minor: 0, par90_minor: 0, locked_orders: 0 },
      ...{ collected_minor: 0, due_minor: 0, first_payment_defaulted: 0, first_payment_eligible: 0 },
      ...{ written_off_minor: 0, period_start_outstanding_minor: 0 },
    });
    const day = Date.parse('2026-02-01T00:00:00Z') / 1000;
    await graphql(fixture, PARTNER, REPORT, {
      input: { partnerId: DEMO_PARTNER, type: 'PORTFOLIO_HISTORY', start: day, end: day + 60 },
    });
    await graphql(fixture, PARTNER, 'mutation ($id: ID!) { sendTestWebhook(endpointId: $id) { id } }', {
      id: endpointId,
    });
    await vi.waitFor(() => expect([...deliveredTypes('/all')].sort()).toEqual([...EVENT_TYPES].sort()), WAIT);
    await vi.waitFor(() => expect(deliveredTypes('/payjoy').size).toBeGreaterThan(0), WAIT);
  });

  it('every post matched its entry: every type, the four kinds of transaction, both formats', () => {
    const posts = receiver.received;
    expect(posts.flatMap((post) => post.problems)).toEqual([]);
    const transactionKinds = (path: string) =>
      new Set(
        posts
          .filter((post) => post.path === path)
          .map((post) => JSON.parse(post.body))
          .map((body) => (path === '/payjoy' ? body : body.type === 'transaction.created' ? body.data : null))
          .filter(Boolean)
          .map((transaction) => transaction.type),
      );
    expect([...transactionKinds('/all')].sort()).toEqual(['adjustment', 'cash', 'commission', 'finance']);
    expect([...transactionKinds('/payjoy')].sort()).toEqual(['adjustment', 'cash', 'commission', 'finance']);
  });

  it('every event of the log, in the envelope the worker signs, matches its entry', async () => {
    const rows: EventRow[] = await fixture.database
      .db('events')
      .where({ partner_id: DEMO_PARTNER })
      .orderBy('sequence');
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(EVENT_TYPES));
    const endpoint = { format: 'standard', secret: newWebhookSecret(), previous_secret: null } as WebhookEndpointRow;
    for (const row of rows) {
      const { headers, body } = signedRequest(endpoint, messageOfEvent(row), new Date());
      expect(webhookPostProblems(headers, body, 'described'), `${row.type} ${body}`).toEqual([]);
    }
  });

  it('refuses a payload that drifted from its description: a type, a member, a dialect', async () => {
    const [row] = await fixture.database
      .db('events')
      .where({ partner_id: DEMO_PARTNER, type: 'payment.recorded' })
      .limit(1);
    const endpoint = { format: 'standard', secret: newWebhookSecret(), previous_secret: null } as WebhookEndpointRow;
    const posted = (data: unknown) => signedRequest(endpoint, { ...messageOfEvent(row), data }, new Date());
    const check = (data: unknown) => {
      const { headers, body } = posted(data);
      return webhookPostProblems(headers, body, 'described');
    };
    expect(check(row.data)).toEqual([]);
    const data = row.data as { payment: Record<string, unknown>; financeOrder: Record<string, unknown> };
    // The legacy dialect in a graph type: an amount as a JSON number.
    expect(check({ ...data, payment: { ...data.payment, amount: 18 } })).toEqual([
      'payment.recorded body /data/payment/amount must be string',
    ]);
    // A member the description does not have, and one missing.
    expect(check({ ...data, extra: 1 })).toEqual(['payment.recorded body /data must NOT have additional properties']);
    const { fullyPaid: _fullyPaid, ...withoutFullyPaid } = data.financeOrder;
    expect(check({ ...data, financeOrder: withoutFullyPaid })).toEqual([
      "payment.recorded body /data/financeOrder must have required property 'fullyPaid'",
    ]);
  });

  it('the events the bench data writes in bulk, for the same rows, match their entries too', async () => {
    const db = fixture.database.db;
    const before = (await db('events').max({ n: 'sequence' }).first())!.n as string;
    // Every payment's and transaction's event written again (this file's last test: nothing reads the log after it).
    expect(await writeEventsOfRows(db, { since: new Date(0) })).toBeGreaterThan(0);
    const rows: EventRow[] = await db('events').where('sequence', '>', before).orderBy('sequence');
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(['payment.recorded', 'transaction.created']));
    const endpoint = { format: 'standard', secret: newWebhookSecret(), previous_secret: null } as WebhookEndpointRow;
    for (const row of rows) {
      const { headers, body } = signedRequest(endpoint, messageOfEvent(row), new Date());
      expect(webhookPostProblems(headers, body, 'described'), `${row.type} ${body}`).toEqual([]);
    }
  });
});
