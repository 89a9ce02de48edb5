// The day rule in SQL (paidThroughSql.ts) and in TypeScript (terms.ts, repayment.ts) agree, and so do
// the places that read and write it: the status filter (orderStatusSql), the lock timeline's instants
// (scheduleLoadedOrders) and the in-store read's repayment options (totalBuyingDaysSql), for any order,
// at a moment a millisecond either side of its lockAt or anywhere around it. Run on the database itself.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { sql } from '../../db/sqlFragment.js';
import { DEFAULT_PARTNER_SETTINGS } from '../partners/settings.js';
import { scheduleLoadedOrders } from '../timeline/schedule.js';
import { dayRuleColumnsOf, paidThroughSql, totalBuyingDaysSql } from './paidThroughSql.js';
import { orderStatusSql } from './queries.js';
import { cheapestAmountFor } from './repayment.js';
import { lockAtOf, type OrderTerms, orderStatusOf, standingOf } from './terms.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const DAY_MS = 86_400_000;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
});
afterAll(async () => database?.destroy());

/** An order's terms, its total paid anywhere from nothing to the repayable total. */
const order = fc
  .record({
    orderedAt: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
    monthly: fc.integer({ min: 1, max: 10_000_000 }),
    months: fc.integer({ min: 1, max: 36 }),
    paidShare: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(
    ({ orderedAt, monthly, months, paidShare }): OrderTerms => ({
      currency: 'USD',
      monthly_cost_minor: String(monthly),
      weekly_cost_minor: String(Math.ceil(monthly / 4)),
      months,
      total_paid_minor: String(Math.floor(monthly * months * paidShare)),
      ordered_at: new Date(orderedAt),
    }),
  );

/** A moment near the order's lockAt under `graceHours`: on it, a millisecond either side, or days away. */
const offsetFromLockAt = fc.oneof(fc.constantFrom(-1, 0, 1), fc.integer({ min: -90 * DAY_MS, max: 90 * DAY_MS }));

describe('the day rule in SQL', () => {
  it('says what terms.ts says: paid-through, the status at a moment, and the total that buys some days more', async () => {
    await fc.assert(
      fc.asyncProperty(
        order,
        fc.integer({ min: 0, max: 72 }),
        offsetFromLockAt,
        fc.integer({ min: 1, max: 400 }),
        async (terms, graceHours, offset, days) => {
          const settings = { lockGraceHours: graceHours };
          const standing = standingOf(terms, NOW, settings);
          const now = new Date(lockAtOf(standing.paidThrough, settings).getTime() + offset);
          const o = dayRuleColumnsOf('o');
          const read = sql`select ${paidThroughSql(o)} as paid_through,
              ${orderStatusSql('o', 'ACTIVE', { partnerId: '1', now, graceHours })} as active,
              ${totalBuyingDaysSql(o, sql`${days}::int`)} as total_buying
            from (select ${terms.ordered_at}::timestamptz as ordered_at, ${terms.total_paid_minor}::int8 as total_paid_minor,
                         ${terms.monthly_cost_minor}::int8 as monthly_cost_minor, ${terms.months}::int as months,
                         null::timestamptz as closed_at) as o`;
          const [row] = (await database.db.raw(read.sql, read.bindings)).rows;
          expect(new Date(row.paid_through)).toEqual(standing.paidThrough);
          expect(row.active).toBe(orderStatusOf(terms, now, settings) === 'ACTIVE');
          expect(BigInt(row.total_buying) - BigInt(terms.total_paid_minor)).toBe(cheapestAmountFor(terms, days));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("writes each order's lock at the lockAt terms.ts gives it (the lock timeline's instants)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 72 }),
        async (shares, graceHours) => {
          const trx = await database.db.transaction();
          try {
            // The demo partner's orders, each with a share of its repayable total paid.
            const rows = await trx('finance_orders').where({ partner_id: '1' }).orderBy('id');
            const orders = rows.map((row, i) => ({
              ...row,
              total_paid_minor: String(
                Math.floor(Number(row.monthly_cost_minor) * row.months * shares[i % shares.length]!),
              ),
            }));
            for (const { id, total_paid_minor } of orders)
              await trx('finance_orders').where({ partner_id: '1', id }).update({ total_paid_minor });
            await trx('lock_timeline').where({ partner_id: '1' }).delete();
            const settings = { ...DEFAULT_PARTNER_SETTINGS, lockGraceHours: graceHours };
            await scheduleLoadedOrders(trx, '1', settings, NOW);
            const locks = await trx('lock_timeline').where({ partner_id: '1', kind: 'lock' });
            const lockAtOfOrder = new Map(locks.map((lock) => [String(lock.finance_order_id), lock.lock_at.getTime()]));
            expect(orders.length).toBeGreaterThan(0);
            for (const terms of orders) {
              const { lockAt } = standingOf(terms, NOW, settings);
              expect(lockAtOfOrder.get(String(terms.id))).toBe(lockAt?.getTime());
            }
          } finally {
            await trx.rollback();
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
