// The lock timeline, exact (docs/decisions.md 37), through the service's doors on PGlite and Postgres:
// with Demo Retail's sandbox clock days ahead, an in-store payment (record-customer-payment and
// recordInStorePayment) and a vendor's notification of the same amount on twin orders make the same
// instants, and moving the clock to each of them (the 3-day reminder claimed 60 s late, the 1-day one
// 70 s late, the lock 1 s late) writes every order's two reminders and its lock; a partner raising
// the grace of a locked order unlocks it on every reader (graph, lookup-customer, timeline, event),
// lowering it again locks it; a sandbox reset that puts a locked order's lockAt ahead again unlocks it.
// The claims are run directly (fireAllDueInstants), never waited for.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { DEFAULT_PARTNER_SETTINGS } from '../../src/modules/partners/settings.js';
import { scheduleLoadedOrders } from '../../src/modules/timeline/schedule.js';
import { fireAllDueInstants } from '../../src/modules/timeline/scheduler.js';
import { useSeededService } from '../support/fixtures.js';
import { addTwinOrders, twinDevice } from '../support/twinOrders.js';
import { demoVendorNotifier } from '../support/vendorNotifications.js';

const DEMO = '1';
const DAY = 86_400; // seconds
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };

const fixture = useSeededService();
const db = () => fixture.database.db;
/** Fires what is due now, as the worker's lock instants task does, batch after batch. */
const fireDue = () => fireAllDueInstants(db());

async function graphql(headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await fixture.service.graphql(query, headers, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as any;
}

/** Demo Retail's clock moved to `at` (Unix seconds) through the operator's mutation. */
const moveClockTo = (at: number) =>
  graphql(OPERATOR, 'mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
    input: { partnerId: DEMO, now: at },
  });
const resetClock = () => graphql(OPERATOR, `mutation { resetSandboxClock(partnerId: "${DEMO}") { now } }`);
const offsetMs = async () => Number((await db()('sandbox_clocks').where({ partner_id: DEMO }).first())?.offset_ms ?? 0);

const pendingInstants = (orderId: string) =>
  db()('lock_timeline')
    .where({ partner_id: DEMO, finance_order_id: orderId, state: 'pending' })
    .orderBy('due_at')
    .select('kind', 'days_left', 'lock_at', 'due_at', 'fire_at');

const deviceEvents = async (orderId: string) =>
  (
    await db()('events')
      .where({ partner_id: DEMO })
      .where('type', 'like', 'device.%')
      .whereRaw(`data->'financeOrder'->>'id' = ?`, [orderId])
      .orderBy('sequence')
      .select('type', 'data', 'occurred_at')
  ).map((row) => ({ type: row.type as string, daysLeft: row.data.daysLeft as number | undefined, row }));

const ORDER = `query ($id: ID!) { financeOrder(id: $id) { lockAt secureStatus status } }`;
const readOrder = async (id: string) => (await graphql(PARTNER, ORDER, { id })).financeOrder;

async function lookupStatus(imei: string): Promise<string> {
  const response = await fixture.service.request(
    `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${imei}`,
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { device: { secureStatus: string } }).device.secureStatus;
}

const notify = demoVendorNotifier(() => fixture.service);

describe('an in-store payment and a vendor payment on twin orders, the clock 10 days ahead', () => {
  let ids: string[];
  let newLockAt: number;

  it('make the same instants: due_at in the partner time, fire_at due_at minus its clock offset', async () => {
    const real = Math.floor(Date.now() / 1000);
    // Sold 40 days ago: paid through +60 days, 20 days ahead of real time.
    ids = await addTwinOrders(db(), 9100001, 3, new Date((real - 40 * DAY) * 1000));
    await moveClockTo(real + 10 * DAY);
    const offset = await offsetMs();
    expect(offset).toBeGreaterThan(9 * DAY * 1000);

    const realBefore = Date.now();
    const rest = await fixture.service.request(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}` +
        `&financeOrderId=${ids[0]}&amount=18.00&currency=USD`,
    );
    expect(rest.status).toBe(200);
    const graph = await graphql(
      RETAIL,
      `mutation ($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { nextPayment } }`,
      {
        input: {
          merchantId: DEMO_MERCHANT_ID,
          salesClerkId: DEMO_CLERK_ID,
          financeOrderId: ids[1],
          amount: '18.00',
          currency: 'USD',
        },
      },
    );
    const vendor = await notify({ amount: '18.00', reference: 'TWIN-VENDOR-1', deviceTag: twinDevice(ids[2]!).tag });
    expect(vendor.status, JSON.stringify(vendor.body)).toBe(200);
    const realAfter = Date.now();

    newLockAt = graph.recordInStorePayment.nextPayment;
    expect(newLockAt).toBe(real - 40 * DAY + 90 * DAY);
    const rows = await Promise.all(ids.map(pendingInstants));
    for (const instants of rows) {
      expect(instants.map((row) => [row.kind, row.days_left, row.lock_at.getTime(), row.due_at.getTime()])).toEqual([
        ['reminder', 3, newLockAt * 1000, (newLockAt - 3 * DAY) * 1000],
        ['reminder', 1, newLockAt * 1000, (newLockAt - DAY) * 1000],
        ['lock', null, newLockAt * 1000, newLockAt * 1000],
      ]);
      // fire_at is due_at in real time: the offset taken a moment after the partner's time, so at
      // most the payment's own duration late, never early.
      for (const row of instants) {
        const fire = row.fire_at.getTime();
        expect(fire).toBeGreaterThanOrEqual(row.due_at.getTime() - offset);
        expect(fire).toBeLessThanOrEqual(row.due_at.getTime() - offset + (realAfter - realBefore));
      }
    }
  });

  it('moving the clock to each instant writes both reminders and the lock of every twin, whatever the claim lags', async () => {
    // The 3-day reminder claimed 60 s after its instant, the 1-day one 70 s after (the case).
    await moveClockTo(newLockAt - 3 * DAY + 60);
    await fireDue();
    await moveClockTo(newLockAt - DAY + 70);
    await fireDue();
    for (const id of ids) expect((await readOrder(id)).secureStatus).toBe('ACTIVE_AND_SECURED');
    await moveClockTo(newLockAt + 1);
    await fireDue();
    for (const id of ids) {
      expect((await deviceEvents(id)).map((event) => [event.type, event.daysLeft])).toEqual([
        ['device.lock_upcoming', 3],
        ['device.lock_upcoming', 1],
        ['device.locked', undefined],
      ]);
      expect((await readOrder(id)).secureStatus).toBe('LOCKED');
    }
    const locked = (await deviceEvents(ids[0]!)).at(-1)!;
    expect(locked.row.occurred_at.getTime()).toBe(newLockAt * 1000);
  });

  it('a reset that puts a locked order’s lockAt ahead of real time unlocks it: device.unlocked, and every reader says active', async () => {
    await resetClock();
    for (const id of ids) {
      expect((await deviceEvents(id)).map((event) => event.type)).toEqual([
        'device.lock_upcoming',
        'device.lock_upcoming',
        'device.locked',
        'device.unlocked',
      ]);
      expect((await readOrder(id)).secureStatus).toBe('ACTIVE_AND_SECURED');
      expect(await lookupStatus(twinDevice(id).imei)).toBe('Device Active And Secured');
      // Its lock stands ahead again, pending, in real time (the reminders still ahead with it).
      expect((await pendingInstants(id)).map((row) => [row.kind, row.due_at.getTime(), row.fire_at.getTime()])).toEqual(
        [
          ['reminder', (newLockAt - 3 * DAY) * 1000, (newLockAt - 3 * DAY) * 1000],
          ['reminder', (newLockAt - DAY) * 1000, (newLockAt - DAY) * 1000],
          ['lock', newLockAt * 1000, newLockAt * 1000],
        ],
      );
    }
  });
});

describe("a partner's grace raised over a locked order", () => {
  const SETTINGS = `mutation ($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id } }`;
  const graceOf = (hours: number) => graphql(OPERATOR, SETTINGS, { input: { partnerId: DEMO, lockGraceHours: hours } });
  let id: string;
  let lockAt: number;

  it('unlocks it: the lock lifted, device.unlocked, ACTIVE on the graph and lookup-customer, its new lock pending', async () => {
    const real = Math.floor(Date.now() / 1000);
    // Sold 61 days ago: paid through yesterday, so its lock is due.
    id = (await addTwinOrders(db(), 9200001, 1, new Date((real - 61 * DAY) * 1000)))[0]!;
    lockAt = real - DAY;
    // Its instants as a data set loaded with its history makes them: the lock past, recorded fired.
    await scheduleLoadedOrders(db(), DEMO, DEFAULT_PARTNER_SETTINGS, new Date(), [id]);
    expect((await readOrder(id)).secureStatus).toBe('LOCKED');
    const locks = () =>
      db()('lock_timeline')
        .where({ partner_id: DEMO, finance_order_id: id, kind: 'lock' })
        .orderBy('id')
        .pluck('state');
    expect(await locks()).toEqual(['fired']);

    // 48 hours of grace: lockAt a day ahead.
    await graceOf(48);
    expect(await readOrder(id)).toMatchObject({ lockAt: lockAt + 2 * DAY, secureStatus: 'ACTIVE_AND_SECURED' });
    expect(await lookupStatus(twinDevice(id).imei)).toBe('Device Active And Secured');
    const events = await deviceEvents(id);
    expect(events.map((event) => event.type)).toEqual(['device.unlocked']);
    expect(events[0]!.row.data.financeOrder).toMatchObject({
      id,
      lockAt: lockAt + 2 * DAY,
      remainingBalance: '198.00',
    });
    expect(await locks()).toEqual(['lifted', 'pending']);
  });

  it('lowering it again puts the lock in the past: due at once, one device.locked', async () => {
    await graceOf(0);
    await fireDue();
    expect((await deviceEvents(id)).map((event) => event.type)).toEqual(['device.unlocked', 'device.locked']);
    expect((await readOrder(id)).secureStatus).toBe('LOCKED');
  });

  it('a raise that leaves lockAt past writes nothing and keeps it locked', async () => {
    await graceOf(12);
    expect((await readOrder(id)).secureStatus).toBe('LOCKED');
    expect((await deviceEvents(id)).map((event) => event.type)).toEqual(['device.unlocked', 'device.locked']);
  });
});
