// The lock timeline (docs/decisions.md 18) on the demo data: reminders and the lock written once, at
// their instants, by the scheduler's claim; a payment's unlock only after a lock, its release with the
// payoff; an order paid meanwhile neither locked after the fact nor unlocked; a claim that dies loses
// nothing; a device event delivered to a STANDARD webhook, checked by the standardwebhooks package.
// Time is moved as the sandbox clock moves it (shiftPartnerTimeline): the partner's pending instants
// come sooner in real time, and the scheduler claims what is due now. No sleep, no timed assertion.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import type { JobLoop } from '../../src/jobs/loop.js';
import { startWebhookJobs } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { recordInStorePayment } from '../../src/modules/payments/inStore.js';
import { acceptNotification } from '../../src/modules/payments/notification.js';
import { claimDueInstants } from '../../src/modules/timeline/claim.js';
import { shiftPartnerTimeline } from '../../src/modules/timeline/schedule.js';
import { fireAllDueInstants } from '../../src/modules/timeline/scheduler.js';
import { useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { TEST_UNLOCK_KEYS } from '../support/unlockKeys.js';

const fixture = useSeededService();
const DAY_MS = 86_400_000;
const DEMO = '1';
const OTHER = '2';
const OTHER_ORDER = '5000002';

let receiver: Receiver;
let worker: JobLoop | undefined;
/** Fires what is due now, as the worker's lock instants task does, batch after batch. */
const fireDue = () => fireAllDueInstants(fixture.database.db);
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

/** Each partner's clock lead over real time, as the sandbox clock keeps it. */
const offsets = new Map<string, number>();
const partnerNow = (partnerId: string) => new Date(Date.now() + (offsets.get(partnerId) ?? 0));
/** Moves a partner's clock to `at`, as setSandboxClock does: its pending instants by the same delta. */
async function moveClockTo(partnerId: string, at: Date): Promise<void> {
  const delta = at.getTime() - partnerNow(partnerId).getTime();
  await fixture.database.db.transaction((trx) => shiftPartnerTimeline(trx, partnerId, delta, at));
  offsets.set(partnerId, (offsets.get(partnerId) ?? 0) + delta);
}

/** The order's events in log order (device events by their order, payment events by theirs). */
async function eventsOf(partnerId: string, orderId: string, since = '0') {
  const rows = await fixture.database
    .db('events')
    .where({ partner_id: partnerId })
    .where('sequence', '>', since)
    .whereRaw(
      `(data->'financeOrder'->>'id' = ? or data->'payment'->>'financeOrderId' = ? or data->'financeOrder'->>'id' = ?
        or (type = 'finance_order.paid_off' and data->>'id' = ?))`,
      [orderId, orderId, orderId, orderId],
    )
    .orderBy('sequence')
    .select('type', 'data', 'sequence', 'occurred_at');
  return rows as Array<{ type: string; data: any; sequence: string; occurred_at: Date }>;
}
const deviceEventsOf = async (partnerId: string, orderId: string, since = '0') =>
  (await eventsOf(partnerId, orderId, since)).filter((event) => event.type.startsWith('device.'));
const lastSequence = async () =>
  String((await fixture.database.db('events').max({ sequence: 'sequence' }).first())?.sequence ?? '0');

const instantsOf = (partnerId: string, orderId: string) =>
  fixture.database
    .db('lock_timeline')
    .where({ partner_id: partnerId, finance_order_id: orderId })
    .orderBy('id')
    .select('kind', 'days_left', 'lock_at', 'due_at', 'state');

const payInStore = (amount: string, now: Date) =>
  recordInStorePayment(
    fixture.database.db,
    {
      partnerId: DEMO,
      merchantId: DEMO_MERCHANT_ID,
      clerkId: DEMO_CLERK_ID,
      financeOrderId: DEMO_ORDER_ID,
      amount,
      currency: 'USD',
      idempotencyKey: null,
    },
    now,
    TEST_UNLOCK_KEYS,
  );

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

describe('the lock timeline of demo order 4000004', () => {
  let lockAt: Date;
  let endpointSecret: string;

  it('gave the seeded order its lock and its reminders, pending', async () => {
    const instants = await instantsOf(DEMO, DEMO_ORDER_ID);
    expect(instants.map((row) => [row.kind, row.days_left, row.state])).toEqual([
      ['reminder', 3, 'pending'],
      ['reminder', 1, 'pending'],
      ['lock', null, 'pending'],
    ]);
    lockAt = instants[2]!.lock_at;
    expect(instants[0]!.due_at.getTime()).toBe(lockAt.getTime() - 3 * DAY_MS);
    // A STANDARD endpoint for the four device events (a real local receiver).
    const created = await fixture.service.graphql(
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }`,
      { 'x-api-key': 'demo-partner-key' },
      {
        input: {
          url: receiver.url('/devices'),
          eventTypes: ['DEVICE_LOCK_UPCOMING', 'DEVICE_LOCKED', 'DEVICE_UNLOCKED', 'DEVICE_RELEASED'],
        },
      },
    );
    endpointSecret = created.body.data.createWebhookEndpoint.secret;
    expect(endpointSecret).toMatch(/^whsec_/);
  });

  it('writes each reminder once, at its instant, and nothing before it', async () => {
    await moveClockTo(DEMO, new Date(lockAt.getTime() - 3 * DAY_MS - 60_000));
    await fireDue();
    expect(await deviceEventsOf(DEMO, DEMO_ORDER_ID)).toEqual([]);

    await moveClockTo(DEMO, new Date(lockAt.getTime() - 3 * DAY_MS));
    await fireDue();
    await fireDue();
    const [upcoming, ...more] = await deviceEventsOf(DEMO, DEMO_ORDER_ID);
    expect(more).toEqual([]);
    expect(upcoming!.type).toBe('device.lock_upcoming');
    expect(upcoming!.occurred_at.getTime()).toBe(lockAt.getTime() - 3 * DAY_MS);
    expect(upcoming!.data).toEqual({
      device: { tag: DEMO_DEVICE_TAG, imei: DEMO_DEVICE_IMEI },
      financeOrder: { id: DEMO_ORDER_ID, remainingBalance: '198.00', currency: 'USD', lockAt: seconds(lockAt) },
      daysLeft: 3,
      lockAt: seconds(lockAt),
      // 0.60 more moves lockAt by a day: floor((18.00 + 0.60) × 30 / 18.00) = 31 days.
      minimumPaymentAmount: '0.60',
    });

    await moveClockTo(DEMO, new Date(lockAt.getTime() - DAY_MS));
    await fireDue();
    expect((await deviceEventsOf(DEMO, DEMO_ORDER_ID)).map((event) => [event.type, event.data.daysLeft])).toEqual([
      ['device.lock_upcoming', 3],
      ['device.lock_upcoming', 1],
    ]);
  });

  it('locks once at lockAt, and delivers it to the STANDARD endpoint, verified by standardwebhooks', async () => {
    await moveClockTo(DEMO, new Date(lockAt.getTime() - 60_000));
    await fireDue();
    expect(await deviceEventsOf(DEMO, DEMO_ORDER_ID)).toHaveLength(2);
    await moveClockTo(DEMO, lockAt);
    await fireDue();
    await fireDue();
    const events = await deviceEventsOf(DEMO, DEMO_ORDER_ID);
    expect(events.map((event) => event.type)).toEqual([
      'device.lock_upcoming',
      'device.lock_upcoming',
      'device.locked',
    ]);
    expect(events[2]!.data).toMatchObject({ reason: 'PAYMENT_OVERDUE', financeOrder: { lockAt: seconds(lockAt) } });

    worker = startWebhookJobs({
      db: fixture.database.db,
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      settings: { scheduleMs: [30], jitter: 0, pollMs: 20, timeoutMs: 2000 },
    });
    const verifier = new Webhook(endpointSecret);
    const delivered = () =>
      receiver.received
        .filter((request) => request.path === '/devices' && request.answer === 'ok')
        .map((request) => verifier.verify(request.body, request.headers) as { type: string; data: any });
    await vi.waitFor(() => expect(delivered().map((body) => body.type)).toContain('device.locked'), {
      timeout: 120_000,
      interval: 20,
    });
    const locked = delivered().find((body) => body.type === 'device.locked')!;
    expect(locked.data).toEqual(events[2]!.data);
  });

  it('unlocks with the payment that moves lockAt ahead, after its own events, and makes the new instants', async () => {
    const since = await lastSequence();
    const paid = await payInStore('18.00', new Date(lockAt.getTime() + 3_600_000));
    expect(paid.events!.map((event) => event.type)).toEqual([
      'payment.recorded',
      'transaction.created',
      'transaction.created',
      'device.unlocked',
    ]);
    const events = await eventsOf(DEMO, DEMO_ORDER_ID, since);
    expect(events.map((event) => event.type)).toEqual(paid.events!.map((event) => event.type));
    const newLockAt = new Date(lockAt.getTime() + 30 * DAY_MS);
    expect(events[3]!.data).toEqual({
      device: { tag: DEMO_DEVICE_TAG, imei: DEMO_DEVICE_IMEI },
      financeOrder: { id: DEMO_ORDER_ID, remainingBalance: '180.00', currency: 'USD', lockAt: seconds(newLockAt) },
    });
    const instants = await instantsOf(DEMO, DEMO_ORDER_ID);
    expect(instants.map((row) => [row.kind, row.days_left, row.state])).toEqual([
      ['reminder', 3, 'fired'],
      ['reminder', 1, 'fired'],
      ['lock', null, 'lifted'],
      ['reminder', 3, 'pending'],
      ['reminder', 1, 'pending'],
      ['lock', null, 'pending'],
    ]);
    expect(instants[5]!.lock_at.getTime()).toBe(newLockAt.getTime());
  });

  it("a vendor's payment moves the pending instants, writing no unlock (the device was not locked)", async () => {
    const since = await lastSequence();
    const vendor = await fixture.database.db('payment_vendors').where({ name: 'demo-vendor' }).first();
    const receipt = await acceptNotification(
      fixture.database.db,
      vendor,
      {
        paymentVendor: 'demo-vendor',
        amount: '18.00',
        currency: 'USD',
        reference: 'timeline-1',
        deviceTag: DEMO_DEVICE_TAG,
      },
      { nowFor: () => new Date(lockAt.getTime() + 2 * 3_600_000) },
      TEST_UNLOCK_KEYS,
    );
    expect(receipt.replayed).toBe(false);
    expect((await eventsOf(DEMO, DEMO_ORDER_ID, since)).map((event) => event.type)).toEqual(['payment.recorded']);
    const pending = (await instantsOf(DEMO, DEMO_ORDER_ID)).filter((row) => row.state === 'pending');
    expect(pending.map((row) => [row.kind, row.lock_at.getTime()])).toEqual([
      ['reminder', lockAt.getTime() + 60 * DAY_MS],
      ['reminder', lockAt.getTime() + 60 * DAY_MS],
      ['lock', lockAt.getTime() + 60 * DAY_MS],
    ]);
  });

  it('pays off, completing: the release waits for the window as an instant, then writes device.released once', async () => {
    const since = await lastSequence();
    const paidAt = new Date(lockAt.getTime() + 3 * 3_600_000);
    const paid = await payInStore('162.00', paidAt);
    expect(paid.receipt.fullyPaid).toBe(true);
    const events = await eventsOf(DEMO, DEMO_ORDER_ID, since);
    // Nothing released yet: the payoff can be reversed for 72 hours (decisions.md 44).
    expect(events.map((event) => event.type)).toEqual([
      'payment.recorded',
      'transaction.created',
      'transaction.created',
      'finance_order.paid_off',
    ]);
    const releaseAt = paidAt.getTime() + 72 * 3_600_000;
    expect(
      (await instantsOf(DEMO, DEMO_ORDER_ID))
        .filter((row) => row.state === 'pending')
        .map((row) => [row.kind, row.due_at.getTime()]),
    ).toEqual([['release', releaseAt]]);
    // Far ahead, the release is written once, at releaseAt, and nothing more of this order.
    await moveClockTo(DEMO, new Date(lockAt.getTime() + 400 * DAY_MS));
    await fireDue();
    await fireDue();
    const released = await deviceEventsOf(DEMO, DEMO_ORDER_ID, since);
    expect(released.map((event) => event.type)).toEqual(['device.released']);
    expect(released[0]!.data.financeOrder).toEqual({
      id: DEMO_ORDER_ID,
      remainingBalance: '0.00',
      currency: 'USD',
      lockAt: null,
    });
    expect((await instantsOf(DEMO, DEMO_ORDER_ID)).filter((row) => row.state === 'pending')).toEqual([]);
    await vi.waitFor(
      () =>
        expect(
          [
            // Each event once by its webhook-id: a post a loaded machine answers after the worker's
            // timeout is posted again (deliveries are at least once; the receiver dedupes by the id).
            ...new Map(
              receiver.received
                .filter((request) => request.path === '/devices' && request.answer === 'ok')
                .map((request) => [request.headers['webhook-id'], (JSON.parse(request.body) as { type: string }).type]),
            ).values(),
          ]
            // Delivered in parallel, so in any order (their order is the log's, above).
            .sort(),
        ).toEqual([
          'device.lock_upcoming',
          'device.lock_upcoming',
          'device.locked',
          'device.released',
          'device.unlocked',
        ]),
      { timeout: 120_000, interval: 20 },
    );
  });
});

describe('an order paid meanwhile, and a claim that dies', () => {
  it('a claim rolled back loses nothing: the next claim writes the event, once', async () => {
    const [lock] = await fixture.database
      .db('lock_timeline')
      .where({ partner_id: OTHER, finance_order_id: OTHER_ORDER, kind: 'reminder', days_left: 3 })
      .select('due_at');
    await moveClockTo(OTHER, lock.due_at);
    await expect(
      fixture.database.db.transaction(async (trx) => {
        expect((await claimDueInstants(trx, OTHER, new Date(), 10)).map((row) => row.order.id)).toContain(OTHER_ORDER);
        throw new Error('the instance died');
      }),
    ).rejects.toThrow('the instance died');
    expect(await deviceEventsOf(OTHER, OTHER_ORDER)).toEqual([]);
    await fireDue();
    await fireDue();
    expect((await deviceEventsOf(OTHER, OTHER_ORDER)).map((event) => event.type)).toEqual(['device.lock_upcoming']);
  });

  it('an order paid after its lockAt, before the scheduler came, is neither locked after the fact nor unlocked', async () => {
    const [lock] = await fixture.database
      .db('lock_timeline')
      .where({ partner_id: OTHER, finance_order_id: OTHER_ORDER, kind: 'lock', state: 'pending' })
      .select('lock_at');
    // The scheduler is down from here: the clock passes lockAt, and the customer pays.
    await moveClockTo(OTHER, new Date(lock.lock_at.getTime() + 3_600_000));
    const paid = await recordInStorePayment(
      fixture.database.db,
      {
        partnerId: OTHER,
        merchantId: '2000001',
        clerkId: '6001',
        financeOrderId: OTHER_ORDER,
        amount: '16.00',
        currency: 'MXN',
        idempotencyKey: null,
      },
      partnerNow(OTHER),
      TEST_UNLOCK_KEYS,
    );
    expect(paid.events!.map((event) => event.type)).not.toContain('device.unlocked');
    await fireDue();
    expect((await deviceEventsOf(OTHER, OTHER_ORDER)).map((event) => event.type)).toEqual(['device.lock_upcoming']);
    const instants = await instantsOf(OTHER, OTHER_ORDER);
    expect(instants.filter((row) => row.kind === 'lock').map((row) => row.state)).toEqual(['cancelled', 'pending']);
  });

  it('a payment too small to end a lock keeps the device locked, not locked twice; the one that ends it unlocks', async () => {
    // Demo Retail back on real time (as resetSandboxClock puts it). Demo order 4000012 was overdue when
    // the demo was loaded: its lock recorded fired (no event).
    await moveClockTo(DEMO, new Date());
    const pay4000012 = (amount: string) =>
      recordInStorePayment(
        fixture.database.db,
        {
          partnerId: DEMO,
          merchantId: '1000201',
          clerkId: '5320',
          financeOrderId: '4000012',
          amount,
          currency: 'USD',
          idempotencyKey: null,
        },
        partnerNow(DEMO),
        TEST_UNLOCK_KEYS,
      );
    // 0.67 buys a day (20.00 a month): lockAt moves, still far in the past.
    const small = await pay4000012('0.67');
    expect(small.events!.map((event) => event.type)).toEqual([
      'payment.recorded',
      'transaction.created',
      'transaction.created',
    ]);
    const locks = async () =>
      (await instantsOf(DEMO, '4000012')).filter((row) => row.kind === 'lock').map((row) => row.state);
    expect(await locks()).toEqual(['lifted', 'fired']);
    await fireDue();
    expect(await deviceEventsOf(DEMO, '4000012')).toEqual([]);
    // Enough to put lockAt ahead of the partner's time: the device unlocks, once.
    const ahead = await pay4000012('200.00');
    expect(ahead.events!.map((event) => event.type).at(-1)).toBe('device.unlocked');
    expect(await locks()).toEqual(['lifted', 'lifted', 'pending']);
    expect((await deviceEventsOf(DEMO, '4000012')).map((event) => event.type)).toEqual(['device.unlocked']);
  });
});
