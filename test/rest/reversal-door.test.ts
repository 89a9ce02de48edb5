// The reversal door end to end (decisions.md 44), through the doors a vendor and a store use, on
// PGlite and on Postgres. A vendor notifies R-1 on demo order 4000004 and reverses it: lookup-customer
// shows the balance and validThrough exactly as before R-1, and a later R-2 keeps exactly the days it
// bought; a repeat is 409 and a reversal past the window (the sandbox clock moved) is 400, each writing
// nothing. Then on demo order 4000012, locked since T-70d: a payment unlocks it, its reversal takes
// lockAt back into the past, and a STANDARD endpoint at a real receiver is delivered exactly one
// device.locked (verified with the standardwebhooks package); the device's next check-in, verified
// by the guide's agent, is told LOCKED. Deliveries are awaited by polling, never by a timed assertion.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_DEVICE_IMEI, DEMO_DEVICE_TAG } from '../../src/fixtures/demoIds.js';
import { type CheckinData, DeviceAgent } from '../support/deviceAgent.js';
import { type ServiceFixture, useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

const DAY = 86_400;
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const WAIT = { timeout: 20_000, interval: 50 };
// Demo order 4000012 (Late Payer, 20.00 a month, nothing paid): locked since T-70d.
const LATE_TAG = 'DTSTBBD';
const LATE_IMEI = '123456789012362';
const LATE_ORDER = '4000012';

async function graphql(fixture: ServiceFixture, headers: Record<string, string>, query: string, variables = {}) {
  const { body } = (await fixture.service.graphql(query, headers, variables)) as {
    body: { data?: any; errors?: Array<{ message: string }> };
  };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

/** The payments interface as demo-vendor calls it: a token bought once, then JSON posts. */
function vendorDoor(fixture: ServiceFixture) {
  let token: string | undefined;
  const bearer = async () => {
    if (token) return token;
    const response = await fixture.service.request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    token = ((await response.json()) as { data: { access_token: string } }).data.access_token;
    return token;
  };
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fixture.service.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await bearer()}`, ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  return {
    notify: (reference: string, amount: string, deviceTag: string) =>
      post('/payments/v1/notification', {
        paymentVendor: 'demo-vendor',
        amount,
        currency: 'USD',
        reference,
        deviceTag,
      }),
    reverse: (reference: string, headers: Record<string, string> = {}) =>
      post(
        '/payments/v1/reversal',
        { paymentVendor: 'demo-vendor', reference, reason: 'credited to the wrong device' },
        headers,
      ),
  };
}

async function lookup(fixture: ServiceFixture, locator: string) {
  const response = await fixture.service.request(
    `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${locator}`,
  );
  expect(response.status).toBe(200);
  const body = (await response.json()) as any;
  return {
    remainingBalance: body.financeOrder.remainingBalance as number,
    validThrough: body.device.validThrough as number,
    secureStatus: body.device.secureStatus as string,
  };
}

const SET_CLOCK = 'mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }';

describe('a vendor reverses R-1 on demo order 4000004', () => {
  const fixture = useSeededService();
  const vendor = vendorDoor(fixture);
  const rows = async () =>
    Number((await fixture.database.db('payment_reversals').count({ n: '*' }))[0]!.n) +
    Number((await fixture.database.db('payments').count({ n: '*' }))[0]!.n);
  let before: Awaited<ReturnType<typeof lookup>>;

  it('R-1 of 20.00 moves the balance and validThrough; its reversal puts both back exactly', async () => {
    before = await lookup(fixture, DEMO_DEVICE_IMEI);
    const paid = await vendor.notify('R-1', '20.00', DEMO_DEVICE_TAG);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    // 18.00 + 20.00 paid of 18.00 a month: floor(38 * 30 / 18) = 63 days paid, 33 more than 18.00 bought.
    const afterR1 = await lookup(fixture, DEMO_DEVICE_IMEI);
    expect(afterR1).toEqual({
      remainingBalance: before.remainingBalance - 20,
      validThrough: before.validThrough + 33 * DAY,
      secureStatus: 'Device Active And Secured',
    });

    const reversed = await vendor.reverse('R-1');
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect(reversed.headers.get('cache-control')).toBe('no-store');
    expect(reversed.body.data).toEqual({
      message: `payment ${paid.body.data.paymentId} of 20.00 USD reversed for device ${DEMO_DEVICE_TAG}`,
      paymentId: paid.body.data.paymentId,
      reversalId: expect.any(Number),
      remainingBalance: before.remainingBalance,
      currency: 'USD',
      fullyPaid: false,
    });
    expect(await lookup(fixture, DEMO_DEVICE_IMEI)).toEqual(before);
  });

  it('a later R-2 keeps exactly the days it bought', async () => {
    const paid = await vendor.notify('R-2', '20.00', DEMO_DEVICE_TAG);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await lookup(fixture, DEMO_DEVICE_IMEI)).toEqual({
      remainingBalance: before.remainingBalance - 20,
      validThrough: before.validThrough + 33 * DAY,
      secureStatus: 'Device Active And Secured',
    });
  });

  it('a repeat of the reversal of R-1 is 409 PAYMENT_ALREADY_REVERSED and writes nothing', async () => {
    const written = await rows();
    const repeat = await vendor.reverse('R-1');
    expect(repeat.status).toBe(409);
    expect(repeat.body.error.code).toBe('PAYMENT_ALREADY_REVERSED');
    expect(await rows()).toBe(written);
  });

  it("after the partner's reversalWindowHours (the sandbox clock moved), reversing R-2 is 400 REVERSAL_WINDOW_CLOSED", async () => {
    const { payments } = (
      await graphql(
        fixture,
        OPERATOR,
        '{ financeOrder(id: "4000004") { payments { vendorReference reversibleUntil } } }',
      )
    ).financeOrder;
    const r2 = (payments as Array<{ vendorReference: string | null; reversibleUntil: number }>).find(
      (payment) => payment.vendorReference === 'R-2',
    )!;
    // Timestamps are whole seconds and the payment's instant is not: a second past is past it.
    await graphql(fixture, OPERATOR, SET_CLOCK, { input: { partnerId: '1', now: r2.reversibleUntil + 1 } });
    const stood = await lookup(fixture, DEMO_DEVICE_IMEI);
    const written = await rows();
    const late = await vendor.reverse('R-2');
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe('REVERSAL_WINDOW_CLOSED');
    expect(late.body.error.message).toContain(new Date(r2.reversibleUntil * 1000).toISOString().slice(0, 19));
    expect(await rows()).toBe(written);
    expect(await lookup(fixture, DEMO_DEVICE_IMEI)).toEqual(stood);
  });
});

describe('a reversal that takes lockAt into the past locks the device once', () => {
  const fixture = useSeededService({}, { background: { deliveries: { pollMs: 50 } } });
  const vendor = vendorDoor(fixture);
  let receiver: Receiver;
  let secret: string;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** The device events of order 4000012 delivered to /devices, each verified with standardwebhooks. */
  const deviceEvents = () => {
    const verifier = new Webhook(secret);
    return receiver.received
      .filter((request) => request.path === '/devices' && request.answer === 'ok')
      .map((request) => verifier.verify(request.body, request.headers) as { type: string; data: any })
      .filter((event) => event.data.financeOrder?.id === LATE_ORDER);
  };

  const lockedEventsOfOrder = async () => {
    const { events } = await graphql(
      fixture,
      PARTNER,
      '{ events(first: 100, types: [DEVICE_LOCKED]) { nodes { data } } }',
    );
    return (events.nodes as Array<{ data: any }>).filter((event) => event.data.financeOrder?.id === LATE_ORDER).length;
  };

  it('a STANDARD endpoint takes the device events; the late order is locked', async () => {
    const { createWebhookEndpoint } = await graphql(
      fixture,
      PARTNER,
      `mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }`,
      {
        input: { url: receiver.url('/devices'), eventTypes: ['DEVICE_LOCKED', 'DEVICE_UNLOCKED'], format: 'STANDARD' },
      },
    );
    secret = createWebhookEndpoint.secret;
    expect((await lookup(fixture, LATE_IMEI)).secureStatus).toBe('Device Locked');
  });

  it('60.00 unlocks it (device.unlocked); its reversal locks it again: exactly one device.locked, and the check-in says LOCKED', async () => {
    const issued = await graphql(
      fixture,
      OPERATOR,
      `mutation ($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }`,
      { id: (await graphql(fixture, OPERATOR, `{ device(tag: "${LATE_TAG}") { id } }`)).device.id },
    );
    const agent = new DeviceAgent({
      service: new URL(`${fixture.service.baseUrl}/`),
      credential: issued.issueDeviceCredential.credential,
      deviceTag: LATE_TAG,
      imei: LATE_IMEI,
      appVersion: '2.0.0',
      simNumber: () => null,
      carryOut: async () => {},
    });
    expect(((await agent.checkIn()) as CheckinData).lockState).toBe('LOCKED');
    const lockedBefore = await lockedEventsOfOrder();

    const paid = await vendor.notify('R-LATE-1', '60.00', LATE_TAG);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    await vi.waitFor(() => expect(deviceEvents().map((event) => event.type)).toEqual(['device.unlocked']), WAIT);
    expect(((await agent.checkIn()) as CheckinData).lockState).toBe('UNLOCKED');

    const reversed = await vendor.reverse('R-LATE-1');
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect(reversed.body.data.remainingBalance).toBe(240);
    await vi.waitFor(
      () => expect(deviceEvents().map((event) => event.type)).toEqual(['device.unlocked', 'device.locked']),
      WAIT,
    );
    const answer = (await agent.checkIn()) as CheckinData;
    expect(answer).toMatchObject({ lockState: 'LOCKED', reason: 'PAYMENT_OVERDUE' });
    expect(await lookup(fixture, LATE_IMEI)).toMatchObject({ remainingBalance: 240, secureStatus: 'Device Locked' });
    // Exactly once: the log holds one device.locked of the order more than before the payment.
    expect(await lockedEventsOfOrder()).toBe(lockedBefore + 1);
    expect(deviceEvents().filter((event) => event.type === 'device.locked')).toHaveLength(1);
  });
});
