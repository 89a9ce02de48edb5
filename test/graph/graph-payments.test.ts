// recordInStorePayment: its effects on balance, paid-through time, history and the partner's ledger,
// its refusals (each writing nothing), and its idempotency key.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';
import { ledgerSnapshot } from '../support/ledger.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;

const fixture = useSeededService({ now: NOW });

const RECORD = `mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) {
  time deviceTag remainingBalance currency nextPayment fullyPaid replayed payment { id amount currency channel merchant { id } salesClerk { id } } } }`;

const record = async (input: Record<string, unknown>, key = 'demo-retail-key') =>
  (await fixture.service.graphql(RECORD, { 'x-api-key': key }, { input })).body;
const base = {
  merchantId: DEMO_MERCHANT_ID,
  salesClerkId: DEMO_CLERK_ID,
  financeOrderId: DEMO_ORDER_ID,
  currency: 'USD',
};

describe('recordInStorePayment', () => {
  it('credits the order, moves paid-through by the days the amount buys, and writes cash and commission', async () => {
    const { data } = await record({ ...base, amount: '9' });
    // 18.00 + 9.00 paid of 18.00 a month: 30 + floor(27 * 30 / 18) = 75 days after the order (T-40d).
    expect(data.recordInStorePayment).toMatchObject({
      time: Math.floor(NOW.getTime() / 1000),
      deviceTag: DEMO_DEVICE_TAG,
      remainingBalance: '189.00',
      currency: 'USD',
      nextPayment: T - 40 * DAY + 75 * DAY,
      fullyPaid: false,
      replayed: false,
      payment: {
        amount: '9.00',
        currency: 'USD',
        channel: 'IN_STORE',
        merchant: { id: DEMO_MERCHANT_ID },
        salesClerk: { id: DEMO_CLERK_ID },
      },
    });
    const paymentId = data.recordInStorePayment.payment.id;
    const ledger = await fixture.database.db('transactions').where({ payment_id: paymentId }).orderBy('type');
    expect(ledger.map((t) => [t.type, t.amount_minor, t.merchant_id, t.clerk_id])).toEqual([
      ['cash', '-900', DEMO_MERCHANT_ID, DEMO_CLERK_ID],
      ['commission', '45', DEMO_MERCHANT_ID, null], // 5% of 9.00
    ]);
    const history = await fixture.service.graphql(
      `{ financeOrder(id: "${DEMO_ORDER_ID}") { payments { id amount } remainingBalance } }`,
      { 'x-api-key': 'demo-partner-key' },
    );
    expect(history.body.data.financeOrder).toEqual({
      payments: [
        { id: '4000008', amount: '18.00' },
        { id: paymentId, amount: '9.00' },
      ],
      remainingBalance: '189.00',
    });
  });

  it('rounds commission half up to the cent: 5% of 0.10 is 0.01, of 0.01 is nothing', async () => {
    const dime = await record({ ...base, amount: '0.10' });
    const cent = await record({ ...base, amount: '0.01' });
    const commission = async (paymentId: string) =>
      (await fixture.database.db('transactions').where({ payment_id: paymentId, type: 'commission' })).map(
        (t) => t.amount_minor,
      );
    expect(await commission(dime.data.recordInStorePayment.payment.id)).toEqual(['1']);
    expect(await commission(cent.data.recordInStorePayment.payment.id)).toEqual([]);
  });

  it('makes no commission transaction for a partner at 0%, in its own currency', async () => {
    const { data } = await record(
      { merchantId: '2000001', salesClerkId: '6001', financeOrderId: '5000002', amount: '16.50', currency: 'MXN' },
      'other-retail-key',
    );
    expect(data.recordInStorePayment).toMatchObject({ remainingBalance: '175.50', currency: 'MXN' });
    const ledger = await fixture.database
      .db('transactions')
      .where({ payment_id: data.recordInStorePayment.payment.id });
    expect(ledger.map((t) => [t.type, t.amount_minor, t.currency.trim()])).toEqual([['cash', '-1650', 'MXN']]);
  });

  it('pays an order off exactly: completing until its window closes, no next payment, nothing more accepted', async () => {
    const before = await fixture.service.graphql('{ financeOrder(id: "4000012") { remainingBalance } }', {
      'x-api-key': 'demo-partner-key',
    });
    const remaining = before.body.data.financeOrder.remainingBalance;
    const paid = await record({
      merchantId: '1000201',
      salesClerkId: '5320',
      financeOrderId: '4000012',
      amount: remaining,
      currency: 'USD',
    });
    expect(paid.data.recordInStorePayment).toMatchObject({
      remainingBalance: '0.00',
      fullyPaid: true,
      nextPayment: null,
    });
    const after = await fixture.service.graphql(
      '{ financeOrder(id: "4000012") { status secureStatus releaseAt paymentOptions { type } } }',
      { 'x-api-key': 'demo-partner-key' },
    );
    // Released once the payoff's reversal window (72 hours) closes (decisions.md 44).
    expect(after.body.data.financeOrder).toEqual({
      status: 'PAID_OFF',
      secureStatus: 'ACTIVE_AND_SECURED',
      releaseAt: NOW.getTime() / 1000 + 72 * 3600,
      paymentOptions: [],
    });
    const more = await record({
      merchantId: '1000201',
      salesClerkId: '5320',
      financeOrderId: '4000012',
      amount: '0.01',
      currency: 'USD',
    });
    expect(more.errors[0].extensions.code).toBe('AMOUNT_EXCEEDS_BALANCE');
  });

  it.each([
    ['zero', { amount: '0' }, 'INVALID_PAYMENT_AMOUNT'],
    ['negative', { amount: '-5.00' }, 'INVALID_PAYMENT_AMOUNT'],
    ['too many decimals', { amount: '1.001' }, 'INVALID_PAYMENT_AMOUNT'],
    ['another currency', { currency: 'MXN', amount: '5' }, 'CURRENCY_MISMATCH'],
    ['above the balance', { amount: '100000' }, 'AMOUNT_EXCEEDS_BALANCE'],
    ["another partner's merchant", { merchantId: '2000001', amount: '5' }, 'RESOURCE_NOT_FOUND'],
    ["another partner's clerk", { salesClerkId: '6001', amount: '5' }, 'RESOURCE_NOT_FOUND'],
    ["another partner's order", { financeOrderId: '5000002', amount: '5' }, 'RESOURCE_NOT_FOUND'],
    ['an order that does not exist', { financeOrderId: '999', amount: '5' }, 'RESOURCE_NOT_FOUND'],
    ['an id that cannot exist', { merchantId: 'abc', amount: '5' }, 'RESOURCE_NOT_FOUND'],
    ['a malformed idempotency key', { amount: '5', idempotencyKey: 'has space' }, 'INVALID_ARGUMENT'],
  ])('refuses %s and writes nothing', async (_case, change, code) => {
    const before = await ledgerSnapshot(fixture.database.db);
    const { errors, data } = await record({ ...base, ...change });
    expect(data).toBeNull();
    expect(errors[0].extensions.code).toBe(code);
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
  });

  it('names the balance when refusing an overpayment', async () => {
    const { errors } = await record({ ...base, amount: '100000' });
    expect(errors[0].message).toMatch(
      /^the payment of 100000\.00 USD is more than the remaining balance of \d+\.\d\d USD$/,
    );
  });

  it('is for retail keys only', async () => {
    for (const key of ['demo-partner-key', 'demo-operator-key', 'demo-vendor-key']) {
      const { errors } = await record({ ...base, amount: '1' }, key);
      expect(errors[0].extensions.code, key).toBe('FORBIDDEN');
    }
  });
});

describe('idempotency key', () => {
  it('replays the first receipt for the same request and records one payment', async () => {
    const input = { ...base, amount: '2.00', idempotencyKey: 'pos-1-receipt-77' };
    const first = await record(input);
    const before = await ledgerSnapshot(fixture.database.db);
    const second = await record({ ...input, amount: '2' }); // the same amount, written differently
    expect(second.data.recordInStorePayment).toEqual({ ...first.data.recordInStorePayment, replayed: true });
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
  });

  it('refuses the same key with other parameters as IDEMPOTENCY_CONFLICT, writing nothing', async () => {
    await record({ ...base, amount: '1.00', idempotencyKey: 'pos-1-receipt-78' });
    const before = await ledgerSnapshot(fixture.database.db);
    const conflict = await record({ ...base, amount: '1.50', idempotencyKey: 'pos-1-receipt-78' });
    expect(conflict.errors[0].extensions.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
  });

  it('keeps keys per partner, and frees a key whose request was refused', async () => {
    const refused = await record({ ...base, amount: '0', idempotencyKey: 'shared-key' });
    expect(refused.errors[0].extensions.code).toBe('INVALID_PAYMENT_AMOUNT');
    const fixed = await record({ ...base, amount: '1.00', idempotencyKey: 'shared-key' });
    expect(fixed.data.recordInStorePayment.replayed).toBe(false);
    const other = await record(
      {
        merchantId: '2000001',
        salesClerkId: '6001',
        financeOrderId: '5000002',
        amount: '1.00',
        currency: 'MXN',
        idempotencyKey: 'shared-key',
      },
      'other-retail-key',
    );
    expect(other.data.recordInStorePayment.replayed).toBe(false);
  });

  it("takes an expired key anew, and leaves the partner's other expired keys to the purge job", async () => {
    const keys = () => fixture.database.db('idempotency_keys');
    await keys()
      .where({ partner_id: 1 })
      .whereIn('idempotency_key', ['pos-1-receipt-77', 'pos-1-receipt-78'])
      .update({ expires_at: NOW });
    await keys().where({ partner_id: 2, idempotency_key: 'shared-key' }).update({ expires_at: NOW });
    const input = { ...base, amount: '3.00', idempotencyKey: 'pos-1-receipt-77' }; // first used with 2.00
    const anew = await record(input);
    expect(anew.data.recordInStorePayment.replayed).toBe(false);
    expect((await record(input)).data.recordInStorePayment).toEqual({
      ...anew.data.recordInStorePayment,
      replayed: true,
    });
    const left = await keys().orderBy(['partner_id', 'idempotency_key']);
    expect(left.map((row) => [row.partner_id, row.idempotency_key, row.expires_at.getTime() - NOW.getTime()])).toEqual([
      ['1', 'pos-1-receipt-77', 86_400_000],
      ['1', 'pos-1-receipt-78', 0], // expired, not read by the payment: payments/keyRetention.ts purges it
      ['1', 'shared-key', 86_400_000],
      ['2', 'shared-key', 0],
    ]);
  });
});

describe('two payments in one request', () => {
  it("shows each payment's order as it stands after that payment, not a cached read", async () => {
    const input = { ...base, amount: '1.00' };
    const { data } = await fixture.service
      .graphql(
        `mutation($input: RecordInStorePaymentInput!) {
        a: recordInStorePayment(input: $input) { remainingBalance payment { financeOrder { remainingBalance totalPaid } } }
        b: recordInStorePayment(input: $input) { remainingBalance payment { financeOrder { remainingBalance totalPaid } } } }`,
        { 'x-api-key': 'demo-retail-key' },
        { input },
      )
      .then((result) => result.body);
    expect(data.a.payment.financeOrder.remainingBalance).toBe(data.a.remainingBalance);
    expect(data.b.payment.financeOrder.remainingBalance).toBe(data.b.remainingBalance);
    expect(Number(data.a.remainingBalance) - Number(data.b.remainingBalance)).toBe(1);
  });
});
