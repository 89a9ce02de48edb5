// The checker finds what it claims to find: a clean demo ledger passes, and each kind of damage is named.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { DEMO_ORDER_ID } from '../fixtures/demoIds.js';
import { checkLedger } from './check.js';

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => database?.destroy());

describe('checkLedger', () => {
  it('passes the demo data set, its events included (all of them: a window of ten years)', async () => {
    const report = await checkLedger(database.db, { retentionDays: 3650 });
    expect(report.problems).toEqual([]);
    expect(report.checked).toEqual({
      financeOrders: 4,
      payments: 2,
      transactions: 7,
      vendorNotifications: 1,
      idempotencyKeys: 0,
      paymentReferences: 0,
    });
  });

  it('names a running total that disagrees with the payments, and a missing cash transaction and commission', async () => {
    const db = database.db;
    // Bypass the schema's guard to damage the ledger the way a bug would.
    await db.raw('alter table finance_orders drop constraint finance_orders_balance_in_range');
    await db('finance_orders')
      .where({ id: Number(DEMO_ORDER_ID) })
      .update({ total_paid_minor: 1900 });
    await db('transactions').where({ payment_id: 4000008 }).delete();
    const report = await checkLedger(db);
    expect(report.problems).toEqual([
      `running total equals the sum of payments less the reversed ones: finance order ${DEMO_ORDER_ID}: running total 1900 but its unreversed payments add up to 1800`,
      'one cash transaction of minus the amount per in-store payment: in-store payment 4000008 has 0 matching cash transactions instead of 1',
      'commission on in-store payments: in-store payment 4000008: commission [] where ["90"] is due',
    ]);
  });

  it('names a vendor payment without its record and a partner transaction on it', async () => {
    const db = database.db;
    const vendorPayment = await db('payments').where({ channel: 'vendor' }).first();
    await db('vendor_notifications').delete();
    const [inserted]: Array<{ id: string }> = await db('transactions').returning('id').insert({
      partner_id: vendorPayment.partner_id,
      type: 'commission',
      amount_minor: 1,
      currency: 'USD',
      occurred_at: new Date(),
      merchant_id: 999888,
      finance_order_id: 4000010,
      payment_id: vendorPayment.id,
    });
    const report = await checkLedger(db);
    expect(report.problems).toEqual([
      `no partner transaction for a vendor payment: vendor payment ${vendorPayment.id} has a commission transaction; vendor payments are not the partner's cash`,
      `every vendor payment has its notification record, and every record its payment: vendor payment ${vendorPayment.id} has no notification record`,
      `every transaction has its transaction.created event: commission transaction ${inserted!.id} has no transaction.created event`,
    ]);
  });

  it("names a payment and transactions whose events are missing, within the events' retention only", async () => {
    const db = database.db;
    const payment = await db('payments').where({ id: 4000008 }).first();
    const kept = await db('events').select('id', 'type', 'data');
    // The payment's id: a number in the transactions' legacy data, a string in payment.recorded's
    // (the graph's dialect, decisions.md 41).
    const ofPayment = kept.filter(
      (event) => /"id":"?4000008"?,/.test(JSON.stringify(event.data)) && event.type !== 'finance_order.created',
    );
    expect(ofPayment.map((event) => event.type).sort()).toEqual([
      'payment.recorded',
      'transaction.created',
      'transaction.created',
    ]);
    await db('events')
      .whereIn(
        'id',
        ofPayment.map((event) => event.id),
      )
      .delete();
    const [cash, commission] = await db('transactions').where({ payment_id: 4000008 }).orderBy('type').pluck('id');
    const report = await checkLedger(db, { retentionDays: 3650 });
    expect(report.problems).toEqual([
      'every payment has its payment.recorded event: payment 4000008 has no payment.recorded event',
      `every transaction has its transaction.created event: cash transaction ${cash} has no transaction.created event`,
      `every transaction has its transaction.created event: commission transaction ${commission} has no transaction.created event`,
    ]);
    // Older than the retention window, an event may have been purged: not a problem.
    const justAfter = new Date(payment.received_at.getTime() + 86_400_000);
    expect((await checkLedger(db, { now: justAfter, retentionDays: 0.5 })).problems).toEqual([]);
  });

  it("names a reversal that does not take back its payment: the running total, the amount, the transactions' sum, their events", async () => {
    const db = database.db;
    // A reversal of demo payment 4000008 (18.00, commission 0.90) for 10.00, its cash answered, its
    // commission not, the order's running total left as it was: each is a bug a check must name.
    const [reversal] = await db('payment_reversals')
      .insert({
        partner_id: 1,
        payment_id: 4000008,
        finance_order_id: Number(DEMO_ORDER_ID),
        amount_minor: 1000,
        currency: 'USD',
        reason: 'damage',
        reversed_by: 'operator',
        reversed_at: new Date(),
      })
      .returning('id');
    const original = await db('transactions').where({ payment_id: 4000008, type: 'cash' }).first();
    const [opposite] = await db('transactions')
      .insert({ ...original, id: undefined, amount_minor: 1800, occurred_at: new Date(), reversal_id: reversal.id })
      .returning('id');
    const report = await checkLedger(db);
    expect(report.problems).toEqual([
      `running total equals the sum of payments less the reversed ones: finance order ${DEMO_ORDER_ID}: running total 1800 but its unreversed payments add up to 0`,
      `every reversal is its payment's amount, currency and order: reversal ${reversal.id} takes back 1000 of payment 4000008, which paid 1800`,
      `a reversed in-store payment's transactions sum to zero, its opposites tied to its reversal: reversed in-store payment 4000008: its transactions sum to 90 (reversal ${reversal.id})`,
      `every transaction has its transaction.created event: cash transaction ${opposite.id} has no transaction.created event`,
    ]);
  });
});
