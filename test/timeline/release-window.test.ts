// A payoff's release waits for its reversal window (docs/decisions.md 44), through the service's doors
// on PGlite and Postgres, Demo Retail at its default window (72 hours): a payoff in store or by a
// vendor is PAID_OFF at once with its releaseAt, the device still secured on every reader (graph,
// lookup-customer, the device door) and a RELEASE command refused, the receipt's code an unlock code
// until releaseAt (checked by a device written from decisions.md 21 alone), the release an instant of
// the lock timeline that a settings change keeps; the clock moved past releaseAt, two claims at once
// write device.released exactly once and the device reads RELEASED; a release whose order is no longer
// paid off writes nothing; a clock reset releases nothing early. A window of 0 releases at once, as
// before. A payoff reversed inside its window (reversePayment) is ACTIVE or LOCKED again, its release
// cancelled, and no device.released is ever written, the clock past the old releaseAt. The claims are
// run directly (fireAllDueInstants), never waited for.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { DEFAULT_PARTNER_SETTINGS } from '../../src/modules/partners/settings.js';
import { scheduleLoadedOrders } from '../../src/modules/timeline/schedule.js';
import { fireAllDueInstants } from '../../src/modules/timeline/scheduler.js';
import { type CheckinData, DeviceAgent } from '../support/deviceAgent.js';
import { useSeededService } from '../support/fixtures.js';
import { EPOCH, OfflineDevice } from '../support/offlineDevice.js';
import { addTwinOrders, twinDevice } from '../support/twinOrders.js';
import { demoVendorNotifier } from '../support/vendorNotifications.js';

const DEMO = '1';
const DAY = 86_400; // seconds
const WINDOW = 72 * 3600; // Demo Retail's reversalWindowHours, the default
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };

const fixture = useSeededService();
const db = () => fixture.database.db;
const fireDue = () => fireAllDueInstants(db());
const notify = demoVendorNotifier(() => fixture.service);

type Body = { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };
const call = async (headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) =>
  (await fixture.service.graphql(query, headers, variables)).body as Body;
async function graphql(headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  const body = await call(headers, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as any;
}

const moveClockTo = (at: number) =>
  graphql(OPERATOR, 'mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
    input: { partnerId: DEMO, now: at },
  });
const resetClock = () => graphql(OPERATOR, `mutation { resetSandboxClock(partnerId: "${DEMO}") { now } }`);
const setWindow = (hours: number) =>
  graphql(OPERATOR, 'mutation ($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id } }', {
    input: { partnerId: DEMO, reversalWindowHours: hours },
  });
const setGrace = (hours: number) =>
  graphql(OPERATOR, 'mutation ($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id } }', {
    input: { partnerId: DEMO, lockGraceHours: hours },
  });

const ORDER = `query ($id: ID!) { financeOrder(id: $id) { status secureStatus releaseAt lockAt remainingBalance
  device { secureStatus validThrough } } }`;
const readOrder = async (id: string) => (await graphql(PARTNER, ORDER, { id })).financeOrder;

const PAY = `mutation ($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) {
  time fullyPaid nextPayment unlockCode } }`;
const payInStore = async (financeOrderId: string, amount: string) =>
  (
    await graphql(RETAIL, PAY, {
      input: { merchantId: DEMO_MERCHANT_ID, salesClerkId: DEMO_CLERK_ID, financeOrderId, amount, currency: 'USD' },
    })
  ).recordInStorePayment as { time: number; fullyPaid: boolean; nextPayment: number | null; unlockCode: string };

const instantsOf = (orderId: string, state = 'pending') =>
  db()('lock_timeline')
    .where({ partner_id: DEMO, finance_order_id: orderId, state })
    .orderBy('due_at')
    .select('kind', 'lock_at', 'due_at', 'fire_at');

const deviceEvents = (orderId: string) =>
  db()('events')
    .where({ partner_id: DEMO })
    .where('type', 'like', 'device.%')
    .whereRaw(`data->'financeOrder'->>'id' = ?`, [orderId])
    .orderBy('sequence')
    .select('type', 'data', 'occurred_at');
const paidOffEvents = (orderId: string) =>
  db()('events').where({ partner_id: DEMO, type: 'finance_order.paid_off' }).whereRaw(`data->>'id' = ?`, [orderId]);

async function lookup(imei: string) {
  const response = await fixture.service.request(
    `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${imei}`,
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { device: { secureStatus: string; validThrough: number } }).device;
}

/** A credential for the twin's device, and the agent and the offline code checker that hold it. */
async function enrol(orderId: string): Promise<{ agent: DeviceAgent; codes: OfflineDevice }> {
  const issued = await graphql(
    OPERATOR,
    'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }',
    { id: orderId }, // a twin's device id is its order's
  );
  const credential: string = issued.issueDeviceCredential.credential;
  const { tag, imei } = twinDevice(orderId);
  const agent = new DeviceAgent({
    service: new URL(`${fixture.service.baseUrl}/`),
    credential,
    deviceTag: tag,
    imei,
    appVersion: '2.0.0',
    simNumber: () => null,
    carryOut: async () => {},
  });
  return { agent, codes: new OfflineDevice(credential, tag) };
}

const RELEASE = `mutation ($input: SendDeviceCommandInput!) { sendDeviceCommand(input: $input) { type status } }`;
const sendRelease = (orderId: string) => call(PARTNER, RELEASE, { input: { deviceId: orderId, type: 'RELEASE' } });

describe('a payoff inside its reversal window', () => {
  let ids: string[];
  let inStore: { agent: DeviceAgent; codes: OfflineDevice };
  let releaseAt: number;
  let vendorReleaseAt: number;
  /** An order locked when it was paid off. */
  let lockedId: string;

  it('is PAID_OFF at once with its releaseAt, finance_order.paid_off written, no device.released, one release instant', async () => {
    const real = Math.floor(Date.now() / 1000);
    // 18.00 a month for 12 months, 18.00 paid, sold 10 days ago: 198.00 pays each one off.
    ids = await addTwinOrders(db(), 9400001, 4, new Date((real - 10 * DAY) * 1000));
    inStore = await enrol(ids[0]!);
    expect((await inStore.agent.checkIn()).lockState).toBe('UNLOCKED');

    const payoff = await payInStore(ids[0]!, '198.00');
    // The legacy receipt's fields as before.
    expect(payoff).toMatchObject({ fullyPaid: true, nextPayment: null });
    releaseAt = payoff.time + WINDOW;
    const vendor = await notify({
      amount: '198.00',
      reference: 'RELEASE-WINDOW-1',
      deviceTag: twinDevice(ids[1]!).tag,
    });
    expect(vendor.status, JSON.stringify(vendor.body)).toBe(200);
    expect(vendor.body.data).toMatchObject({ remainingBalance: 0, fullyPaid: true });
    vendorReleaseAt =
      Number((await db()('finance_orders').where({ partner_id: DEMO, id: ids[1] }).first()).release_at) / 1000;
    expect(vendorReleaseAt).toBeGreaterThanOrEqual(releaseAt);

    for (const [id, at] of [
      [ids[0]!, releaseAt],
      [ids[1]!, vendorReleaseAt],
    ] as const) {
      expect(await readOrder(id)).toEqual({
        status: 'PAID_OFF',
        secureStatus: 'ACTIVE_AND_SECURED',
        releaseAt: Math.floor(at),
        lockAt: null,
        remainingBalance: '0.00',
        device: { secureStatus: 'ACTIVE_AND_SECURED', validThrough: Math.floor(at) },
      });
      // releaseAt is the payoff's reversibleUntil, to the millisecond.
      const [payment] = await db()('payments')
        .where({ partner_id: DEMO, finance_order_id: id })
        .select('reversible_until');
      const order = await db()('finance_orders').where({ partner_id: DEMO, id }).first('release_at');
      expect(order.release_at.getTime()).toBe(payment.reversible_until.getTime());
      expect(await paidOffEvents(id)).toHaveLength(1);
      expect(await deviceEvents(id)).toEqual([]);
      const pending = await instantsOf(id);
      expect(pending.map((row) => [row.kind, row.due_at.getTime(), row.lock_at.getTime()])).toEqual([
        ['release', order.release_at.getTime(), order.release_at.getTime()],
      ]);
    }
    // Nothing is due: the claim leaves the releases pending.
    await fireDue();
    expect(await deviceEvents(ids[0]!)).toEqual([]);
    expect(await instantsOf(ids[0]!)).toHaveLength(1);
  });

  it('keeps the device secured: the door answers UNLOCKED until releaseAt, lookup-customer says so, RELEASE is refused', async () => {
    const answer: CheckinData = await inStore.agent.checkIn();
    expect(answer).toMatchObject({ lockState: 'UNLOCKED', reason: null, lockAt: releaseAt });
    expect(answer.offlineLockAt).not.toBeNull();
    expect(answer.offlineLockAt!).toBeLessThanOrEqual(releaseAt);

    const device = await lookup(twinDevice(ids[0]!).imei);
    expect(device).toMatchObject({ secureStatus: 'Device Active And Secured', validThrough: releaseAt });

    const refused = await sendRelease(ids[0]!);
    expect(refused.errors?.[0]?.extensions?.code).toBe('RELEASE_NOT_ALLOWED');
    const until = (await db()('finance_orders').where({ partner_id: DEMO, id: ids[0] }).first()).release_at as Date;
    expect(refused.errors?.[0]?.message).toBe(
      `device ${ids[0]} cannot be released: its payoff can still be reversed until ${until.toISOString()}`,
    );
    expect(await db()('device_commands').where({ partner_id: DEMO, device_id: ids[0] })).toEqual([]);
  });

  it("the receipt's code is an unlock code until releaseAt, not a release code", async () => {
    const twin = await enrol(ids[2]!);
    const payoff = await payInStore(ids[2]!, '198.00');
    expect(payoff.fullyPaid).toBe(true);
    expect(twin.codes.type(payoff.unlockCode)).toBe('ACCEPTED');
    // Whole hours since the codes' epoch, rounded up: never less than releaseAt, never an hour more.
    const until = twin.codes.unlockedUntil as number;
    expect(until).not.toBe('FOR_GOOD');
    expect(until).toBeGreaterThanOrEqual(payoff.time + WINDOW);
    expect(until).toBeLessThan(payoff.time + WINDOW + 3600);
    expect((until - EPOCH) % 3600).toBe(0);
  });

  it('a locked device paid off is unlocked until releaseAt (device.unlocked), not released', async () => {
    const real = Math.floor(Date.now() / 1000);
    // Sold 100 days ago, paid through 60 days: its lock fired 40 days ago.
    [lockedId] = (await addTwinOrders(db(), 9400011, 1, new Date((real - 100 * DAY) * 1000))) as [string];
    await scheduleLoadedOrders(db(), DEMO, DEFAULT_PARTNER_SETTINGS, new Date(), [lockedId]);
    expect(await readOrder(lockedId)).toMatchObject({ status: 'LOCKED', secureStatus: 'LOCKED' });
    const payoff = await payInStore(lockedId, '198.00');
    const events = await deviceEvents(lockedId);
    expect(events.map((event) => event.type)).toEqual(['device.unlocked']);
    expect(events[0]!.data.financeOrder).toEqual({
      id: lockedId,
      remainingBalance: '0.00',
      currency: 'USD',
      lockAt: payoff.time + WINDOW,
    });
    expect(await readOrder(lockedId)).toMatchObject({ status: 'PAID_OFF', secureStatus: 'ACTIVE_AND_SECURED' });
    expect((await instantsOf(lockedId, 'lifted')).map((row) => row.kind)).toEqual(['lock']);
    expect((await instantsOf(lockedId)).map((row) => row.kind)).toEqual(['release']);
  });

  it('keeps its release through a settings change', async () => {
    const before = await instantsOf(ids[0]!);
    await setGrace(24);
    await setGrace(0);
    expect(await instantsOf(ids[0]!)).toEqual(before);
    expect(await readOrder(ids[0]!)).toMatchObject({ status: 'PAID_OFF', secureStatus: 'ACTIVE_AND_SECURED' });
  });

  it('the clock past releaseAt: two claims at once write device.released exactly once, the device reads RELEASED', async () => {
    // One order no longer paid off, as a reversal leaves it (the reversal itself cancels the instant;
    // the claim checks anyway): its release writes nothing.
    await db()('finance_orders')
      .where({ partner_id: DEMO, id: ids[2] })
      .update({ total_paid_minor: db().raw('total_paid_minor - 1800') });
    await moveClockTo(Math.ceil(vendorReleaseAt) + 120);
    const taken = await Promise.all([fireDue(), fireDue()]);
    expect(taken.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
    await fireDue();
    expect((await deviceEvents(lockedId)).map((event) => event.type)).toEqual(['device.unlocked', 'device.released']);
    for (const id of [ids[0]!, ids[1]!]) {
      const events = await deviceEvents(id);
      expect(events.map((event) => event.type)).toEqual(['device.released']);
      const order = await db()('finance_orders').where({ partner_id: DEMO, id }).first('release_at');
      expect(events[0]!.occurred_at.getTime()).toBe(order.release_at.getTime());
      const { tag, imei } = twinDevice(id);
      expect(events[0]!.data).toEqual({
        device: { tag, imei },
        financeOrder: { id, remainingBalance: '0.00', currency: 'USD', lockAt: null },
      });
      expect(await instantsOf(id, 'fired')).toHaveLength(1);
      expect(await readOrder(id)).toMatchObject({ status: 'PAID_OFF', secureStatus: 'RELEASED' });
    }
    // The order no longer paid off: its release skipped, nothing written.
    expect(await deviceEvents(ids[2]!)).toEqual([]);
    expect((await instantsOf(ids[2]!, 'skipped')).map((row) => row.kind)).toEqual(['release']);

    expect(await inStore.agent.checkIn()).toMatchObject({ lockState: 'RELEASED', lockAt: null, offlineLockAt: null });
    expect((await lookup(twinDevice(ids[0]!).imei)).secureStatus).toBe('Device Released');
    const sent = await sendRelease(ids[0]!);
    expect(sent.errors, JSON.stringify(sent.errors)).toBeUndefined();
  });

  it('a clock reset releases nothing early and nothing twice', async () => {
    // Paid off at the moved clock, days ahead of real time: its window closes 72 hours after that.
    const payoff = await payInStore(ids[3]!, '198.00');
    expect(payoff.time).toBeGreaterThan(Math.floor(Date.now() / 1000) + 2 * DAY);
    await resetClock();
    await fireDue();
    expect(await deviceEvents(ids[3]!)).toEqual([]);
    const [release] = await instantsOf(ids[3]!);
    expect(release!.kind).toBe('release');
    // Back on real time: its real time is its partner time, at most the payment's own duration late.
    expect(release!.fire_at.getTime()).toBeGreaterThanOrEqual(release!.due_at.getTime());
    expect(release!.fire_at.getTime()).toBeLessThan(release!.due_at.getTime() + 60_000);
    expect(Math.floor(release!.due_at.getTime() / 1000)).toBe(payoff.time + WINDOW);
    for (const id of [ids[0]!, ids[1]!])
      expect((await deviceEvents(id)).map((event) => event.type)).toEqual(['device.released']);
  });
});

describe('a payoff with a window of 0', () => {
  it('releases at once, as before: device.released after finance_order.paid_off, a release code, RELEASED', async () => {
    await setWindow(0);
    const real = Math.floor(Date.now() / 1000);
    const [id] = await addTwinOrders(db(), 9400101, 1, new Date((real - 10 * DAY) * 1000));
    const { agent, codes } = await enrol(id!);
    const payoff = await payInStore(id!, '198.00');
    expect(payoff).toMatchObject({ fullyPaid: true, nextPayment: null });
    expect(codes.type(payoff.unlockCode)).toBe('ACCEPTED');
    expect(codes.unlockedUntil).toBe('FOR_GOOD');
    expect((await deviceEvents(id!)).map((event) => event.type)).toEqual(['device.released']);
    expect(await paidOffEvents(id!)).toHaveLength(1);
    expect(await instantsOf(id!)).toEqual([]);
    expect(await readOrder(id!)).toMatchObject({
      status: 'PAID_OFF',
      secureStatus: 'RELEASED',
      releaseAt: payoff.time,
    });
    expect(await agent.checkIn()).toMatchObject({ lockState: 'RELEASED', lockAt: null });
    await setWindow(72);
  });
});

describe('a payoff reversed inside its window', () => {
  const PAY_WITH_ID = `mutation ($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) {
    time fullyPaid payment { id } } }`;
  const REVERSE = `mutation ($input: ReversePaymentInput!) { reversePayment(input: $input) { fullyPaid lockAt } }`;
  let active: string;
  let locked: string;
  let releaseAt: number;

  it('is ACTIVE or LOCKED again by its new lockAt, its release cancelled', async () => {
    const real = Math.floor(Date.now() / 1000);
    [active] = (await addTwinOrders(db(), 9400201, 1, new Date((real - 10 * DAY) * 1000))) as [string];
    [locked] = (await addTwinOrders(db(), 9400202, 1, new Date((real - 100 * DAY) * 1000))) as [string];
    await scheduleLoadedOrders(db(), DEMO, DEFAULT_PARTNER_SETTINGS, new Date(), [locked]);
    const before = await readOrder(active);
    for (const id of [active, locked]) {
      const paid = (
        await graphql(RETAIL, PAY_WITH_ID, {
          input: {
            merchantId: DEMO_MERCHANT_ID,
            salesClerkId: DEMO_CLERK_ID,
            financeOrderId: id,
            amount: '198.00',
            currency: 'USD',
          },
        })
      ).recordInStorePayment;
      expect(paid.fullyPaid).toBe(true);
      releaseAt = Math.max(releaseAt ?? 0, paid.time + WINDOW);
      expect(await readOrder(id)).toMatchObject({ status: 'PAID_OFF', secureStatus: 'ACTIVE_AND_SECURED' });
      const reversed = (
        await graphql(OPERATOR, REVERSE, { input: { paymentId: paid.payment.id, reason: 'the payoff bounced' } })
      ).reversePayment;
      expect(reversed.fullyPaid).toBe(false);
      expect((await instantsOf(id)).map((row) => row.kind)).not.toContain('release');
      expect((await instantsOf(id, 'cancelled')).map((row) => row.kind)).toContain('release');
      const order = await db()('finance_orders').where({ partner_id: DEMO, id }).first('release_at');
      expect(order.release_at).toBeNull();
    }
    expect(await readOrder(active)).toMatchObject({
      status: 'ACTIVE',
      secureStatus: 'ACTIVE_AND_SECURED',
      releaseAt: null,
      lockAt: before.lockAt,
    });
    expect(await readOrder(locked)).toMatchObject({ status: 'LOCKED', secureStatus: 'LOCKED', releaseAt: null });
    const refused = await sendRelease(active);
    expect(refused.errors?.[0]?.extensions?.code).toBe('RELEASE_NOT_ALLOWED');
  });

  it('writes no device.released, even with the clock past the old releaseAt; the locked one locks again', async () => {
    await moveClockTo(releaseAt + 3600);
    await Promise.all([fireDue(), fireDue()]);
    await fireDue();
    expect(await deviceEvents(active)).toEqual([]);
    // Unlocked by the payoff until releaseAt, locked again by its reversal's lockAt, long past.
    expect((await deviceEvents(locked)).map((event) => event.type)).toEqual(['device.unlocked', 'device.locked']);
    // Its lockAt (paid through 60 days from its sale) is still ahead: secured, not released.
    expect(await readOrder(active)).toMatchObject({
      status: 'ACTIVE',
      secureStatus: 'ACTIVE_AND_SECURED',
      releaseAt: null,
    });
    await resetClock();
  });
});
