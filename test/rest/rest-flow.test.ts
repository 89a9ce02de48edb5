// The legacy contract end to end: what one route records, the others show at once, and repeats
// record nothing new.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
const fixture = useSeededService({ now: NOW });
const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fixture.service.request(path, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
};
const count = async (table: string) => Number((await fixture.database.db(table).count({ n: '*' }))[0]!.n);

describe('a payment recorded in store', () => {
  it('shows at once in lookup-customer, list-transactions and GraphQL', async () => {
    const recorded = await get(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=9.00&currency=USD`,
    );
    expect(recorded.status).toBe(200);
    const payment = recorded.body.payment;
    // 27.00 paid of 18.00 a month: paid through T-40d + 30 + floor(27 * 30 / 18) = T+35d.
    expect(payment).toEqual({
      id: payment.id,
      time: T + 55_800,
      deviceTag: DEMO_DEVICE_TAG,
      remainingBalance: 189,
      currency: 'USD',
      nextPayment: T + 35 * DAY,
      fullyPaid: false,
    });

    const lookup = await get(`/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_TAG}`);
    expect(lookup.body.financeOrder.remainingBalance).toBe(189);
    expect(lookup.body.device.validThrough).toBe(T + 35 * DAY);
    expect(lookup.body.paymentHistory).toEqual([
      { amount: '18.00', currency: 'USD', timestamp: String(T - 10 * DAY) },
      { amount: '9.00', currency: 'USD', timestamp: String(T + 55_800) },
    ]);
    expect(lookup.body.paymentOptions).toEqual([
      { amount: 189, currency: 'USD', type: 'full' },
      { amount: 18, currency: 'USD', type: 'month' },
      { amount: 4, currency: 'USD', type: 'week' },
    ]);

    const listed = await get(`/v1/list-transactions.php?key=demo-partner-key&starttime=${T}&endtime=${T + DAY}`);
    expect(listed.body.transactions).toEqual([
      {
        type: 'cash',
        time: T + 55_800,
        amount: -9,
        currency: 'USD',
        merchant: { id: Number(DEMO_MERCHANT_ID), name: 'DEMO' },
        payment: { id: payment.id, timestamp: T + 55_800, amount: 9 },
        financeOrder: { id: Number(DEMO_ORDER_ID) },
        salesClerk: { id: Number(DEMO_CLERK_ID), name: 'DemoClerk1' },
      },
      {
        type: 'commission',
        time: T + 55_800,
        amount: 0.45,
        currency: 'USD',
        merchant: { id: Number(DEMO_MERCHANT_ID), name: 'DEMO' },
        payment: { id: payment.id, timestamp: T + 55_800, amount: 9 },
        financeOrder: { id: Number(DEMO_ORDER_ID) },
      },
    ]);

    const graph = await fixture.service.graphql(
      `{ financeOrder(id: "${DEMO_ORDER_ID}") { remainingBalance nextPayment payments { id amount } } }`,
      { 'x-api-key': 'demo-partner-key' },
    );
    expect(graph.body.data.financeOrder).toEqual({
      remainingBalance: '189.00',
      nextPayment: T + 35 * DAY,
      payments: [
        { id: '4000008', amount: '18.00' },
        { id: String(payment.id), amount: '9.00' },
      ],
    });
  });
});

describe('repeats', () => {
  it('the same Idempotency-Key records one payment and replays the first answer', async () => {
    const path =
      '/v1/record-customer-payment.php?key=demo-retail-key&merchantId=999888&salesClerkId=5334&financeOrderId=4000012&amount=20.00&currency=USD';
    const before = await count('payments');
    const transactionsBefore = await count('transactions');
    const first = await get(path, { 'idempotency-key': 'flow-1' });
    const again = await get(path, { 'idempotency-key': 'flow-1' });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await count('payments')).toBe(before + 1);
    expect(await count('transactions')).toBe(transactionsBefore + 2); // one cash, one commission
  });

  it('a vendor notification repeated with the same reference credits once', async () => {
    const token = await fixture.service.request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    const { data } = (await token.json()) as { data: { access_token: string } };
    const notify = () =>
      fixture.service.request('/payments/v1/notification', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${data.access_token}` },
        body: JSON.stringify({
          paymentVendor: 'demo-vendor',
          amount: 12.5,
          currency: 'USD',
          reference: 'FLOW-REF-1',
          phoneNumber: '5512345680',
        }),
      });
    const balance = async () =>
      (await get('/v1/lookup-customer.php?key=demo-partner-key&customerLocator=5512345680')).body.financeOrder
        .remainingBalance;
    const before = await balance();
    const first = await notify();
    const second = await notify();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(await first.json());
    expect(await balance()).toBe(before - 12.5);
  });
});

describe('GET /openapi.json', () => {
  it('serves the document the goldens validate against', async () => {
    const response = await get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    // The eight legacy routes and the vendors' reversal, the vendors' repayment options, /graphql, the
    // four operations endpoints, the device door's two (check-in and its key set) and the report files.
    expect(Object.keys(response.body.paths)).toHaveLength(18);
  });
});
