// Repayment options in days (decisions.md 16) through every door: FinanceOrder.repayment and its
// daysBoughtBy, the vendors' GET /payments/v1/repayment-options, and AMOUNT_NOT_AN_OPTION on the four
// payment doors when a partner takes no flexible amounts, each refusal writing and numbering nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { acceptedAmountsOf, isAmountAnOption } from '../../src/modules/financeOrders/repayment.js';
import { inStorePaymentFacts } from '../../src/modules/payments/queries.js';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
const fixture = useSeededService({ now: NOW });
const db = () => fixture.database.db;

const PARTNER = { 'x-api-key': 'demo-partner-key' };
const REPAYMENT = `query ($id: ID!, $amount: Decimal!) { financeOrder(id: $id) {
  repayment { minimumPaymentAmount fullPayoffAmount flexibleAmountEnabled options { daysPaid amount lockAt } daysBoughtBy(amount: $amount) } } }`;

const repayment = (amount: string, id = DEMO_ORDER_ID) => fixture.service.graphql(REPAYMENT, PARTNER, { id, amount });

/** Partner 1 (Demo Retail) takes only its options and the full payoff, or any amount again. */
// Through the operators' mutation, so every instance's copy of the settings follows (decisions.md 15).
const setFlexible = async (enabled: boolean) => {
  const changed = await fixture.service.graphql(
    'mutation ($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id } }',
    { 'x-api-key': 'demo-operator-key' },
    { input: { partnerId: '1', flexibleAmountEnabled: enabled } },
  );
  expect(changed.body.errors).toBeUndefined();
};
afterEach(async () => setFlexible(true));

const count = async (table: string) => Number((await db()(table).count({ n: '*' }).first())!.n);
const lastNumber = async (sequence: string) =>
  String((await db().raw(`select last_value from ${sequence}`)).rows[0].last_value);
/** What a refusal must leave as it was: rows, totals and the payments' numbering. */
const written = async () => ({
  payments: await count('payments'),
  transactions: await count('transactions'),
  events: await count('events'),
  paid: (await db()('finance_orders').select('id', 'total_paid_minor').orderBy('id')).map(
    (row) => row.total_paid_minor,
  ),
  paymentNumbers: await lastNumber('payments_id_seq'),
});

async function accessToken(): Promise<string> {
  const response = await fixture.service.request('/payments/v1/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
  });
  return ((await response.json()) as any).data.access_token;
}

const inStoreRest = (amount: string) =>
  fixture.service.request(
    `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=${amount}&currency=USD`,
  );
const inStoreGraph = (amount: string) =>
  fixture.service.graphql(
    `mutation ($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { nextPayment remainingBalance } }`,
    { 'x-api-key': 'demo-retail-key' },
    {
      input: {
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        financeOrderId: DEMO_ORDER_ID,
        amount,
        currency: 'USD',
      },
    },
  );
let references = 0;
const notification = (amount: string) => ({
  paymentVendor: 'demo-vendor',
  amount,
  currency: 'USD',
  reference: `repayment-${++references}`,
  deviceTag: DEMO_DEVICE_TAG,
});
const notifyRest = async (amount: string) =>
  fixture.service.request('/payments/v1/notification', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await accessToken()}` },
    body: JSON.stringify(notification(amount)),
  });
const notifyGraph = async (amount: string) =>
  fixture.service.graphql(
    'mutation ($notification: JSON!) { createPaymentNotification(notification: $notification) { message } }',
    { authorization: `Bearer ${await accessToken()}` },
    { notification: notification(amount) },
  );
const repaymentOptions = async (query: string) =>
  fixture.service.request(`/payments/v1/repayment-options?${query}`, {
    headers: { authorization: `Bearer ${await accessToken()}` },
  });

describe('FinanceOrder.repayment', () => {
  it('on demo order 4000004: 4.00 buys 6 days, the 7-day option is 4.20, the 30-day 18.00, a day 0.60', async () => {
    const { body } = await repayment('4.00');
    expect(body.errors).toBeUndefined();
    // Paid through T-40d + 60 days = T+20d; 4.20 moves it 7 days, 18.00 30 days (grace 0).
    expect(body.data.financeOrder.repayment).toEqual({
      minimumPaymentAmount: '0.60',
      fullPayoffAmount: '198.00',
      flexibleAmountEnabled: true,
      options: [
        { daysPaid: 7, amount: '4.20', lockAt: T + 27 * DAY },
        { daysPaid: 30, amount: '18.00', lockAt: T + 50 * DAY },
      ],
      daysBoughtBy: 6,
    });
    expect((await repayment('4.20')).body.data.financeOrder.repayment.daysBoughtBy).toBe(7);
    expect((await repayment('4.19')).body.data.financeOrder.repayment.daysBoughtBy).toBe(6);
  });

  it.each([
    ['too many decimals', '4.001', 'INVALID_ARGUMENT'],
    ['zero', '0', 'INVALID_ARGUMENT'],
    ['a negative amount', '-1.00', 'INVALID_ARGUMENT'],
    ['more than the balance', '198.01', 'AMOUNT_EXCEEDS_BALANCE'],
  ])('daysBoughtBy refuses %s with a 400-class code', async (_case, amount, code) => {
    const { body } = await repayment(amount);
    expect(body.errors?.[0]?.extensions?.code).toBe(code);
    expect(body.errors[0].message).toMatch(/amount|balance/);
  });

  it('daysBoughtBy refuses what is not a decimal at all (the Decimal scalar)', async () => {
    const { body } = await repayment('four');
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("is empty once the order is paid off; without flexible amounts the minimum is the first option's", async () => {
    const paidOff = await fixture.service.graphql(
      '{ financeOrder(id: "4000010") { repayment { minimumPaymentAmount fullPayoffAmount options { amount } } } }',
      PARTNER,
    );
    expect(paidOff.body.data.financeOrder.repayment).toEqual({
      minimumPaymentAmount: '0.00',
      fullPayoffAmount: '0.00',
      options: [],
    });
    await setFlexible(false);
    const strict = (await repayment('1.00')).body.data.financeOrder.repayment;
    expect(strict).toMatchObject({ flexibleAmountEnabled: false, minimumPaymentAmount: '4.20', daysBoughtBy: 1 });
  });
});

describe('GET /payments/v1/repayment-options', () => {
  it("answers what the graph answers, for a vendor token; the demo order's 7-day option is 4.20", async () => {
    const response = await repaymentOptions(`deviceTag=${DEMO_DEVICE_TAG}&currency=USD`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: {
        deviceTag: DEMO_DEVICE_TAG,
        financeOrderId: Number(DEMO_ORDER_ID),
        currency: 'USD',
        minimumPaymentAmount: '0.60',
        fullPayoffAmount: '198.00',
        flexibleAmountEnabled: true,
        lockAt: T + 20 * DAY,
        options: [
          { daysPaid: 7, amount: '4.20' },
          { daysPaid: 30, amount: '18.00' },
        ],
      },
    });
  });

  it("says when the partner takes no flexible amounts, and the minimum is then the first option's", async () => {
    await setFlexible(false);
    const body = (await (await repaymentOptions(`deviceTag=${DEMO_DEVICE_TAG}`)).json()) as any;
    expect(body.data).toMatchObject({ flexibleAmountEnabled: false, minimumPaymentAmount: '4.20' });
  });

  it('is for vendor tokens only: a partner key on the graph is FORBIDDEN', async () => {
    const { body } = await fixture.service.graphql(
      `{ deviceRepayment(deviceTag: "${DEMO_DEVICE_TAG}") { financeOrderId } }`,
      PARTNER,
    );
    expect(body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('AMOUNT_NOT_AN_OPTION, on every payment door', () => {
  const doors: Array<[string, (amount: string) => Promise<{ status: number; code: unknown }>]> = [
    [
      'record-customer-payment',
      async (amount) => {
        const response = await inStoreRest(amount);
        return { status: response.status, code: ((await response.json()) as any).error?.code };
      },
    ],
    [
      'recordInStorePayment',
      async (amount) => {
        const { status, body } = await inStoreGraph(amount);
        return { status, code: body.errors?.[0]?.extensions?.code };
      },
    ],
    [
      'the notification',
      async (amount) => {
        const response = await notifyRest(amount);
        return { status: response.status, code: ((await response.json()) as any).error?.code };
      },
    ],
    [
      'createPaymentNotification',
      async (amount) => {
        const { status, body } = await notifyGraph(amount);
        return { status, code: body.errors?.[0]?.extensions?.code };
      },
    ],
  ];

  it.each(doors)('%s refuses an amount that is not an option, writing and numbering nothing', async (door, pay) => {
    await setFlexible(false);
    const before = await written();
    for (const amount of ['4.00', '4.21', '19.99']) {
      const refused = await pay(amount);
      expect(refused.code, `${door} ${amount}`).toBe('AMOUNT_NOT_AN_OPTION');
      if (door !== 'recordInStorePayment' && door !== 'createPaymentNotification') expect(refused.status).toBe(400);
    }
    expect(await written()).toEqual(before);
    // With flexible amounts again, any amount is taken (a cent: the options stay where they were).
    await setFlexible(true);
    expect((await pay('0.01')).code).toBeUndefined();
  });

  it('takes an option or the full payoff, and paying the 7-day option moves the lock to its lockAt', async () => {
    await setFlexible(false);
    const [week] = (await repayment('1.00')).body.data.financeOrder.repayment.options;
    const { body } = await inStoreGraph(week.amount);
    expect(body.errors).toBeUndefined();
    expect(body.data.recordInStorePayment.nextPayment).toBe(week.lockAt);
    const { fullPayoffAmount } = (await repayment('1.00')).body.data.financeOrder.repayment;
    const payoff = await notifyRest(fullPayoffAmount);
    expect(payoff.status).toBe(200);
    expect(((await payoff.json()) as any).data.fullyPaid).toBe(true);
  });

  it('comes after the other amount rules: more than the balance is still AMOUNT_EXCEEDS_BALANCE', async () => {
    await setFlexible(false);
    const response = await inStoreRest('9999.00');
    expect(((await response.json()) as any).error.code).toBe('AMOUNT_EXCEEDS_BALANCE');
  });
});

describe("the in-store read's id draw says what isAmountAnOption says", () => {
  it('draws a payment id exactly for the amounts the partner takes, whatever the total paid and day counts', async () => {
    const order = await db()('finance_orders').where({ partner_id: '1', id: DEMO_ORDER_ID }).first();
    const repaymentDays = [1, 7, 30, 45];
    await db()('partners').where({ id: '1' }).update({ flexible_amount_enabled: false, repayment_days: repaymentDays });
    const strict = { flexibleAmountEnabled: false, repaymentDays };
    try {
      for (const totalPaid of ['0', '1', '1799', '1850', '21000', '21599']) {
        await db()('finance_orders')
          .where({ partner_id: '1', id: DEMO_ORDER_ID })
          .update({ total_paid_minor: totalPaid });
        const terms = { ...order, total_paid_minor: totalPaid };
        const accepted = acceptedAmountsOf(terms, repaymentDays);
        const amounts = new Set(accepted.flatMap((amount) => [amount - 1n, amount, amount + 1n]).filter((a) => a > 0n));
        for (const amount of amounts) {
          const facts = await inStorePaymentFacts(db(), '1', {
            merchantId: DEMO_MERCHANT_ID,
            clerkId: DEMO_CLERK_ID,
            financeOrderId: DEMO_ORDER_ID,
            idempotencyKey: null,
            currency: 'USD',
            amountMinor: amount.toString(),
            now: NOW,
            paymentId: null,
          });
          const remaining = 21600n - BigInt(totalPaid);
          const passes = amount <= remaining && isAmountAnOption(terms, amount, strict);
          expect(facts.paymentId !== null, `paid ${totalPaid}, amount ${amount}`).toBe(passes);
        }
      }
    } finally {
      await db()('finance_orders')
        .where({ partner_id: '1', id: DEMO_ORDER_ID })
        .update({ total_paid_minor: order.total_paid_minor });
      await db()('partners')
        .where({ id: '1' })
        .update({ repayment_days: [7, 30] });
    }
  });
});
