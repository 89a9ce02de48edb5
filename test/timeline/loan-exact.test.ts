// Two questions a model of the loan built from the docs found open (docs/decisions.md 37), answered on
// every door, on PGlite and Postgres, with the service's clock fixed at a moment 900 ms into a second
// (so a time held to the millisecond and the whole second shown differ):
// - the shown whole second decides: a payment reference read at its shown expiresAt is EXPIRED, and a
//   vendor's payment then is refused; an order is LOCKED from the second its lockAt shows (graph,
//   status filter, lookup-customer), and its lock instant is that very second;
// - "4.000" is 4.00 USD on record-customer-payment, recordInStorePayment, a vendor's notification (a
//   JSON number written 4.000, or a string), createPaymentReference and daysBoughtBy; "4.001" is
//   refused on each.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { DEFAULT_PARTNER_SETTINGS } from '../../src/modules/partners/settings.js';
import { scheduleLoadedOrders } from '../../src/modules/timeline/schedule.js';
import { useSeededService } from '../support/fixtures.js';
import { addTwinOrders, twinDevice } from '../support/twinOrders.js';
import { demoVendorNotifier } from '../support/vendorNotifications.js';

const NOW = new Date('2026-06-10T15:30:00.900Z');
const NOW_SECOND = Math.floor(NOW.getTime() / 1000);
const DAY = 86_400;
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };

const fixture = useSeededService({ now: NOW });
const db = () => fixture.database.db;

async function graphql(headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  const { body } = await fixture.service.graphql(query, headers, variables);
  return body as { data: any; errors?: Array<{ message: string; extensions: { code: string } }> };
}
async function ok(headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  const body = await graphql(headers, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

/** Demo Retail's clock at `at` (Unix seconds): the service's real time is fixed, so its time is exactly that. */
const moveClockTo = (at: number) =>
  ok(OPERATOR, 'mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
    input: { partnerId: '1', now: at },
  });

let vendorReferences = 0;
const notifyVendor = demoVendorNotifier(() => fixture.service);
/** A demo-vendor notification with a reference of its own, its other members written as `members` gives them. */
const notify = (members: string) => notifyVendor(`"reference":"EXACT-${++vendorReferences}",${members}`);

const REFERENCE = 'code amount expiresAt status';

describe('the shown whole second decides', () => {
  it('a reference read at its shown expiresAt is EXPIRED, and a vendor paying it then is refused', async () => {
    const { createPaymentReference: reference } = await ok(
      PARTNER,
      `mutation ($input: CreatePaymentReferenceInput!) { createPaymentReference(input: $input) { ${REFERENCE} } }`,
      { input: { financeOrderId: DEMO_ORDER_ID, amount: '2.00', expiresInHours: 1 } },
    );
    // Made at NOW (900 ms into its second): it shows the second, not the held millisecond.
    expect(reference.expiresAt).toBe(NOW_SECOND + 3600);
    const read = async () =>
      (
        await ok(PARTNER, `query ($code: String!) { paymentReference(code: $code) { status } }`, {
          code: reference.code,
        })
      ).paymentReference.status;
    await moveClockTo(reference.expiresAt - 1);
    expect(await read()).toBe('OPEN');
    await moveClockTo(reference.expiresAt);
    expect(await read()).toBe('EXPIRED');
    const refused = await notify(
      `"amount":"2.00","deviceTag":"${DEMO_DEVICE_TAG}","paymentReference":"${reference.code}"`,
    );
    expect(refused.body.error?.code, JSON.stringify(refused.body)).toBe('PAYMENT_REFERENCE_EXPIRED');
    expect(refused.status).toBe(409);
  });

  it('an order sold 900 ms into a second is LOCKED from the second its lockAt shows, on every reader, and its lock instant is that second', async () => {
    const [id] = await addTwinOrders(db(), 9300001, 1, new Date(NOW.getTime() - 40 * DAY * 1000));
    await scheduleLoadedOrders(db(), '1', DEFAULT_PARTNER_SETTINGS, NOW, [id!]);
    const lockAt = NOW_SECOND - 40 * DAY + 60 * DAY;
    const [lock] = await db()('lock_timeline').where({ partner_id: '1', finance_order_id: id, kind: 'lock' });
    expect(lock.lock_at.getTime()).toBe(lockAt * 1000);
    expect(lock.due_at.getTime()).toBe(lockAt * 1000);

    const readers = async () => {
      const { financeOrder } = await ok(PARTNER, 'query ($id: ID!) { financeOrder(id: $id) { lockAt secureStatus } }', {
        id,
      });
      const { financeOrders } = await ok(PARTNER, '{ financeOrders(first: 1000, status: LOCKED) { nodes { id } } }');
      const lookup = await fixture.service.request(
        `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${twinDevice(id!).imei}`,
      );
      const device = ((await lookup.json()) as { device: { secureStatus: string; validThrough: number } }).device;
      return {
        lockAt: financeOrder.lockAt,
        secureStatus: financeOrder.secureStatus,
        listedLocked: financeOrders.nodes.some((node: { id: string }) => node.id === id),
        legacy: [device.secureStatus, device.validThrough],
      };
    };
    await moveClockTo(lockAt - 1);
    expect(await readers()).toEqual({
      lockAt,
      secureStatus: 'ACTIVE_AND_SECURED',
      listedLocked: false,
      legacy: ['Device Active And Secured', lockAt],
    });
    await moveClockTo(lockAt);
    expect(await readers()).toEqual({
      lockAt,
      secureStatus: 'LOCKED',
      listedLocked: true,
      legacy: ['Device Locked', lockAt],
    });
  });
});

describe('"4.000" is 4.00 USD on every door', () => {
  const paymentsOfDemoOrder = async () =>
    (await db()('payments').where({ partner_id: '1', finance_order_id: DEMO_ORDER_ID }).orderBy('id')).map((row) =>
      String(row.amount_minor),
    );

  it('record-customer-payment takes 4.000 as 4.00 and refuses 4.001', async () => {
    const pay = (amount: string) =>
      fixture.service.request(
        `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}` +
          `&financeOrderId=${DEMO_ORDER_ID}&amount=${amount}&currency=USD`,
      );
    const before = await paymentsOfDemoOrder();
    const refused = await pay('4.001');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).error.code).toBe('INVALID_PAYMENT_AMOUNT');
    const taken = await pay('4.000');
    expect(taken.status, await taken.clone().text()).toBe(200);
    expect(await paymentsOfDemoOrder()).toEqual([...before, '400']);
  });

  it('recordInStorePayment takes "4.000" as 4.00 and refuses "4.001"', async () => {
    const MUTATION = `mutation ($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { payment { amount } } }`;
    const input = (amount: string) => ({
      input: {
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        financeOrderId: DEMO_ORDER_ID,
        amount,
        currency: 'USD',
      },
    });
    expect((await graphql(RETAIL, MUTATION, input('4.001'))).errors?.[0]?.extensions.code).toBe(
      'INVALID_PAYMENT_AMOUNT',
    );
    expect((await ok(RETAIL, MUTATION, input('4.000'))).recordInStorePayment.payment.amount).toBe('4.00');
  });

  it('a vendor\'s notification takes the JSON number 4.000 and the string "4.000" as 4.00, and refuses 4.001', async () => {
    const before = await paymentsOfDemoOrder();
    const refused = await notify(`"amount":4.001,"deviceTag":"${DEMO_DEVICE_TAG}"`);
    expect(refused.body.error?.code).toBe('INVALID_PAYMENT_AMOUNT');
    expect((await notify(`"amount":4.000,"deviceTag":"${DEMO_DEVICE_TAG}"`)).status).toBe(200);
    expect((await notify(`"amount":"4.000","deviceTag":"${DEMO_DEVICE_TAG}"`)).status).toBe(200);
    expect(await paymentsOfDemoOrder()).toEqual([...before, '400', '400']);
  });

  it('createPaymentReference and daysBoughtBy take "4.000" as 4.00; a reference for 4.00 is paid by 4.000', async () => {
    const CREATE = `mutation ($input: CreatePaymentReferenceInput!) { createPaymentReference(input: $input) { ${REFERENCE} } }`;
    const refused = await graphql(PARTNER, CREATE, { input: { financeOrderId: DEMO_ORDER_ID, amount: '4.001' } });
    expect(refused.errors?.[0]?.extensions.code).toBe('INVALID_PAYMENT_AMOUNT');
    const { createPaymentReference: reference } = await ok(PARTNER, CREATE, {
      input: { financeOrderId: DEMO_ORDER_ID, amount: '4.000' },
    });
    expect(reference.amount).toBe('4.00');
    const paid = await notify(`"amount":4.000,"deviceTag":"${DEMO_DEVICE_TAG}","paymentReference":"${reference.code}"`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);

    const DAYS = `query ($id: ID!, $amount: Decimal!) { financeOrder(id: $id) { repayment {
      four: daysBoughtBy(amount: "4.00") other: daysBoughtBy(amount: $amount) } } }`;
    const { repayment } = (await ok(PARTNER, DAYS, { id: DEMO_ORDER_ID, amount: '4.000' })).financeOrder;
    expect(repayment.other).toBe(repayment.four);
    const tooPrecise = await graphql(PARTNER, DAYS, { id: DEMO_ORDER_ID, amount: '4.001' });
    expect(tooPrecise.errors?.[0]?.extensions.code).toBe('INVALID_ARGUMENT');
  });
});
