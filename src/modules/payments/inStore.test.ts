// recordInStorePayment: the payment, its cash and commission transactions, the balance change and the
// idempotency record are one transaction, opened here as a notification's is in notification.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { type InStorePaymentRequest, recordInStorePayment } from './inStore.js';

const NOW = new Date('2026-06-10T15:30:00Z');

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
});
afterAll(async () => database?.destroy());

const count = async (table: string) => Number((await database.db(table).count({ n: '*' }).first())!.n);
const written = async () => ({
  payments: await count('payments'),
  transactions: await count('transactions'),
  keys: await count('idempotency_keys'),
  paid: (await database.db('finance_orders').where({ partner_id: '1', id: '4000004' }).first()).total_paid_minor,
});

// Demo order 4000004: 18.00 a month for 12 months, 18.00 paid; Demo Retail's commission is 5%.
const payment = (overrides: Partial<InStorePaymentRequest> = {}): InStorePaymentRequest => ({
  partnerId: '1',
  merchantId: '851005',
  clerkId: '5335',
  financeOrderId: '4000004',
  amount: '18.00',
  currency: 'USD',
  idempotencyKey: null,
  ...overrides,
});

describe('recordInStorePayment', () => {
  it('records the payment with its cash and commission transactions, and answers the new balance', async () => {
    const claimed = await recordInStorePayment(database.db, payment(), NOW);
    expect(claimed.replayed).toBe(false);
    expect(claimed.receipt).toMatchObject({
      amountMinor: '1800',
      remainingMinor: '18000',
      currency: 'USD',
      deviceTag: 'DTSTBBB',
      fullyPaid: false,
    });
    const transactions = await database
      .db('transactions')
      .where({ partner_id: '1', payment_id: claimed.receipt.paymentId })
      .orderBy('id');
    expect(transactions.map((row) => [row.type, row.amount_minor])).toEqual([
      ['cash', '-1800'],
      ['commission', '90'],
    ]);
  });

  it('with an idempotency key, replays a repeat ("18" is "18.00") writing nothing; refuses other amounts', async () => {
    const first = await recordInStorePayment(database.db, payment({ amount: '18.00', idempotencyKey: 'pos-1' }), NOW);
    const before = await written();
    const repeat = await recordInStorePayment(database.db, payment({ amount: '18', idempotencyKey: 'pos-1' }), NOW);
    expect(repeat).toEqual({ receipt: first.receipt, replayed: true });
    await expect(
      recordInStorePayment(database.db, payment({ amount: '19.00', idempotencyKey: 'pos-1' }), NOW),
    ).rejects.toMatchObject({
      extensions: { code: 'IDEMPOTENCY_CONFLICT' },
    });
    expect(await written()).toEqual(before);
  });

  it.each([
    ["another partner's store", payment({ merchantId: '2000001' }), 'RESOURCE_NOT_FOUND'],
    ["another partner's clerk", payment({ clerkId: '6001' }), 'RESOURCE_NOT_FOUND'],
    ['more than the balance', payment({ amount: '1000.00' }), 'AMOUNT_EXCEEDS_BALANCE'],
    ["another currency than the order's", payment({ currency: 'MXN' }), 'CURRENCY_MISMATCH'],
    ['too many decimals', payment({ amount: '1.001' }), 'INVALID_PAYMENT_AMOUNT'],
  ])('refuses %s, writing nothing (with an idempotency key, not even the key)', async (_case, refused, code) => {
    const before = await written();
    await expect(
      recordInStorePayment(database.db, { ...refused, idempotencyKey: `refused-${code}` }, NOW),
    ).rejects.toMatchObject({ extensions: { code } });
    expect(await written()).toEqual(before);
  });
});
