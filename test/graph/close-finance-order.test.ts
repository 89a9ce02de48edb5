// Closing an order through the service's doors (docs/decisions.md 44), on PGlite and Postgres: demo order
// 4000012, 200 days past due (its partner's sandbox clock moved), written off: WRITTEN_OFF, balance 0
// cleared by an adjustment list-transactions shows with its note, no timeline event afterwards with the
// clock moved a year and the scheduler run, payments refused with nothing written (in store, by vendors,
// through a payment reference made before the close), its device still
// answered LOCKED and never financed again. Demo order 4000004 closed on its device's return: the
// device's old credential refused, the device financed again on a new cart for another customer, and
// the lookup by IMEI shows the new order. Refusals (a second close, a paid-off order, non-operator keys),
// the audit record, and a clean ledger.
import { describe, expect, it } from 'vitest';
import {
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import { fireAllDueInstants } from '../../src/modules/timeline/scheduler.js';
import { type ServiceFixture, useSeededService } from '../support/fixtures.js';
import { CREATE_CART, FINANCE_CART } from '../support/provisioning.js';

const DEMO = '1';
const LATE_ORDER = '4000012';
const LATE_DEVICE = { tag: 'DTSTBBD', imei: '123456789012362' };
const PAID_OFF_ORDER = '4000010';
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const DAY = 86_400;

type GraphqlError = { message: string; extensions: { code: string } };

const fixture: ServiceFixture = useSeededService();

async function graphql(headers: Record<string, string>, query: string, variables = {}) {
  const { status, body } = await fixture.service.graphql(query, headers, variables);
  expect(body.errors as GraphqlError[] | undefined, JSON.stringify(body.errors)).toBeUndefined();
  expect(status).toBe(200);
  return body.data as any;
}
async function refusal(headers: Record<string, string>, query: string, variables = {}) {
  const { body } = await fixture.service.graphql(query, headers, variables);
  const errors = body.errors as GraphqlError[] | undefined;
  expect(errors, 'a refusal').toHaveLength(1);
  return errors![0]!;
}

const CLOSE = `mutation ($input: CloseFinanceOrderInput!) { closeFinanceOrder(input: $input) {
  id status closedAt closedReason closedNote remainingBalance totalPaid fullyPaid secureStatus lockAt paymentOptions { type } } }`;
const close = (financeOrderId: string, reason: string, note: string) => ({ input: { financeOrderId, reason, note } });

const ISSUE = 'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }';
const deviceId = async (tag: string) =>
  (await graphql(OPERATOR, 'query($t: String!) { device(tag: $t) { id } }', { t: tag })).device.id as string;
const checkin = (credential: string, imei: string) =>
  fixture.service.request('/devices/v1/checkin', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    body: JSON.stringify({ imei, simNumber: '8901000000000000001', appVersion: '1.4.2', nonce: 'n'.repeat(32) }),
  });

/** Demo Retail's partner time, as its sandbox clock keeps it: moved to `at` (Unix seconds). */
async function moveClockTo(at: number): Promise<void> {
  await graphql(OPERATOR, 'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
    input: { partnerId: DEMO, now: at },
  });
}

const rows = async (table: string) => Number((await fixture.database.db(table).count({ n: '*' }).first())!.n);
const written = async () => ({
  payments: await rows('payments'),
  transactions: await rows('transactions'),
  events: await rows('events'),
  references: await rows('payment_references'),
  idempotencyKeys: await rows('idempotency_keys'),
  vendorNotifications: await rows('vendor_notifications'),
});
const lastSequence = async () =>
  String((await fixture.database.db('events').max({ sequence: 'sequence' }).first())?.sequence ?? '0');

const payInStore = (orderId: string, merchantId: string, clerkId: string, amount: string) =>
  fixture.service.request(
    `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${merchantId}&salesClerkId=${clerkId}` +
      `&financeOrderId=${orderId}&amount=${amount}&currency=USD`,
    { headers: { 'idempotency-key': `close-test-${orderId}-${amount}` } },
  );
const lookup = async (locator: string) => {
  const response = await fixture.service.request(
    `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${locator}`,
  );
  return { status: response.status, body: (await response.json()) as any };
};

describe('closeFinanceOrder through the doors', () => {
  let closedAt: number;
  let afterClose: string;
  /** A payment reference made on the late order before it was closed. */
  let referenceCode: string;

  it("refuses every key but an operator's, and a note that is empty or longer than 500 characters", async () => {
    for (const key of ['demo-partner-key', 'demo-retail-key', 'demo-vendor-key']) {
      const error = await refusal({ 'x-api-key': key }, CLOSE, close(LATE_ORDER, 'WRITE_OFF', 'gone'));
      expect(error.extensions.code).toBe('FORBIDDEN');
    }
    for (const note of ['  ', 'n'.repeat(501)]) {
      const error = await refusal(OPERATOR, CLOSE, close(LATE_ORDER, 'WRITE_OFF', note));
      expect(error.extensions.code).toBe('INVALID_ARGUMENT');
    }
    expect((await refusal(OPERATOR, CLOSE, close('4000999', 'WRITE_OFF', 'x'))).extensions.code).toBe(
      'RESOURCE_NOT_FOUND',
    );
    const paidOff = await refusal(OPERATOR, CLOSE, close(PAID_OFF_ORDER, 'DEVICE_RETURNED', 'handed back'));
    expect(paidOff.extensions.code).toBe('FINANCE_ORDER_PAID_OFF');
    expect(await rows('adjustments')).toBe(1);
  });

  it('writes off an order 200 days past due: WRITTEN_OFF, balance 0, cleared by an adjustment list-transactions shows', async () => {
    const before = (
      await graphql(OPERATOR, 'query($id: ID!) { financeOrder(id: $id) { lockAt status } }', { id: LATE_ORDER })
    ).financeOrder;
    expect(before.status).toBe('LOCKED');
    await moveClockTo(before.lockAt + 200 * DAY);
    referenceCode = (
      await graphql(
        OPERATOR,
        'mutation($input: CreatePaymentReferenceInput!) { createPaymentReference(input: $input) { code } }',
        { input: { financeOrderId: LATE_ORDER, amount: '20.00' } },
      )
    ).createPaymentReference.code;
    const { closeFinanceOrder: order } = await graphql(
      OPERATOR,
      CLOSE,
      close(LATE_ORDER, 'WRITE_OFF', 'no payment in 200 days'),
    );
    closedAt = order.closedAt;
    afterClose = await lastSequence();
    expect(order).toMatchObject({
      id: LATE_ORDER,
      status: 'WRITTEN_OFF',
      closedReason: 'WRITE_OFF',
      closedNote: 'no payment in 200 days',
      remainingBalance: '0.00',
      totalPaid: '0.00',
      fullyPaid: false,
      secureStatus: 'LOCKED',
      lockAt: before.lockAt,
      paymentOptions: [],
    });
    expect(closedAt).toBeGreaterThanOrEqual(before.lockAt + 200 * DAY);
    const listed = await fixture.service.request(
      `/v1/list-transactions.php?key=demo-partner-key&starttime=${closedAt - DAY}&endtime=${closedAt + DAY}`,
    );
    expect(listed.status).toBe(200);
    const { transactions } = (await listed.json()) as { transactions: any[] };
    expect(transactions).toEqual([
      {
        type: 'adjustment',
        time: closedAt,
        amount: -240,
        currency: 'USD',
        merchant: { id: 1000201, name: expect.any(String) },
        adjustment: {
          id: expect.any(Number),
          type: 'payment',
          notes: `write-off of financeOrder ${LATE_ORDER}: no payment in 200 days`,
        },
      },
    ]);
    const audit = await fixture.database.db('audit_events').where({ action: 'finance_order.close' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_kind: 'operator', subject_kind: 'finance_order', subject_id: LATE_ORDER });
    const events = await fixture.database
      .db('events')
      .where('sequence', '>', '0')
      .where({ type: 'finance_order.written_off' });
    expect(events.map((event) => event.data)).toEqual([
      {
        financeOrder: {
          id: LATE_ORDER,
          status: 'WRITTEN_OFF',
          closedAt,
          closedReason: 'WRITE_OFF',
          note: 'no payment in 200 days',
          clearedAmount: '240.00',
          currency: 'USD',
        },
        adjustment: { id: String(transactions[0].adjustment.id) },
        device: LATE_DEVICE,
      },
    ]);
  });

  it('refuses a second close, and every payment on the written-off order, writing nothing', async () => {
    const again = await refusal(OPERATOR, CLOSE, close(LATE_ORDER, 'DEVICE_RETURNED', 'again'));
    expect(again.extensions.code).toBe('FINANCE_ORDER_CLOSED');
    const before = await written();
    const paid = await payInStore(LATE_ORDER, '1000201', '5320', '20.00');
    expect(paid.status).toBe(409);
    expect(((await paid.json()) as any).error).toEqual({
      code: 'FINANCE_ORDER_CLOSED',
      message: `finance order ${LATE_ORDER} was written off; it takes no payment`,
    });
    const reference = await refusal(
      OPERATOR,
      'mutation($input: CreatePaymentReferenceInput!) { createPaymentReference(input: $input) { code } }',
      { input: { financeOrderId: LATE_ORDER, amount: '20.00' } },
    );
    expect(reference.extensions.code).toBe('FINANCE_ORDER_CLOSED');
    // A vendor: the quote and the notification (by device tag, and by the customer's phone number).
    const token = (
      await graphql({}, 'mutation ($apiKey: String!) { createAccessToken(apiKey: $apiKey) { accessToken } }', {
        apiKey: 'demo-vendor-key',
      })
    ).createAccessToken.accessToken as string;
    const vendor = { authorization: `Bearer ${token}` };
    const quote = await refusal(vendor, 'query($t: String!) { deviceRepayment(deviceTag: $t) { financeOrderId } }', {
      t: LATE_DEVICE.tag,
    });
    expect(quote.extensions.code).toBe('FINANCE_ORDER_CLOSED');
    for (const [reference, locator] of [
      ['CLOSED-1', { deviceTag: LATE_DEVICE.tag }],
      ['CLOSED-2', { phoneNumber: '5512345680' }],
      ['CLOSED-3', { deviceTag: LATE_DEVICE.tag, paymentReference: referenceCode }],
    ] as const) {
      const notified = await fixture.service.request('/payments/v1/notification', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...vendor },
        body: JSON.stringify({ paymentVendor: 'demo-vendor', amount: '20.00', currency: 'USD', reference, ...locator }),
      });
      expect(notified.status).toBe(409);
      expect(((await notified.json()) as any).error.code).toBe('FINANCE_ORDER_CLOSED');
    }
    const release = await refusal(
      OPERATOR,
      'mutation($input: SendDeviceCommandInput!) { sendDeviceCommand(input: $input) { id } }',
      { input: { deviceId: await deviceId(LATE_DEVICE.tag), type: 'RELEASE' } },
    );
    expect(release.extensions.code).toBe('RELEASE_NOT_ALLOWED');
    expect(await written()).toEqual(before);
  });

  it('answers the written-off device LOCKED at the door, and never finances it again', async () => {
    const lateDevice = await deviceId(LATE_DEVICE.tag);
    const { issueDeviceCredential } = await graphql(OPERATOR, ISSUE, { id: lateDevice });
    const answer = await checkin(issueDeviceCredential.credential, LATE_DEVICE.imei);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as any).data).toMatchObject({ lockState: 'LOCKED', reason: 'PAYMENT_OVERDUE' });
    const looked = await lookup(LATE_DEVICE.imei);
    expect(looked.body.device.secureStatus).toBe('Device Locked');
    expect(looked.body.financeOrder.remainingBalance).toBe(0);
    expect(looked.body.paymentOptions).toEqual([]);
  });

  it('closes an order on its device return: the old credential refused, the device financed again for another customer', async () => {
    const demoDevice = await deviceId(DEMO_DEVICE_TAG);
    const { issueDeviceCredential } = await graphql(OPERATOR, ISSUE, { id: demoDevice });
    const credential = issueDeviceCredential.credential as string;
    expect((await checkin(credential, DEMO_DEVICE_IMEI)).status).toBe(200);
    const { closeFinanceOrder: order } = await graphql(
      OPERATOR,
      CLOSE,
      close(DEMO_ORDER_ID, 'DEVICE_RETURNED', 'handed back in store'),
    );
    expect(order).toMatchObject({ status: 'RETURNED', remainingBalance: '0.00', secureStatus: 'LOCKED' });
    const refused = await checkin(credential, DEMO_DEVICE_IMEI);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as any).error.code).toBe('INVALID_DEVICE_CREDENTIAL');
    // Back in stock: no customer holds it, so the IMEI finds no one until it is sold again.
    expect((await lookup(DEMO_DEVICE_IMEI)).status).toBe(404);

    // Sold again, to customer 4000006 (whose own order is paid off), on a new cart of its model.
    const cart = await graphql(OPERATOR, CREATE_CART, {
      input: {
        partnerId: DEMO,
        cartTag: 'CART-RESOLD-1',
        customerId: '4000006',
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        deviceModelId: '3',
        deviceDescription: 'Black, 32 GB, returned',
        currency: 'USD',
        purchaseAmount: '200.00',
        downPayment: '50.00',
        pricePreTax: '200.00',
        monthlyCost: '15.00',
        weeklyCost: '4.00',
        months: 12,
      },
    });
    expect(cart.createCart.cartTag).toBe('CART-RESOLD-1');
    const { financeCart: resold } = await graphql(OPERATOR, FINANCE_CART, {
      input: { partnerId: DEMO, cartTag: 'CART-RESOLD-1', deviceId: demoDevice },
    });
    expect(resold.customer.id).toBe('4000006');
    const looked = await lookup(DEMO_DEVICE_IMEI);
    expect(looked.status).toBe(200);
    expect(looked.body.customer.id).toBe(4000006);
    expect(looked.body.financeOrder.id).toBe(Number(resold.id));
    expect(looked.body.device.secureStatus).toBe('Device Active And Secured');
    const device = await graphql(OPERATOR, 'query($t: String!) { device(tag: $t) { financeOrder { id } } }', {
      t: DEMO_DEVICE_TAG,
    });
    expect(device.device.financeOrder.id).toBe(resold.id);
  });

  it('refuses to finance the written-off device again', async () => {
    await graphql(OPERATOR, CREATE_CART, {
      input: {
        partnerId: DEMO,
        cartTag: 'CART-WRITTEN-OFF',
        customerId: '4000007',
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        deviceModelId: '12',
        currency: 'USD',
        purchaseAmount: '200.00',
        downPayment: '50.00',
        pricePreTax: '200.00',
        monthlyCost: '15.00',
        weeklyCost: '4.00',
        months: 12,
      },
    });
    const refused = await refusal(OPERATOR, FINANCE_CART, {
      input: { partnerId: DEMO, cartTag: 'CART-WRITTEN-OFF', deviceId: await deviceId(LATE_DEVICE.tag) },
    });
    expect(refused.extensions.code).toBe('INVALID_ARGUMENT');
    expect(refused.message).toContain(`was written off under finance order ${LATE_ORDER}`);
  });

  it('writes no timeline event for a closed order, with the clock moved a year and the scheduler run', async () => {
    const db = fixture.database.db;
    // Defence in depth: an instant left pending on a closed order is claimed and cancelled, not fired.
    await db('lock_timeline').insert({
      partner_id: DEMO,
      finance_order_id: LATE_ORDER,
      kind: 'lock',
      lock_at: new Date(closedAt * 1000),
      due_at: new Date(closedAt * 1000),
      fire_at: new Date(Date.now() - 60_000),
    });
    // New settings make every open order's instants again (reschedulePartner): none for a closed one.
    await graphql(
      OPERATOR,
      `mutation ($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id } }`,
      { input: { partnerId: DEMO, lockGraceHours: 720, lockReminderDays: [3, 1] } },
    );
    expect(await db('lock_timeline').where({ finance_order_id: DEMO_ORDER_ID, state: 'pending' })).toEqual([]);
    await moveClockTo(closedAt + 365 * DAY);
    await fireAllDueInstants(db);
    expect(await db('lock_timeline').where({ finance_order_id: LATE_ORDER, state: 'pending' })).toEqual([]);
    expect(await db('lock_timeline').where({ finance_order_id: DEMO_ORDER_ID, state: 'pending' })).toEqual([]);
    const events = await db('events')
      .where({ partner_id: DEMO })
      .where('sequence', '>', afterClose)
      .where('type', 'like', 'device.%')
      .whereRaw(`data->'financeOrder'->>'id' in (?, ?)`, [LATE_ORDER, DEMO_ORDER_ID])
      .select('type', 'data');
    expect(events).toEqual([]);
    expect((await checkLedger(db)).problems).toEqual([]);
  });
});
