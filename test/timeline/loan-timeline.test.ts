// The loan running itself, end to end through the service's own doors (GraphQL and REST on a real HTTP
// server whose lock scheduler and webhook worker run as src/main.ts runs them), on PGlite and on
// Postgres: an operator sets Demo Retail's grace and reminders, a partner key registers STANDARD
// endpoints at a real local receiver, the sandbox clock is moved to 3 days before demo order
// 4000004's lockAt and then to lockAt, a clerk pays 18.00 and then the rest; each device event, and
// the payoff, is delivered once and verified with the standardwebhooks package. Then repayment in days
// and payment references on the same order: 4.00 buys 6 days, 7 days cost 4.20, a reference for 4.20
// paid once through a vendor's notification moves lockAt by 7 days; paid, expired and wrong-amount
// notifications are refused with their codes and record nothing. Each describe has its own seeded
// database and service, so no clock or setting leaks into another describe or file. Deliveries are
// awaited by polling the receiver (up to 20 s), never by a timed assertion.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { type ServiceFixture, useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

const DEMO_PARTNER = '1';
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const DAY = 86_400; // seconds: the graph's and the contract's times are Unix seconds
const DEVICE_EVENT_TYPES = ['DEVICE_LOCK_UPCOMING', 'DEVICE_LOCKED', 'DEVICE_UNLOCKED', 'DEVICE_RELEASED'];
const WAIT = { timeout: 20_000, interval: 50 };

type GraphqlError = { message: string; extensions: { code: string } };

/** A GraphQL operation that must succeed: its data. */
async function graphql(fixture: ServiceFixture, headers: Record<string, string>, query: string, variables = {}) {
  const { status, body } = await fixture.service.graphql(query, headers, variables);
  expect(body.errors as GraphqlError[] | undefined, JSON.stringify(body.errors)).toBeUndefined();
  expect(status).toBe(200);
  return body.data as any;
}

const ORDER = `query ($id: ID!) { financeOrder(id: $id) {
  paidThrough lockAt nextPayment secureStatus releaseAt remainingBalance payments { id amount } } }`;
const readOrder = async (fixture: ServiceFixture) =>
  (await graphql(fixture, PARTNER, ORDER, { id: DEMO_ORDER_ID })).financeOrder as {
    paidThrough: number;
    lockAt: number | null;
    nextPayment: number | null;
    secureStatus: string;
    releaseAt: number | null;
    remainingBalance: string;
    payments: Array<{ id: string; amount: string }>;
  };

const SET_CLOCK = `mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { partnerId now } }`;
/** Demo Retail's sandbox clock moved to `at` (Unix seconds), through the operator's mutation. */
async function moveClockTo(fixture: ServiceFixture, at: number): Promise<void> {
  const { setSandboxClock } = await graphql(fixture, OPERATOR, SET_CLOCK, {
    input: { partnerId: DEMO_PARTNER, now: at },
  });
  expect(setSandboxClock.partnerId).toBe(DEMO_PARTNER);
  expect(setSandboxClock.now).toBeGreaterThanOrEqual(at);
}

describe('the lock timeline of demo order 4000004, through the doors, delivered by webhook', () => {
  const fixture = useSeededService({}, { background: { deliveries: { pollMs: 50 } } });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** The endpoints' secrets: /devices takes the four device events, /paid-off finance_order.paid_off. */
  const secrets = new Map<string, string>();
  /** lockAt of the order under the 48-hour grace, read from the graph. */
  let lockAt: number;

  interface Delivery {
    id: string;
    type: string;
    timestamp: string;
    data: any;
  }
  /** Every delivery `path` answered 200, each verified with standardwebhooks (verify throws on a bad signature). */
  function delivered(path: string): Delivery[] {
    const verifier = new Webhook(secrets.get(path)!);
    return receiver.received
      .filter((request) => request.path === path && request.answer === 'ok')
      .map((request) => ({
        id: request.headers['webhook-id']!,
        ...(verifier.verify(request.body, request.headers) as Omit<Delivery, 'id'>),
      }));
  }
  /** The device events of demo order 4000004 delivered so far, in the order they arrived. */
  const orderDeviceEvents = () => delivered('/devices').filter((body) => body.data.financeOrder?.id === DEMO_ORDER_ID);
  /** Waits until the order's device deliveries are exactly `types` (a duplicate never matches). */
  const deviceEventsBecome = (types: string[]) =>
    vi.waitFor(() => expect(orderDeviceEvents().map((body) => body.type)).toEqual(types), WAIT);

  const lookup = async () => {
    const response = await fixture.service.request(
      `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}`,
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { device: { secureStatus: string; validThrough: number } }).device;
  };
  const payInStore = async (amount: string) => {
    const response = await fixture.service.request(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}` +
        `&financeOrderId=${DEMO_ORDER_ID}&amount=${amount}&currency=USD`,
    );
    const body = (await response.json()) as any;
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body.payment as { remainingBalance: number; nextPayment: number | null; fullyPaid: boolean };
  };
  const device = { tag: DEMO_DEVICE_TAG, imei: DEMO_DEVICE_IMEI };

  it("an operator sets Demo Retail's grace to 48 hours and its reminders to [3, 1]: lockAt is paid-through + 48 h", async () => {
    const before = await readOrder(fixture);
    expect(before.lockAt).toBe(before.paidThrough);
    const { updatePartnerSettings } = await graphql(
      fixture,
      OPERATOR,
      `mutation ($input: UpdatePartnerSettingsInput!) {
        updatePartnerSettings(input: $input) { id settings { lockGraceHours lockReminderDays } } }`,
      { input: { partnerId: DEMO_PARTNER, lockGraceHours: 48, lockReminderDays: [3, 1] } },
    );
    expect(updatePartnerSettings).toEqual({
      id: DEMO_PARTNER,
      settings: { lockGraceHours: 48, lockReminderDays: [3, 1] },
    });
    const order = await readOrder(fixture);
    expect(order.paidThrough).toBe(before.paidThrough);
    expect(order.lockAt).toBe(order.paidThrough + 2 * DAY);
    expect(order.nextPayment).toBe(order.lockAt);
    lockAt = order.lockAt!;
    expect(order.secureStatus).toBe('ACTIVE_AND_SECURED');
  });

  it('a partner key registers STANDARD endpoints at a real receiver: the four device events, and the payoff', async () => {
    const CREATE = `mutation ($input: CreateWebhookEndpointInput!) {
      createWebhookEndpoint(input: $input) { secret endpoint { format eventTypes } } }`;
    for (const [path, eventTypes] of [
      ['/devices', DEVICE_EVENT_TYPES],
      ['/paid-off', ['FINANCE_ORDER_PAID_OFF']],
    ] as const) {
      const { createWebhookEndpoint } = await graphql(fixture, PARTNER, CREATE, {
        input: { url: receiver.url(path), eventTypes, format: 'STANDARD' },
      });
      expect(createWebhookEndpoint.endpoint.format).toBe('STANDARD');
      expect([...createWebhookEndpoint.endpoint.eventTypes].sort()).toEqual([...eventTypes].sort());
      expect(createWebhookEndpoint.secret).toMatch(/^whsec_/);
      secrets.set(path, createWebhookEndpoint.secret);
    }
  });

  it('3 days before lockAt: one device.lock_upcoming with daysLeft 3, and the device still active', async () => {
    await moveClockTo(fixture, lockAt - 3 * DAY);
    await deviceEventsBecome(['device.lock_upcoming']);
    const [upcoming] = orderDeviceEvents();
    expect(upcoming!.timestamp).toBe(new Date((lockAt - 3 * DAY) * 1000).toISOString());
    expect(upcoming!.data).toEqual({
      device,
      financeOrder: { id: DEMO_ORDER_ID, remainingBalance: '198.00', currency: 'USD', lockAt },
      daysLeft: 3,
      lockAt,
      // 0.60 more moves lockAt by a day: floor((18.00 + 0.60) × 30 / 18.00) = 31 days.
      minimumPaymentAmount: '0.60',
    });
    expect(await lookup()).toMatchObject({ secureStatus: 'Device Active And Secured', validThrough: lockAt });
  });

  it('at lockAt: one device.locked (the 1-day reminder, due with it, skipped); lookup-customer says "Device Locked", validThrough lockAt', async () => {
    await moveClockTo(fixture, lockAt);
    await deviceEventsBecome(['device.lock_upcoming', 'device.locked']);
    const locked = orderDeviceEvents()[1]!;
    expect(locked.timestamp).toBe(new Date(lockAt * 1000).toISOString());
    expect(locked.data).toEqual({
      device,
      financeOrder: { id: DEMO_ORDER_ID, remainingBalance: '198.00', currency: 'USD', lockAt },
      reason: 'PAYMENT_OVERDUE',
    });
    // The legacy lookup names lockAt validThrough (docs/legacy-contract.md); the graph's nextPayment is it too.
    expect(await lookup()).toMatchObject({ secureStatus: 'Device Locked', validThrough: lockAt });
    expect(await readOrder(fixture)).toMatchObject({ secureStatus: 'LOCKED', lockAt, nextPayment: lockAt });
  });

  it('an in-store payment of 18.00 moves lockAt 30 days ahead: one device.unlocked', async () => {
    const payment = await payInStore('18.00');
    expect(payment).toMatchObject({ remainingBalance: 180, nextPayment: lockAt + 30 * DAY, fullyPaid: false });
    await deviceEventsBecome(['device.lock_upcoming', 'device.locked', 'device.unlocked']);
    expect(orderDeviceEvents()[2]!.data).toEqual({
      device,
      financeOrder: { id: DEMO_ORDER_ID, remainingBalance: '180.00', currency: 'USD', lockAt: lockAt + 30 * DAY },
    });
    expect(await lookup()).toMatchObject({
      secureStatus: 'Device Active And Secured',
      validThrough: lockAt + 30 * DAY,
    });
  });

  it('the full payoff: one finance_order.paid_off, then, its window closed, one device.released; the log holds each event once', async () => {
    const { remainingBalance } = await readOrder(fixture);
    expect(remainingBalance).toBe('180.00');
    expect(await payInStore(remainingBalance)).toMatchObject({
      remainingBalance: 0,
      nextPayment: null,
      fullyPaid: true,
    });
    // Completing: secured until the payoff's reversal window closes (decisions.md 44).
    const { releaseAt, secureStatus } = await readOrder(fixture);
    expect(secureStatus).toBe('ACTIVE_AND_SECURED');
    expect(await lookup()).toMatchObject({ secureStatus: 'Device Active And Secured', validThrough: releaseAt });
    // The clock past releaseAt: the worker's scheduler writes the release.
    await moveClockTo(fixture, releaseAt! + 60);
    await deviceEventsBecome(['device.lock_upcoming', 'device.locked', 'device.unlocked', 'device.released']);
    expect(orderDeviceEvents()[3]!.data).toEqual({
      device,
      financeOrder: { id: DEMO_ORDER_ID, remainingBalance: '0.00', currency: 'USD', lockAt: null },
    });
    const paidOff = () => delivered('/paid-off').filter((body) => String(body.data.id) === DEMO_ORDER_ID);
    await vi.waitFor(() => expect(paidOff().map((body) => body.type)).toEqual(['finance_order.paid_off']), WAIT);
    expect(paidOff()[0]!.data).toMatchObject({ remainingBalance: 0 });
    expect(await lookup()).toMatchObject({ secureStatus: 'Device Released' });

    // The partner's event log holds these five events of the order once each, in the order they
    // happened (the release after the payoff), and the deliveries are exactly those events.
    const { events } = await graphql(
      fixture,
      PARTNER,
      `query ($types: [EventType!]) { events(first: 100, types: $types) { nodes { id type data } } }`,
      { types: [...DEVICE_EVENT_TYPES, 'FINANCE_ORDER_PAID_OFF'] },
    );
    const logged = (events.nodes as Array<{ id: string; type: string; data: any }>)
      .filter((event) => (event.data.financeOrder?.id ?? String(event.data.id)) === DEMO_ORDER_ID)
      .reverse();
    expect(logged.map((event) => event.type)).toEqual([
      'DEVICE_LOCK_UPCOMING',
      'DEVICE_LOCKED',
      'DEVICE_UNLOCKED',
      'FINANCE_ORDER_PAID_OFF',
      'DEVICE_RELEASED',
    ]);
    expect(logged[4]!.data.financeOrder.lockAt).toBeNull();
    const deliveredIds = [...orderDeviceEvents(), ...paidOff()].map((body) => body.id);
    expect(new Set(deliveredIds).size).toBe(5);
    expect(new Set(deliveredIds)).toEqual(new Set(logged.map((event) => event.id)));
  });
});

describe('repayment in days and a payment reference on demo order 4000004', () => {
  const fixture = useSeededService();

  let token: string | undefined;
  async function vendorToken(): Promise<string> {
    if (token) return token;
    const response = await fixture.service.request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    expect(response.status).toBe(200);
    token = ((await response.json()) as { data: { access_token: string } }).data.access_token;
    return token;
  }
  let vendorReferences = 0;
  /** A demo-vendor notification quoting a payment reference (demo-vendor's schema wants the device's tag too). */
  async function notify(paymentReference: string, amount: string) {
    const response = await fixture.service.request('/payments/v1/notification', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await vendorToken()}` },
      body: JSON.stringify({
        paymentVendor: 'demo-vendor',
        amount,
        currency: 'USD',
        reference: `LOAN-TIMELINE-${++vendorReferences}`,
        deviceTag: DEMO_DEVICE_TAG,
        paymentReference,
      }),
    });
    return { status: response.status, body: (await response.json()) as any };
  }
  /** A notification refused with `status` and `code`: no payment, and the order as it was. */
  async function expectRefused(paymentReference: string, amount: string, status: number, code: string) {
    const before = await readOrder(fixture);
    const answer = await notify(paymentReference, amount);
    expect(answer.body.error?.code, JSON.stringify(answer.body)).toBe(code);
    expect(answer.status).toBe(status);
    expect(await readOrder(fixture)).toEqual(before);
  }

  const CREATE = `mutation ($input: CreatePaymentReferenceInput!) {
    createPaymentReference(input: $input) { code amount daysPaid expiresAt status } }`;
  const createReference = async (input: Record<string, unknown>) =>
    (await graphql(fixture, PARTNER, CREATE, { input: { financeOrderId: DEMO_ORDER_ID, ...input } }))
      .createPaymentReference as { code: string; amount: string; daysPaid: number; expiresAt: number; status: string };
  const referenceOf = async (code: string) =>
    (
      await graphql(
        fixture,
        PARTNER,
        'query ($code: String!) { paymentReference(code: $code) { status payment { amount } } }',
        {
          code,
        },
      )
    ).paymentReference;

  it('4.00 buys 6 days, and the 7-day option costs 4.20 (FinanceOrder.repayment)', async () => {
    const { financeOrder } = await graphql(
      fixture,
      PARTNER,
      `query ($id: ID!) { financeOrder(id: $id) { lockAt repayment {
        daysBoughtBy(amount: "4.00") options { daysPaid amount lockAt } } } }`,
      { id: DEMO_ORDER_ID },
    );
    expect(financeOrder.repayment.daysBoughtBy).toBe(6);
    // The default repaymentDays [7, 30]: 4.20 buys 7 days, 18.00 a month.
    expect(financeOrder.repayment.options).toEqual([
      { daysPaid: 7, amount: '4.20', lockAt: financeOrder.lockAt + 7 * DAY },
      { daysPaid: 30, amount: '18.00', lockAt: financeOrder.lockAt + 30 * DAY },
    ]);
  });

  it('a reference for 4.20 is paid once by a vendor notification and moves lockAt by exactly 7 days; quoting it again is 409', async () => {
    const reference = await createReference({ amount: '4.20' });
    expect(reference).toMatchObject({ amount: '4.20', daysPaid: 7, status: 'OPEN' });
    const before = await readOrder(fixture);

    const paid = await notify(reference.code, '4.20');
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data).toMatchObject({ remainingBalance: 193.8, currency: 'USD', fullyPaid: false });
    const after = await readOrder(fixture);
    expect(after.lockAt).toBe(before.lockAt! + 7 * DAY);
    expect(after.payments).toHaveLength(before.payments.length + 1);
    expect(after.payments.at(-1)!.amount).toBe('4.20');
    expect(await referenceOf(reference.code)).toEqual({ status: 'PAID', payment: { amount: '4.20' } });

    await expectRefused(reference.code, '4.20', 409, 'PAYMENT_REFERENCE_ALREADY_PAID');
    expect(await referenceOf(reference.code)).toEqual({ status: 'PAID', payment: { amount: '4.20' } });
  });

  it('a notification for another amount is AMOUNT_MISMATCH, and the reference stays open', async () => {
    const reference = await createReference({ amount: '4.20' });
    await expectRefused(reference.code, '4.00', 400, 'AMOUNT_MISMATCH');
    expect(await referenceOf(reference.code)).toEqual({ status: 'OPEN', payment: null });
  });

  it('once the sandbox clock passes its expiresAt, a reference is PAYMENT_REFERENCE_EXPIRED', async () => {
    const reference = await createReference({ daysPaid: 7, expiresInHours: 1 });
    expect(reference.amount).toBe('4.20');
    await moveClockTo(fixture, reference.expiresAt + 60);
    expect(await referenceOf(reference.code)).toEqual({ status: 'EXPIRED', payment: null });
    await expectRefused(reference.code, '4.20', 409, 'PAYMENT_REFERENCE_EXPIRED');
  });
});
