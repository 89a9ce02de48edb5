// The lock timeline's claim under many orders: after downtime the missed instants are caught up in
// their order (each order's lock once, its stale reminders skipped, an order paid meanwhile not
// locked); and two schedulers claiming at once (on Postgres, each on its own pool, as two instances
// would) write each event exactly once. Time moves as the sandbox clock moves it (shiftPartnerTimeline).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { listenToChannel } from '../../src/db/notifications.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { startJobLoop } from '../../src/jobs/loop.js';
import { lockInstantsTask, webhookTasks } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { EVENTS_CHANNEL } from '../../src/modules/events/publish.js';
import { DEFAULT_PARTNER_SETTINGS } from '../../src/modules/partners/settings.js';
import { recordInStorePayment } from '../../src/modules/payments/inStore.js';
import {
  LOCK_INSTANTS_DUE_PREFIX,
  reschedulePartner,
  scheduleLoadedOrders,
  shiftPartnerTimeline,
} from '../../src/modules/timeline/schedule.js';
import { fireAllDueInstants } from '../../src/modules/timeline/scheduler.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { TEST_UNLOCK_KEYS } from '../support/unlockKeys.js';

const DAY_MS = 86_400_000;
const DEMO = '1';
let database: TestDatabase;
let offsetMs = 0;
const partnerNow = () => new Date(Date.now() + offsetMs);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

/**
 * `count` unpaid orders of Demo Retail from id `first`, each with its customer and device, 18.00 of
 * 216.00 paid (lockAt 60 days after the sale), sold `hoursBefore` (SQL over the id, g) hours before now (real time); and
 * their instants, loaded as a data set on real clocks is (the clock moves later shift them as any).
 */
async function addOrders(first: number, count: number, hoursBefore: string): Promise<string[]> {
  const db = database.db;
  const series = `generate_series(${first}, ${first + count - 1}) as g`;
  await db.raw(
    `insert into customers (partner_id, id, name, phone_number) select 1, g, 'Timeline ' || g, '888' || g from ${series}`,
  );
  await db.raw(`insert into devices (partner_id, id, customer_id, model_id, tag, imei)
    select 1, g, g, 3, 'TL' || g, (300000000000000 + g)::text from ${series}`);
  await db.raw(
    `insert into finance_orders (partner_id, id, customer_id, device_id, merchant_id, clerk_id, currency, purchase_minor,
       down_payment_minor, price_pre_tax_minor, monthly_cost_minor, weekly_cost_minor, months, total_paid_minor, ordered_at)
     select 1, g, g, g, ${DEMO_MERCHANT_ID}, ${DEMO_CLERK_ID}, 'USD', 30000, 10000, 30000, 1800, 400, 12, 1800,
       ?::timestamptz - (${hoursBefore}) * interval '1 hour' from ${series}`,
    [new Date()],
  );
  const ids = Array.from({ length: count }, (_, index) => String(first + index));
  await scheduleLoadedOrders(db, DEMO, DEFAULT_PARTNER_SETTINGS, new Date(), ids);
  return ids;
}

async function moveClockBy(deltaMs: number): Promise<void> {
  await database.db.transaction((trx) =>
    shiftPartnerTimeline(trx, DEMO, deltaMs, new Date(Date.now() + offsetMs + deltaMs)),
  );
  offsetMs += deltaMs;
}

/** The device events of these orders, in log order. */
async function deviceEvents(ids: readonly string[]) {
  const rows = await database
    .db('events')
    .where({ partner_id: DEMO })
    .where('type', 'like', 'device.%')
    .whereRaw(`data->'financeOrder'->>'id' = any(?::text[])`, [[...ids]])
    .orderBy('sequence')
    .select('type', 'data');
  return rows.map((row) => ({
    type: row.type as string,
    order: row.data.financeOrder.id as string,
    lockAt: row.data.financeOrder.lockAt as number,
  }));
}

describe('catching up after downtime', () => {
  it('writes each missed lock once, in the order of the instants, skips stale reminders, and locks no order paid meanwhile', async () => {
    // 20 orders whose locks fall an hour apart, 60 days ahead (the first sold 1 hour ago, the last 20).
    const ids = await addOrders(8000001, 20, 'g - 8000000');
    // The service is down for 70 days: every instant of these orders passes unclaimed.
    await moveClockBy(70 * DAY_MS);
    // Meanwhile, order 8000005's customer pays a month, past its lockAt: its deadline is 30 days later.
    const paid = await recordInStorePayment(
      database.db,
      {
        partnerId: DEMO,
        merchantId: DEMO_MERCHANT_ID,
        clerkId: DEMO_CLERK_ID,
        financeOrderId: '8000005',
        amount: '18.00',
        currency: 'USD',
        idempotencyKey: null,
      },
      partnerNow(),
      TEST_UNLOCK_KEYS,
    );
    expect(paid.receipt.nextPayment! * 1000).toBeGreaterThan(partnerNow().getTime());
    await fireAllDueInstants(database.db);
    const events = await deviceEvents(ids);
    const expected = ids.filter((id) => id !== '8000005');
    // One lock per order, no reminder (each was overtaken by its lock), none for the order paid meanwhile.
    expect(events.map((event) => event.type)).toEqual(expected.map(() => 'device.locked'));
    // In the order of their instants: the last sold locks first.
    expect(events.map((event) => event.order)).toEqual([...expected].reverse());
    const lockTimes = events.map((event) => event.lockAt);
    expect(lockTimes).toEqual([...lockTimes].sort((a, b) => a - b));
    const states = await database.db('lock_timeline').whereIn('finance_order_id', expected).select('kind', 'state');
    expect(new Set(states.map((row) => `${row.kind}:${row.state}`))).toEqual(
      new Set(['reminder:skipped', 'lock:fired']),
    );
  });
});

describe('a claim whose moment was taken before the clock moved', () => {
  it('writes no reminder the move passed over: the lock, once due, is the one event', async () => {
    // A scheduler's moment, read before the order's sale and the move: its lock is not due then.
    const before = new Date(Date.now() - 1000);
    // Reminders before lockAt, 60 days after the sale; the clock moved past lockAt: all passed over.
    const ids = await addOrders(8300001, 1, '0');
    await moveClockBy(60 * DAY_MS);
    await fireAllDueInstants(database.db, { now: () => before });
    expect(await deviceEvents(ids)).toEqual([]);
    await fireAllDueInstants(database.db);
    expect((await deviceEvents(ids)).map((event) => event.type)).toEqual(['device.locked']);
  });
});

describe('two schedulers at once', () => {
  let second: Db;
  beforeAll(() => {
    // On Postgres the second scheduler has a pool of its own (another instance); PGlite has one connection.
    second = onPostgres ? createDb({ databaseUrl: database.url, dataDir: null, poolMax: 3 }) : database.db;
  });
  afterAll(async () => {
    if (second !== database.db) await second.destroy();
  });

  it('write each of 300 locks due at the same instant exactly once', async () => {
    // 300 orders sold at the same moment: their locks fall at the same instant.
    const ids = await addOrders(8100001, 300, '1');
    await moveClockBy(80 * DAY_MS);
    const first = () => fireAllDueInstants(database.db, { batchSize: 7 });
    const other = () => fireAllDueInstants(second, { batchSize: 7 });
    const [a, b] = await Promise.all([first(), other()]);
    // Each lock was claimed once between them; the move past lockAt skipped the two reminders of each.
    expect(a + b).toBeGreaterThanOrEqual(300);
    const skipped = await database
      .db('lock_timeline')
      .whereIn('finance_order_id', ids)
      .where({ kind: 'reminder', state: 'skipped' })
      .count({ n: '*' })
      .first();
    expect(Number(skipped?.n)).toBe(600);
    const events = await deviceEvents(ids);
    expect(events).toHaveLength(300);
    expect(new Set(events.map((event) => event.order))).toEqual(new Set(ids));
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(['device.locked']));
    const pending = await database
      .db('lock_timeline')
      .whereIn('finance_order_id', ids)
      .where({ state: 'pending' })
      .count({ n: '*' })
      .first();
    expect(Number(pending?.n)).toBe(0);
    // Claiming again finds nothing of theirs.
    await Promise.all([first(), other()]);
    expect(await deviceEvents(ids)).toHaveLength(300);
  });
});

describe('the lock instants task of the job loop', () => {
  it('claims on its own once started, and stops claiming once stopped', async () => {
    const ids = await addOrders(8200001, 2, '1');
    const scheduler = startJobLoop({
      db: database.db,
      logger: createLogger('silent'),
      tasks: [lockInstantsTask(database.db, { pollMs: 20 })],
    });
    await moveClockBy(90 * DAY_MS);
    await vi.waitFor(async () => expect(await deviceEvents(ids)).toHaveLength(2), { timeout: 10_000, interval: 20 });
    await scheduler.stop();
    const later = await addOrders(8200003, 1, '1');
    await moveClockBy(90 * DAY_MS);
    expect(await deviceEvents(later)).toEqual([]);
  });
});

describe('a sandbox clock moved forward', () => {
  // The lock instants task polls every second; a move forward also sends, at its commit, the message the
  // task wakes on (decisions.md 46), so what the move made due is claimed at once.
  it("sends the message the lock instants task wakes on when it commits, and the webhooks' fan-out does not", async () => {
    const heard: string[] = [];
    const listener = await listenToChannel(database.db, EVENTS_CHANNEL, {
      onPayload: (payload) => heard.push(payload),
      onLost: () => undefined,
    });
    try {
      await moveClockBy(DAY_MS);
      await vi.waitFor(() => expect(heard).toContain(`${LOCK_INSTANTS_DUE_PREFIX}${DEMO}`), { timeout: 10_000 });
    } finally {
      await listener.close();
    }
    const task = lockInstantsTask(database.db);
    expect(task.wakesOn?.(`${LOCK_INSTANTS_DUE_PREFIX}${DEMO}`)).toBe(true);
    expect(task.wakesOn?.(`${DEMO}:evt_01JQ0000000000000000000000`)).toBe(false);
    const fanOut = webhookTasks(
      { db: database.db, logger: createLogger('silent'), now: () => new Date(), production: false },
      () => undefined,
    ).find((each) => each.name === 'webhook fan-out');
    expect(fanOut?.wakesOn?.(`${LOCK_INSTANTS_DUE_PREFIX}${DEMO}`)).toBe(false);
  });
});

describe("a partner's settings changed", () => {
  it('cancel its pending instants and make those of the new policy; a locked device stays locked', async () => {
    const pendingOf = (partnerId: string, orderId: string) =>
      database
        .db('lock_timeline')
        .where({ partner_id: partnerId, finance_order_id: orderId, state: 'pending' })
        .orderBy('due_at')
        .select('kind', 'days_left', 'lock_at');
    const [before] = (await pendingOf('2', '5000002')).filter((row) => row.kind === 'lock');
    await database.db.transaction((trx) =>
      reschedulePartner(
        trx,
        '2',
        { ...DEFAULT_PARTNER_SETTINGS, lockGraceHours: 48, lockReminderDays: [2] },
        new Date(),
      ),
    );
    const after = await pendingOf('2', '5000002');
    const lockAt = before!.lock_at.getTime() + 48 * 3_600_000;
    expect(after.map((row) => [row.kind, row.days_left, row.lock_at.getTime()])).toEqual([
      ['reminder', 2, lockAt],
      ['lock', null, lockAt],
    ]);
    // Demo order 4000012 was locked when the demo was loaded: no new instant, its lock still fired.
    await database.db.transaction((trx) => reschedulePartner(trx, DEMO, DEFAULT_PARTNER_SETTINGS, partnerNow()));
    expect(await pendingOf(DEMO, '4000012')).toEqual([]);
    const locks = await database
      .db('lock_timeline')
      .where({ partner_id: DEMO, finance_order_id: '4000012' })
      .select('state');
    expect(locks.map((row) => row.state)).toEqual(['fired']);
  });
});
