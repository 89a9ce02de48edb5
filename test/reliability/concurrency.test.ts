// Concurrent payments on real Postgres (PGlite runs one query at a time and cannot show a race):
// many requests at once on one order lose no update and never take the balance below zero.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { ledgerSnapshot } from '../support/ledger.js';

const fixture = useSeededService();

const RECORD = `mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { remainingBalance replayed payment { id } } }`;
const record = (input: Record<string, unknown>) =>
  fixture.service.graphql(RECORD, { 'x-api-key': 'demo-retail-key' }, { input }).then((result) => result.body);

async function totalPaid(orderId: string): Promise<string> {
  return (await fixture.database.db('finance_orders').where({ id: orderId }).first()).total_paid_minor;
}

async function ledgerIsConsistent(): Promise<void> {
  const report = await checkLedger(fixture.database.db);
  expect(report.problems).toEqual([]);
}

describe.skipIf(!onPostgres)('concurrent payments on one order (Postgres)', () => {
  it('50 parallel payments all land: none lost, each with its cash and commission', async () => {
    const before = await ledgerSnapshot(fixture.database.db);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        record({
          merchantId: DEMO_MERCHANT_ID,
          salesClerkId: DEMO_CLERK_ID,
          financeOrderId: DEMO_ORDER_ID,
          amount: '1.00',
          currency: 'USD',
        }),
      ),
    );
    expect(results.filter((result) => result.errors)).toEqual([]);
    expect(await totalPaid(DEMO_ORDER_ID)).toBe(String(1800 + 50 * 100));
    // The receipts saw every intermediate balance exactly once: 197.00 down to 148.00.
    const balances = results.map((result) => result.data.recordInStorePayment.remainingBalance).sort();
    expect(balances).toEqual(Array.from({ length: 50 }, (_, i) => (148 + i).toFixed(2)).sort());
    const after = await ledgerSnapshot(fixture.database.db);
    expect(after.payments - before.payments).toBe(50);
    expect(after.transactions - before.transactions).toBe(100); // cash and 5% commission each
    await ledgerIsConsistent();
  });

  it('parallel payments that together exceed the balance: the ones that fit land, the rest are refused', async () => {
    // 4000012 owes 240.00: 40 payments of 10.00 at once, 24 fit.
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        record({
          merchantId: '1000201',
          salesClerkId: '5320',
          financeOrderId: '4000012',
          amount: '10.00',
          currency: 'USD',
        }),
      ),
    );
    const accepted = results.filter((result) => result.data);
    const refused = results.filter((result) => result.errors);
    expect(accepted).toHaveLength(24);
    expect(refused.map((result) => result.errors[0].extensions.code)).toEqual(Array(16).fill('AMOUNT_EXCEEDS_BALANCE'));
    expect(await totalPaid('4000012')).toBe('24000');
    await ledgerIsConsistent();
  });

  it('one idempotency key sent by 20 requests at the same instant records one payment; all get its receipt', async () => {
    const before = await ledgerSnapshot(fixture.database.db);
    const input = {
      merchantId: DEMO_MERCHANT_ID,
      salesClerkId: DEMO_CLERK_ID,
      financeOrderId: DEMO_ORDER_ID,
      amount: '3.00',
      currency: 'USD',
      idempotencyKey: 'race-1',
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => record(input)));
    expect(results.filter((result) => result.errors)).toEqual([]);
    const paymentIds = new Set(results.map((result) => result.data.recordInStorePayment.payment.id));
    expect(paymentIds.size).toBe(1);
    expect(results.filter((result) => !result.data.recordInStorePayment.replayed)).toHaveLength(1);
    const after = await ledgerSnapshot(fixture.database.db);
    expect(after.payments - before.payments).toBe(1);
    expect(after.idempotencyKeys - before.idempotencyKeys).toBe(1);
    await ledgerIsConsistent();
  });

  it('one idempotency key with different amounts at once: one lands, the others are IDEMPOTENCY_CONFLICT', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        record({
          merchantId: DEMO_MERCHANT_ID,
          salesClerkId: DEMO_CLERK_ID,
          financeOrderId: DEMO_ORDER_ID,
          amount: `${i + 1}.00`,
          currency: 'USD',
          idempotencyKey: 'race-2',
        }),
      ),
    );
    expect(results.filter((result) => result.data)).toHaveLength(1);
    expect(results.filter((result) => result.errors).map((result) => result.errors[0].extensions.code)).toEqual(
      Array(9).fill('IDEMPOTENCY_CONFLICT'),
    );
    expect(await fixture.database.db('idempotency_keys').where({ idempotency_key: 'race-2' })).toHaveLength(1);
    await ledgerIsConsistent();
  });
});
