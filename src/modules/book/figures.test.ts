// The book's SQL (figures.ts portfolioSums, ageing.ts) against a reference written the straight way in
// TypeScript (decisions.md 45): for random histories of sales, payments, reversals and closes, and a
// random moment, each order's paid amount is summed forwards from the ledger's rows up to asOf's
// second (where the SQL goes backwards from the running total), and its standing, schedule and lock
// come from terms.ts (standingOf, scheduleOf). Every sum of every store's row must be equal, the
// ageing's buckets must hold the orders the reference puts there, and the ageing's file every open
// order with its paid-through and days past due, whole or page by page.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { scheduleOf, standingOf } from '../financeOrders/terms.js';
import { type AgeingOrderRow, ageingOrdersPage, portfolioAgeing } from './ageing.js';
import { portfolioSums } from './figures.js';
import type { PortfolioSums } from './rows.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const BASE = Date.parse('2026-03-01T00:00:00Z');

let database: TestDatabase;
let modelId: string;
beforeAll(async () => {
  database = await createTestDatabase({ seed: false });
  const [family] = await database.db('device_families').insert({ name: 'Figures Phone' }).returning('id');
  const [model] = await database
    .db('device_models')
    .insert({ family_id: family.id, make_model: 'FIG F1', name: 'Figures One' })
    .returning('id');
  modelId = String(model.id);
});
afterAll(async () => database?.destroy());

/** One order's history: its terms, its sale, then steps a few days apart, each a payment or a reversal; maybe a close. */
interface OrderPlan {
  store: 0 | 1;
  monthly: number;
  months: number;
  soldAfterMs: number;
  steps: Array<{ gapMs: number; kind: 'pay' | 'reverse'; share: number }>;
  close: { gapMs: number; reason: 'WRITE_OFF' | 'DEVICE_RETURNED' } | null;
}

const orderPlan = fc.record({
  store: fc.constantFrom(0 as const, 1 as const),
  monthly: fc.constantFrom(1000, 1234, 333, 2999, 7),
  months: fc.constantFrom(1, 3, 6, 12),
  soldAfterMs: fc.integer({ min: 0, max: 200 * DAY }),
  steps: fc.array(
    fc.record({
      gapMs: fc.integer({ min: 1, max: 40 * DAY }),
      kind: fc.constantFrom('pay' as const, 'pay' as const, 'reverse' as const),
      share: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    { maxLength: 6 },
  ),
  close: fc.option(
    fc.record({
      gapMs: fc.integer({ min: 1, max: 60 * DAY }),
      reason: fc.constantFrom('WRITE_OFF' as const, 'DEVICE_RETURNED' as const),
    }),
  ),
});

interface Ledger {
  orderedAt: Date;
  monthly: number;
  months: number;
  store: number;
  payments: Array<{ at: Date; amount: number; reversedAt: Date | null }>;
  closedAt: Date | null;
  reason: 'WRITE_OFF' | 'DEVICE_RETURNED' | null;
  cleared: number;
}

/** The history a plan makes: no payment beyond the balance, a reversal of an unreversed payment, a close only of an order owing. */
function ledgerOf(plan: OrderPlan): Ledger {
  const repayable = plan.monthly * plan.months;
  let at = BASE + plan.soldAfterMs;
  const ledger: Ledger = {
    orderedAt: new Date(at),
    monthly: plan.monthly,
    months: plan.months,
    store: plan.store,
    payments: [],
    closedAt: null,
    reason: null,
    cleared: 0,
  };
  let total = 0;
  for (const step of plan.steps) {
    at += step.gapMs;
    const standing = ledger.payments.filter((p) => p.reversedAt === null);
    if (step.kind === 'reverse' && standing.length > 0) {
      const payment = standing[Math.floor(step.share * standing.length) % standing.length]!;
      payment.reversedAt = new Date(at);
      total -= payment.amount;
    } else if (step.kind === 'pay' && total < repayable) {
      const amount = 1 + Math.floor(step.share * (repayable - total - 1));
      ledger.payments.push({ at: new Date(at), amount, reversedAt: null });
      total += amount;
    }
  }
  if (plan.close && total < repayable) {
    ledger.closedAt = new Date(at + plan.close.gapMs);
    ledger.reason = plan.close.reason;
    ledger.cleared = repayable - total;
  }
  return ledger;
}

async function writePartner(ledgers: Ledger[]): Promise<{ partnerId: string; stores: string[]; orderIds: string[] }> {
  const db = database.db;
  const [partner] = await db('partners')
    .insert({ name: `Figures ${randomUUID()}`, commission_rate_bps: 0 })
    .returning('id');
  const partnerId = String(partner.id);
  const store = { partner_id: partnerId, street: '1 Main St', city: 'Denver', state: 'CO', country: 'US' };
  const stores = (
    await db('merchants')
      .insert([
        { ...store, name: 'One', phone_number: '1' },
        { ...store, name: 'Two', phone_number: '2' },
      ])
      .returning('id')
  ).map((row) => String(row.id));
  const [clerk] = await db('clerks')
    .insert({
      partner_id: partnerId,
      person_uuid: randomUUID(),
      name: 'Clerk',
      phone_number: '1',
      email: 'c@x.example',
    })
    .returning('id');
  const [customer] = await db('customers')
    .insert({ partner_id: partnerId, name: 'Customer', phone_number: '1' })
    .returning('id');
  const [device] = await db('devices')
    .insert({
      partner_id: partnerId,
      model_id: modelId,
      tag: `FIG${partnerId}`,
      imei: `9${partnerId.padStart(14, '0')}`,
    })
    .returning('id');
  const orderIds: string[] = [];
  for (const ledger of ledgers) {
    const paid = ledger.payments.reduce((sum, p) => sum + (p.reversedAt ? 0 : p.amount), 0);
    const [order] = await db('finance_orders')
      .insert({
        partner_id: partnerId,
        customer_id: customer.id,
        device_id: device.id,
        merchant_id: stores[ledger.store],
        clerk_id: clerk.id,
        currency: 'USD',
        purchase_minor: ledger.monthly * ledger.months,
        down_payment_minor: 0,
        price_pre_tax_minor: 0,
        monthly_cost_minor: ledger.monthly,
        weekly_cost_minor: ledger.monthly,
        months: ledger.months,
        total_paid_minor: paid,
        ordered_at: ledger.orderedAt,
        closed_at: ledger.closedAt,
        closed_reason: ledger.reason,
        closed_note: ledger.reason && 'closed',
        cleared_minor: ledger.cleared,
      })
      .returning('id');
    orderIds.push(String(order.id));
    for (const payment of ledger.payments) {
      const [row] = await db('payments')
        .insert({
          partner_id: partnerId,
          finance_order_id: order.id,
          channel: 'in_store',
          amount_minor: payment.amount,
          currency: 'USD',
          merchant_id: stores[ledger.store],
          clerk_id: clerk.id,
          received_at: payment.at,
          reversible_until: new Date(payment.at.getTime() + 72 * HOUR),
        })
        .returning('id');
      if (payment.reversedAt)
        await db('payment_reversals').insert({
          partner_id: partnerId,
          payment_id: row.id,
          finance_order_id: order.id,
          amount_minor: payment.amount,
          currency: 'USD',
          reason: 'wrong order',
          reversed_by: 'operator',
          reversed_at: payment.reversedAt,
        });
    }
  }
  return { partnerId, stores, orderIds };
}

type Sums = Omit<PortfolioSums, 'group' | 'currency' | 'asOf'>;
const zero = (): Sums => ({
  openOrders: 0,
  outstandingMinor: 0n,
  par30Minor: 0n,
  par60Minor: 0n,
  par90Minor: 0n,
  lockedOrders: 0,
  collectedMinor: 0n,
  dueMinor: 0n,
  firstPaymentDefaulted: 0,
  firstPaymentEligible: 0,
  writtenOffMinor: 0n,
  periodStartOutstandingMinor: 0n,
});

/** The sums the straight way: each order's paid summed forwards up to the second's end. */
function referenceOf(ledgers: Ledger[], asOf: Date, graceHours: number, store: number | null) {
  const second = Math.floor(asOf.getTime() / 1000) * 1000;
  const next = second + 1000;
  const periodNext = next - 30 * DAY;
  const sums = zero();
  const buckets = new Map<string, number>();
  /** Each open order by its place in `ledgers`: what the ageing's file writes of it. */
  const open: Array<{ index: number; paidThrough: Date; daysPastDue: number; outstandingMinor: bigint }> = [];
  const paidBefore = (ledger: Ledger, end: number) =>
    ledger.payments.reduce(
      (sum, p) =>
        sum + (p.at.getTime() < end ? p.amount : 0) - (p.reversedAt && p.reversedAt.getTime() < end ? p.amount : 0),
      0,
    );
  for (const [index, ledger] of ledgers.entries()) {
    if (ledger.orderedAt.getTime() >= next || (store !== null && ledger.store !== store)) continue;
    const repayable = ledger.monthly * ledger.months;
    const paid = paidBefore(ledger, next);
    const closed = ledger.closedAt !== null && ledger.closedAt.getTime() < next;
    const terms = {
      currency: 'USD',
      monthly_cost_minor: String(ledger.monthly),
      weekly_cost_minor: String(ledger.monthly),
      months: ledger.months,
      total_paid_minor: String(paid),
      ordered_at: ledger.orderedAt,
    };
    const standing = standingOf(terms, new Date(second), { lockGraceHours: graceHours });
    const schedule = scheduleOf(terms, new Date(second));
    const due = schedule.filter((instalment) => instalment.dueAt.getTime() <= second).length * ledger.monthly;
    if (!closed) {
      sums.dueMinor += BigInt(due);
      sums.collectedMinor += BigInt(Math.min(paid, due));
    }
    if (schedule[0]!.dueAt.getTime() + 30 * DAY <= second) {
      sums.firstPaymentEligible++;
      if (paid < ledger.monthly) sums.firstPaymentDefaulted++;
    }
    if (!closed && paid < repayable) {
      const owed = BigInt(repayable - paid);
      const dpd = Math.max(0, Math.floor((second - standing.paidThrough.getTime()) / DAY));
      sums.openOrders++;
      sums.outstandingMinor += owed;
      if (dpd > 30) sums.par30Minor += owed;
      if (dpd > 60) sums.par60Minor += owed;
      if (dpd > 90) sums.par90Minor += owed;
      if (standing.paidThrough.getTime() + graceHours * HOUR <= second) sums.lockedOrders++;
      const bucket =
        dpd === 0 ? 'CURRENT' : dpd <= 30 ? '1' : dpd <= 60 ? '31' : dpd <= 90 ? '61' : dpd <= 180 ? '91' : '181';
      buckets.set(bucket, (buckets.get(bucket) ?? 0) + 1);
      open.push({ index, paidThrough: standing.paidThrough, daysPastDue: dpd, outstandingMinor: owed });
    }
    const closedAt = ledger.closedAt?.getTime() ?? null;
    if (ledger.reason === 'WRITE_OFF' && closedAt !== null && closedAt >= periodNext && closedAt < next)
      sums.writtenOffMinor += BigInt(ledger.cleared);
    const paidStart = paidBefore(ledger, periodNext);
    if (
      ledger.orderedAt.getTime() < periodNext &&
      (closedAt === null || closedAt >= periodNext) &&
      paidStart < repayable
    )
      sums.periodStartOutstandingMinor += BigInt(repayable - paidStart);
  }
  return { sums, buckets, open };
}

const sumsOnly = ({ group: _group, currency: _currency, asOf: _asOf, ...sums }: PortfolioSums): Sums => sums;

describe('portfolioSums', () => {
  it('equals the straight computation over random histories, store by store and in all', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(orderPlan, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: -10 * DAY, max: 420 * DAY }),
        fc.constantFrom(0, 1, 24, 72),
        async (plans, asOfAfterBase, graceHours) => {
          const ledgers = plans.map(ledgerOf);
          const { partnerId, stores, orderIds } = await writePartner(ledgers);
          const asOf = new Date(BASE + asOfAfterBase);
          const moment = { partnerId, asOf, graceHours };
          const all = await portfolioSums(database.db, moment, 'NONE');
          const expected = referenceOf(ledgers, asOf, graceHours, null);
          if (!ledgers.some((ledger) => ledger.orderedAt.getTime() < Math.floor(asOf.getTime() / 1000) * 1000 + 1000)) {
            expect(all).toEqual([]);
            return;
          }
          expect(all).toHaveLength(1);
          expect(all[0]).toMatchObject({ group: 'all', currency: 'USD' });
          expect(sumsOnly(all[0]!)).toEqual(expected.sums);
          // Each store's row: its own orders' sums.
          for (const row of await portfolioSums(database.db, moment, 'MERCHANT')) {
            const store = stores.indexOf(row.group);
            expect(store).toBeGreaterThanOrEqual(0);
            expect(sumsOnly(row)).toEqual(referenceOf(ledgers, asOf, graceHours, store).sums);
          }
          // The ageing: each bucket's count, summing to the open orders and their outstanding.
          const [ageing] = await portfolioAgeing(database.db, moment);
          const names = { CURRENT: 'CURRENT', DPD_1_30: '1', DPD_31_60: '31', DPD_61_90: '61', DPD_91_180: '91' };
          for (const bucket of ageing!.buckets)
            expect(bucket.orders, bucket.bucket).toBe(
              expected.buckets.get(names[bucket.bucket as keyof typeof names] ?? '181') ?? 0,
            );
          expect(ageing).toMatchObject({
            orders: expected.sums.openOrders,
            outstandingMinor: expected.sums.outstandingMinor,
          });
          // The ageing's file: every open order with its paid-through and days past due, read whole
          // and read a page of one order at a time (each page from its cursor on) alike.
          const rows = expected.open.map((order) => ({
            financeOrderId: orderIds[order.index],
            paidThrough: order.paidThrough,
            daysPastDue: order.daysPastDue,
            outstandingMinor: order.outstandingMinor,
          }));
          const whole = await ageingOrdersPage(database.db, partnerId, asOf, graceHours, null, 100);
          expect(whole).toMatchObject(rows);
          expect(whole).toHaveLength(rows.length);
          const paged: AgeingOrderRow[] = [];
          // At most one page more than there are orders: a cursor that does not move fails, never loops.
          for (let after: string | null = null, pages = 0; pages <= whole.length; pages++) {
            const page = await ageingOrdersPage(database.db, partnerId, asOf, graceHours, after, 1);
            if (page.length === 0) break;
            paged.push(...page);
            after = page[0]!.financeOrderId;
          }
          expect(paged).toEqual(whole);
        },
      ),
      { numRuns: 40 },
    );
  });
});
