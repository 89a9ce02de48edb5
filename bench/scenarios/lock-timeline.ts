// Phase lockTimeline: 10,000 orders of one partner reach lockAt at the same instant, and the lock
// scheduler (src/modules/timeline/scheduler.ts, the service's own, here in the bench's process on the
// bench's database) writes their device.locked events. The orders are added beside the bench data set
// (ids far above it), sold at one moment, their instants made as the service makes them; their
// reminders are recorded sent (the days before), and their locks are set due at one instant just
// ahead. Measured: from that instant to the last event committed, claiming as the loop does (a batch
// at a time, batch after batch), with one scheduler and with two on separate pools (two instances).
// Every lock must be written exactly once. The orders stay (the database is dropped after the run):
// the phase runs after the ledger check, whose payments they would not match.
// bench/lock-timeline.ts runs this phase alone (npm run bench:locks).
import type { Db } from '../../src/db/knex.js';
import { DEFAULT_PARTNER_SETTINGS } from '../../src/modules/partners/settings.js';
import { scheduleLoadedOrders } from '../../src/modules/timeline/schedule.js';
import { DEFAULT_LOCK_BATCH, fireAllDueInstants } from '../../src/modules/timeline/scheduler.js';
import { log, round } from '../log.js';

/** How the schedulers fared with one instant of many locks. */
export interface LockRun {
  schedulers: number;
  /** From the instant to the last event committed, the whole drain. */
  seconds: number;
  eventsPerSecond: number;
  /** device.locked events written for the orders: must equal the orders. */
  lockedEvents: number;
}

export interface LockTimelineFigures {
  orders: number;
  batchSize: number;
  runs: LockRun[];
}

const FIRST_ID = 900_000_001;
const PARTNER = '1';

/** The orders, their customers and devices, sold at `soldAt` on the partner's first store and clerk. */
async function addOrders(db: Db, orders: number, soldAt: Date): Promise<string[]> {
  const merchant = await db('merchants').where({ partner_id: PARTNER }).orderBy('id').first('id');
  const clerk = await db('clerks').where({ partner_id: PARTNER }).orderBy('id').first('id');
  const series = `generate_series(${FIRST_ID}, ${FIRST_ID + orders - 1}) as g`;
  await db.raw(
    `insert into customers (partner_id, id, name, phone_number) select ${PARTNER}, g, 'Lock ' || g, '999' || g from ${series}`,
  );
  await db.raw(`insert into devices (partner_id, id, customer_id, model_id, tag, imei)
    select ${PARTNER}, g, g, 1, 'LOCK' || g, (500000000000000 + g)::text from ${series}`);
  await db.raw(
    `insert into finance_orders (partner_id, id, customer_id, device_id, merchant_id, clerk_id, currency, purchase_minor,
       down_payment_minor, price_pre_tax_minor, monthly_cost_minor, weekly_cost_minor, months, total_paid_minor, ordered_at)
     select ${PARTNER}, g, g, g, ?, ?, 'USD', 30000, 10000, 30000, 1800, 400, 12, 1800, ?::timestamptz from ${series}`,
    [merchant.id, clerk.id, soldAt],
  );
  return Array.from({ length: orders }, (_, index) => String(FIRST_ID + index));
}

/** The orders' locks due at `instant` (their reminders recorded sent); answers how many locks. */
async function locksDueAt(db: Db, ids: readonly string[], instant: Date): Promise<number> {
  await db('lock_timeline')
    .where({ partner_id: PARTNER, kind: 'reminder' })
    .whereIn('finance_order_id', ids)
    .update({ state: 'fired', fired_at: db.fn.now() });
  await db('lock_timeline')
    .where({ partner_id: PARTNER, kind: 'lock' })
    .whereIn('finance_order_id', ids)
    .update({ state: 'pending', fired_at: null, fire_at: instant });
  const [row] = await db('lock_timeline')
    .where({ partner_id: PARTNER, kind: 'lock', state: 'pending' })
    .whereIn('finance_order_id', ids)
    .count({ n: '*' });
  return Number(row?.n ?? 0);
}

const lockedEventsOf = async (db: Db) =>
  Number(
    (
      await db('events')
        .where({ partner_id: PARTNER, type: 'device.locked' })
        .whereRaw(`(data->'financeOrder'->>'id')::int8 >= ?`, [FIRST_ID])
        .count({ n: '*' })
    )[0]!.n,
  );

/** One instant of locks drained by `pools.length` schedulers, each on its own pool. */
async function drain(pools: readonly Db[], ids: readonly string[]): Promise<LockRun> {
  const db = pools[0]!;
  await db('events')
    .where({ partner_id: PARTNER, type: 'device.locked' })
    .whereRaw(`(data->'financeOrder'->>'id')::int8 >= ?`, [FIRST_ID])
    .delete();
  const instant = new Date(Date.now() + 500);
  const due = await locksDueAt(db, ids, instant);
  if (due !== ids.length) throw new Error(`lock timeline: ${due} locks due, not ${ids.length}`);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, instant.getTime() - Date.now())));
  const started = process.hrtime.bigint();
  await Promise.all(pools.map((pool) => fireAllDueInstants(pool)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const lockedEvents = await lockedEventsOf(db);
  return { schedulers: pools.length, seconds, eventsPerSecond: lockedEvents / seconds, lockedEvents };
}

/** Adds the orders, and drains their locks with one scheduler, then with two. */
export async function measureLockTimeline(db: Db, secondPool: Db, orders = 10_000): Promise<LockTimelineFigures> {
  const ids = await addOrders(db, orders, new Date(Date.now() - 3_600_000));
  await scheduleLoadedOrders(db, PARTNER, DEFAULT_PARTNER_SETTINGS, new Date(), ids);
  const runs = [await drain([db], ids), await drain([db, secondPool], ids)];
  for (const run of runs) {
    log(
      `lock timeline: ${orders} locks at one instant, ${run.schedulers} scheduler(s): ${round(run.seconds, 2)} s, ` +
        `${Math.round(run.eventsPerSecond)} events/s, ${run.lockedEvents} device.locked written`,
    );
    if (run.lockedEvents !== orders) throw new Error(`lock timeline: ${run.lockedEvents} locks written, not ${orders}`);
  }
  return { orders, batchSize: DEFAULT_LOCK_BATCH, runs };
}
