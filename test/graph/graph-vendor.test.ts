// Payment vendors on the graph: buying access tokens with an API key, and createPaymentNotification
// (the vendor's JSON Schema, the device locators, the money rules, idempotency by vendor reference,
// and who may notify). Every refusal is checked to leave the database exactly as it was.
import { describe, expect, it } from 'vitest';
import {
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { hashApiKey } from '../../src/modules/auth/keys.js';
import { issueAccessToken } from '../../src/modules/auth/tokens.js';
import { useSeededService } from '../support/fixtures.js';
import { TEST_TOKENS } from '../support/service.js';

const fixture = useSeededService();
const service = () => fixture.service;
const db = () => fixture.database.db;

const CREATE_TOKEN = `mutation ($apiKey: String!) {
  createAccessToken(apiKey: $apiKey) { accessToken tokenType expiresIn expiresAt }
}`;

const NOTIFY = `mutation ($notification: JSON!) {
  createPaymentNotification(notification: $notification) {
    message
    receipt {
      payment { id amount currency channel vendorReference paymentVendor { name } financeOrder { id } }
      deviceTag remainingBalance currency fullyPaid replayed
    }
  }
}`;

const VIEWER = '{ viewer { kind keyKind viaAccessToken partner { name } paymentVendor { name displayName } } }';

const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** USD/MXN minor units as the graph prints them: 22000n -> "220.00". */
const twoPlaces = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;

async function buyToken(apiKey: string): Promise<string> {
  const { body } = await service().graphql(CREATE_TOKEN, {}, { apiKey });
  expect(body.errors).toBeUndefined();
  return body.data.createAccessToken.accessToken as string;
}

const notify = (token: string, notification: unknown) => service().graphql(NOTIFY, bearer(token), { notification });

async function totalPaid(orderId: number): Promise<bigint> {
  const row = await db()('finance_orders').where({ id: orderId }).first('total_paid_minor');
  return BigInt(row.total_paid_minor);
}

/** Still to pay on an order, from its row: monthly cost * months - total paid. */
async function remaining(orderId: number): Promise<bigint> {
  const row = await db()('finance_orders')
    .where({ id: orderId })
    .first('monthly_cost_minor', 'months', 'total_paid_minor');
  return BigInt(row.monthly_cost_minor) * BigInt(row.months) - BigInt(row.total_paid_minor);
}

const countOf = async (table: string): Promise<number> => Number((await db()(table).count({ n: '*' }))[0]!.n);

/** Everything a notification could write: payments, notification records, transactions, every balance. */
async function snapshot() {
  return {
    payments: await countOf('payments'),
    notifications: await countOf('vendor_notifications'),
    transactions: await countOf('transactions'),
    balances: await db()('finance_orders').select('partner_id', 'id', 'total_paid_minor').orderBy(['partner_id', 'id']),
  };
}

/** Sends a notification that must be refused with `code`, and checks that nothing was written. */
async function expectRefused(token: string, notification: unknown, code: string) {
  const before = await snapshot();
  const { status, body } = await notify(token, notification);
  expect(status).toBe(200);
  // The field is nullable (decisions.md 36): its refusal nulls it alone.
  expect(body.data).toEqual({ createPaymentNotification: null });
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0].extensions.code).toBe(code);
  expect(await snapshot()).toEqual(before);
  return body.errors[0] as { message: string; extensions: Record<string, unknown> };
}

/** Sends a notification that must be recorded, and checks what it wrote. */
async function expectRecorded(
  token: string,
  notification: Record<string, unknown>,
  expected: { orderId: number; amountMinor: bigint; deviceTag: string; currency: string; vendor: string },
) {
  const before = await snapshot();
  const paidBefore = await totalPaid(expected.orderId);
  const remainingBefore = await remaining(expected.orderId);
  const { status, body } = await notify(token, notification);
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  const result = body.data.createPaymentNotification;
  const amount = twoPlaces(expected.amountMinor);
  const remainingAfter = remainingBefore - expected.amountMinor;

  expect(result.message).toBe(`payment of ${amount} ${expected.currency} recorded for device ${expected.deviceTag}`);
  expect(result.receipt).toEqual({
    payment: {
      id: expect.any(String),
      amount,
      currency: expected.currency,
      channel: 'VENDOR',
      vendorReference: notification.reference,
      paymentVendor: { name: expected.vendor },
      financeOrder: { id: String(expected.orderId) },
    },
    deviceTag: expected.deviceTag,
    remainingBalance: twoPlaces(remainingAfter),
    currency: expected.currency,
    fullyPaid: remainingAfter === 0n,
    replayed: false,
  });

  // In the database: one vendor payment, the balance moved, one notification record, and no
  // partner transaction (a vendor's collection is neither the partner's cash nor commission).
  const payment = await db()('payments').where({ id: result.receipt.payment.id }).first();
  const vendor = await db()('payment_vendors').where({ name: expected.vendor }).first('id');
  expect(payment).toMatchObject({
    finance_order_id: String(expected.orderId),
    channel: 'vendor',
    amount_minor: expected.amountMinor.toString(),
    currency: expected.currency,
    vendor_id: vendor.id,
    vendor_reference: notification.reference,
    merchant_id: null,
    clerk_id: null,
  });
  expect(await totalPaid(expected.orderId)).toBe(paidBefore + expected.amountMinor);
  const after = await snapshot();
  expect(after.payments).toBe(before.payments + 1);
  expect(after.notifications).toBe(before.notifications + 1);
  expect(after.transactions).toBe(before.transactions);
  expect(
    Number((await db()('transactions').where({ payment_id: result.receipt.payment.id }).count({ n: '*' }))[0]!.n),
  ).toBe(0);
  return result;
}

const demoVendorKeyId = async (): Promise<string> =>
  (
    await db()('api_keys')
      .where({ key_hash: hashApiKey('demo-vendor-key') })
      .first('id')
  ).id as string;

describe('createAccessToken', () => {
  it('trades a vendor key or an operator key for a Bearer token that lasts an hour, with no other credential', async () => {
    for (const apiKey of ['demo-vendor-key', 'demo-operator-key', 'other-vendor-key']) {
      const before = Math.floor(Date.now() / 1000);
      const { status, body } = await service().graphql(CREATE_TOKEN, {}, { apiKey });
      const after = Math.floor(Date.now() / 1000);
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      const token = body.data.createAccessToken;
      expect(token.tokenType).toBe('Bearer');
      expect(token.expiresIn).toBe(3600);
      expect(token.accessToken).toMatch(/^dfs1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(token.expiresAt).toBeGreaterThanOrEqual(before + 3600);
      expect(token.expiresAt).toBeLessThanOrEqual(after + 3600);
    }
  });

  it('refuses an empty key as missing, an unknown key as not valid, and partner and retail keys as not authorized to buy tokens', async () => {
    // The token route's rule, held by the graph: POST /payments/v1/token passes its body's apiKey here.
    const empty = (await service().graphql(CREATE_TOKEN, {}, { apiKey: '' })).body;
    expect(empty.data).toBeNull();
    expect(empty.errors[0]).toMatchObject({
      message: 'the action is not authorized: apiKey is a required field',
      extensions: { code: 'MISSING_API_KEY' },
    });
    const unknown = (await service().graphql(CREATE_TOKEN, {}, { apiKey: 'no-such-key' })).body;
    expect(unknown.data).toBeNull();
    expect(unknown.errors[0].extensions.code).toBe('INVALID_API_KEY');
    expect(unknown.errors[0].message).toBe(
      'the action is not authorized: the API key is not valid (unknown, revoked or expired)',
    );
    // The caller holds a working key, so saying why it cannot buy a token reveals nothing new.
    for (const apiKey of ['demo-partner-key', 'demo-retail-key', 'other-partner-key']) {
      const { body } = await service().graphql(CREATE_TOKEN, {}, { apiKey });
      expect(body.data).toBeNull();
      expect(body.errors[0].extensions.code).toBe('INVALID_API_KEY');
      expect(body.errors[0].message).toBe(
        'the action is not authorized: partner and retail keys are used directly; only vendor and operator keys buy access tokens',
      );
    }
  });
});

describe('viewer with an access token', () => {
  it('is the vendor, via an access token', async () => {
    const token = await buyToken('demo-vendor-key');
    expect((await service().graphql(VIEWER, bearer(token))).body).toEqual({
      data: {
        viewer: {
          kind: 'VENDOR',
          keyKind: 'VENDOR',
          viaAccessToken: true,
          partner: null,
          paymentVendor: { name: 'demo-vendor', displayName: 'Demo Vendor' },
        },
      },
    });
    // The key itself, for comparison: the same vendor, not via a token.
    expect((await service().graphql(VIEWER, { 'x-api-key': 'demo-vendor-key' })).body.data.viewer).toEqual({
      kind: 'VENDOR',
      keyKind: 'VENDOR',
      viaAccessToken: false,
      partner: null,
      paymentVendor: { name: 'demo-vendor', displayName: 'Demo Vendor' },
    });
    const otherToken = await buyToken('other-vendor-key');
    expect((await service().graphql(VIEWER, bearer(otherToken))).body.data.viewer.paymentVendor).toEqual({
      name: 'other-vendor',
      displayName: 'Other Vendor',
    });
    const operatorToken = await buyToken('demo-operator-key');
    expect((await service().graphql(VIEWER, bearer(operatorToken))).body.data.viewer).toEqual({
      kind: 'OPERATOR',
      keyKind: 'OPERATOR',
      viaAccessToken: true,
      partner: null,
      paymentVendor: null,
    });
  });
});

describe('createPaymentNotification: recording', () => {
  it('records a payment found by deviceTag, with the amount as a string', async () => {
    const token = await buyToken('demo-vendor-key');
    const result = await expectRecorded(
      token,
      { paymentVendor: 'demo-vendor', amount: '20.00', currency: 'USD', reference: 'REC-TAG-1', deviceTag: 'DTSTBBD' },
      { orderId: 4000012, amountMinor: 2000n, deviceTag: 'DTSTBBD', currency: 'USD', vendor: 'demo-vendor' },
    );
    expect(result.message).toBe('payment of 20.00 USD recorded for device DTSTBBD');
  });

  it('records a payment found by IMEI, with the amount as a JSON number', async () => {
    const token = await buyToken('demo-vendor-key');
    await expectRecorded(
      token,
      { paymentVendor: 'demo-vendor', amount: 5.5, currency: 'USD', reference: 'REC-IMEI-1', imei: '123456789012362' },
      { orderId: 4000012, amountMinor: 550n, deviceTag: 'DTSTBBD', currency: 'USD', vendor: 'demo-vendor' },
    );
  });

  it("records a payment found by the customer's phone number", async () => {
    const token = await buyToken('demo-vendor-key');
    await expectRecorded(
      token,
      {
        paymentVendor: 'demo-vendor',
        amount: 7,
        currency: 'USD',
        reference: 'REC-PHONE-1',
        phoneNumber: '14084930580',
      },
      {
        orderId: Number(DEMO_ORDER_ID),
        amountMinor: 700n,
        deviceTag: DEMO_DEVICE_TAG,
        currency: 'USD',
        vendor: 'demo-vendor',
      },
    );
    await expectRecorded(
      token,
      {
        paymentVendor: 'demo-vendor',
        amount: '1.25',
        currency: 'USD',
        reference: 'REC-PHONE-2',
        phoneNumber: '5512345680',
      },
      { orderId: 4000012, amountMinor: 125n, deviceTag: 'DTSTBBD', currency: 'USD', vendor: 'demo-vendor' },
    );
  });

  it('records a payment found by financeOrderId, as an integer or a string', async () => {
    const token = await buyToken('demo-vendor-key');
    await expectRecorded(
      token,
      {
        paymentVendor: 'demo-vendor',
        amount: '10.00',
        currency: 'USD',
        reference: 'REC-ORDER-1',
        financeOrderId: Number(DEMO_ORDER_ID),
      },
      {
        orderId: Number(DEMO_ORDER_ID),
        amountMinor: 1000n,
        deviceTag: DEMO_DEVICE_TAG,
        currency: 'USD',
        vendor: 'demo-vendor',
      },
    );
    await expectRecorded(
      token,
      {
        paymentVendor: 'demo-vendor',
        amount: '0.01',
        currency: 'USD',
        reference: 'REC-ORDER-2',
        financeOrderId: DEMO_ORDER_ID,
      },
      {
        orderId: Number(DEMO_ORDER_ID),
        amountMinor: 1n,
        deviceTag: DEMO_DEVICE_TAG,
        currency: 'USD',
        vendor: 'demo-vendor',
      },
    );
  });

  it("records other-vendor's notification for another partner's order, in that order's currency", async () => {
    const token = await buyToken('other-vendor-key');
    await expectRecorded(
      token,
      {
        paymentVendor: 'other-vendor',
        amount: '16.00',
        currency: 'MXN',
        reference: 'REC-OTHER-1',
        deviceTag: 'DTSTBBE',
      },
      { orderId: 5000002, amountMinor: 1600n, deviceTag: 'DTSTBBE', currency: 'MXN', vendor: 'other-vendor' },
    );
  });

  it('pays an order off exactly: remaining 0.00 and fullyPaid, after which any amount exceeds the balance', async () => {
    // An order of its own (2 x 10.00 USD), so the other tests' payments cannot change its balance.
    const partner = await db()('partners').where({ name: 'Demo Retail' }).first('id');
    await db()('customers').insert({
      partner_id: partner.id,
      id: 4000099,
      name: 'Pays Off',
      phone_number: '5512340099',
    });
    const [device] = await db()('devices')
      .insert({ partner_id: partner.id, customer_id: 4000099, model_id: 12, tag: 'DTPAYOFF', imei: '123456789019999' })
      .returning(['id']);
    await db()('device_directory').insert({
      imei: '123456789019999',
      tag: 'DTPAYOFF',
      partner_id: partner.id,
      device_id: device.id,
    });
    await db()('finance_orders').insert({
      partner_id: partner.id,
      id: 4000099,
      customer_id: 4000099,
      device_id: device.id,
      merchant_id: Number(DEMO_MERCHANT_ID),
      clerk_id: Number(DEMO_CLERK_ID),
      currency: 'USD',
      purchase_minor: '3000',
      down_payment_minor: '1000',
      price_pre_tax_minor: '3000',
      monthly_cost_minor: '1000',
      weekly_cost_minor: '250',
      months: 2,
      total_paid_minor: '0',
      ordered_at: new Date(Date.now() - 5 * 86_400_000),
    });

    const token = await buyToken('demo-vendor-key');
    const first = await expectRecorded(
      token,
      { paymentVendor: 'demo-vendor', amount: '12.50', currency: 'USD', reference: 'PAYOFF-1', deviceTag: 'DTPAYOFF' },
      { orderId: 4000099, amountMinor: 1250n, deviceTag: 'DTPAYOFF', currency: 'USD', vendor: 'demo-vendor' },
    );
    expect(first.receipt).toMatchObject({ remainingBalance: '7.50', fullyPaid: false });
    const last = await expectRecorded(
      token,
      { paymentVendor: 'demo-vendor', amount: '7.50', currency: 'USD', reference: 'PAYOFF-2', financeOrderId: 4000099 },
      { orderId: 4000099, amountMinor: 750n, deviceTag: 'DTPAYOFF', currency: 'USD', vendor: 'demo-vendor' },
    );
    expect(last.message).toBe('payment of 7.50 USD recorded for device DTPAYOFF');
    expect(last.receipt).toMatchObject({ remainingBalance: '0.00', fullyPaid: true });
    expect(await totalPaid(4000099)).toBe(2000n);

    const error = await expectRefused(
      token,
      { paymentVendor: 'demo-vendor', amount: '0.01', currency: 'USD', reference: 'PAYOFF-3', deviceTag: 'DTPAYOFF' },
      'AMOUNT_EXCEEDS_BALANCE',
    );
    expect(error.extensions.remainingBalance).toBe('0.00');
  });
});

describe('createPaymentNotification: idempotency by vendor reference', () => {
  it('replays the same body: the same payment, nothing new written', async () => {
    const token = await buyToken('demo-vendor-key');
    const notification = {
      paymentVendor: 'demo-vendor',
      amount: '3.00',
      currency: 'USD',
      reference: 'IDEM-1',
      deviceTag: DEMO_DEVICE_TAG,
    };
    const first = await expectRecorded(token, notification, {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 300n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });

    const before = await snapshot();
    const again = await notify(token, notification);
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.createPaymentNotification).toEqual({
      message: first.message,
      receipt: { ...first.receipt, replayed: true },
    });
    // The same body with its keys in another order, and with a fresh token, is the same request.
    const reordered = {
      deviceTag: DEMO_DEVICE_TAG,
      reference: 'IDEM-1',
      currency: 'USD',
      amount: '3.00',
      paymentVendor: 'demo-vendor',
    };
    const third = await notify(await buyToken('demo-vendor-key'), reordered);
    expect(third.body.data.createPaymentNotification.receipt.payment.id).toBe(first.receipt.payment.id);
    expect(third.body.data.createPaymentNotification.receipt.replayed).toBe(true);
    expect(await snapshot()).toEqual(before);
    expect(await db()('payments').where({ vendor_reference: 'IDEM-1' }).select('id')).toEqual([
      { id: first.receipt.payment.id },
    ]);
  });

  it('refuses the same reference with a different amount with IDEMPOTENCY_CONFLICT, writing nothing', async () => {
    const token = await buyToken('demo-vendor-key');
    const notification = {
      paymentVendor: 'demo-vendor',
      amount: '2.00',
      currency: 'USD',
      reference: 'IDEM-2',
      deviceTag: DEMO_DEVICE_TAG,
    };
    const first = await expectRecorded(token, notification, {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 200n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });
    const error = await expectRefused(token, { ...notification, amount: '2.50' }, 'IDEMPOTENCY_CONFLICT');
    expect(error.message).toBe(
      'the reference "IDEM-2" was already used for a different request; use a new one for a new payment',
    );
    // The same reference for another device is another request too.
    await expectRefused(token, { ...notification, deviceTag: 'DTSTBBD' }, 'IDEMPOTENCY_CONFLICT');
    expect(await db()('payments').where({ vendor_reference: 'IDEM-2' }).select('id', 'amount_minor')).toEqual([
      { id: first.receipt.payment.id, amount_minor: '200' },
    ]);
  });

  it('records one payment when the same notification arrives several times at once', async () => {
    const token = await buyToken('demo-vendor-key');
    const notification = {
      paymentVendor: 'demo-vendor',
      amount: '0.50',
      currency: 'USD',
      reference: 'IDEM-PARALLEL',
      deviceTag: DEMO_DEVICE_TAG,
    };
    const paidBefore = await totalPaid(Number(DEMO_ORDER_ID));
    const paymentsBefore = await countOf('payments');
    const results = await Promise.all(Array.from({ length: 5 }, () => notify(token, notification)));
    for (const { body } of results) expect(body.errors).toBeUndefined();
    const receipts = results.map(({ body }) => body.data.createPaymentNotification.receipt);
    expect(receipts.filter((receipt) => !receipt.replayed)).toHaveLength(1);
    expect(new Set(receipts.map((receipt) => receipt.payment.id)).size).toBe(1);
    expect(await countOf('payments')).toBe(paymentsBefore + 1);
    expect(await totalPaid(Number(DEMO_ORDER_ID))).toBe(paidBefore + 50n);
  });

  it('replays the seeded reference DEMO-VENDOR-4000010-1 with its original body: no new payment on the paid-off order', async () => {
    const token = await buyToken('demo-vendor-key');
    const seeded = await db()('payments').where({ vendor_reference: 'DEMO-VENDOR-4000010-1' }).first('id');
    expect(seeded).toBeDefined();
    const before = await snapshot();
    const { body } = await notify(token, {
      paymentVendor: 'demo-vendor',
      amount: '420.00',
      currency: 'USD',
      reference: 'DEMO-VENDOR-4000010-1',
      deviceTag: 'DTSTBBC',
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.createPaymentNotification).toEqual({
      message: 'payment of 420.00 USD recorded for device DTSTBBC',
      receipt: {
        payment: {
          id: seeded.id,
          amount: '420.00',
          currency: 'USD',
          channel: 'VENDOR',
          vendorReference: 'DEMO-VENDOR-4000010-1',
          paymentVendor: { name: 'demo-vendor' },
          financeOrder: { id: '4000010' },
        },
        deviceTag: 'DTSTBBC',
        remainingBalance: '0.00',
        currency: 'USD',
        fullyPaid: true,
        replayed: true,
      },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('keeps references per vendor: other-vendor may use a reference demo-vendor already used', async () => {
    const demoToken = await buyToken('demo-vendor-key');
    const otherToken = await buyToken('other-vendor-key');
    await expectRecorded(
      demoToken,
      {
        paymentVendor: 'demo-vendor',
        amount: '1.00',
        currency: 'MXN',
        reference: 'SHARED-REF-1',
        deviceTag: 'DTSTBBE',
      },
      { orderId: 5000002, amountMinor: 100n, deviceTag: 'DTSTBBE', currency: 'MXN', vendor: 'demo-vendor' },
    );
    await expectRecorded(
      otherToken,
      {
        paymentVendor: 'other-vendor',
        amount: '1.00',
        currency: 'MXN',
        reference: 'SHARED-REF-1',
        deviceTag: 'DTSTBBE',
      },
      { orderId: 5000002, amountMinor: 100n, deviceTag: 'DTSTBBE', currency: 'MXN', vendor: 'other-vendor' },
    );
  });
});

describe('createPaymentNotification: refusals write nothing', () => {
  const base = { paymentVendor: 'demo-vendor', amount: '1.00', currency: 'USD', deviceTag: DEMO_DEVICE_TAG };

  it('requires paymentVendor', async () => {
    const token = await buyToken('demo-vendor-key');
    const { paymentVendor: _omitted, ...withoutVendor } = base;
    const error = await expectRefused(token, { ...withoutVendor, reference: 'REF-NOVENDOR' }, 'INVALID_NOTIFICATION');
    expect(error.message).toContain('paymentVendor is a required field');
    await expectRefused(token, { ...base, paymentVendor: '', reference: 'REF-NOVENDOR-2' }, 'INVALID_NOTIFICATION');
  });

  it("forbids naming another vendor than the token's", async () => {
    const token = await buyToken('demo-vendor-key');
    const error = await expectRefused(
      token,
      { ...base, paymentVendor: 'other-vendor', reference: 'REF-WRONGVENDOR' },
      'FORBIDDEN',
    );
    expect(error.message).toContain('demo-vendor');
    // Not even an exact body that the other vendor could have sent, nor an unknown vendor name.
    await expectRefused(
      token,
      { ...base, paymentVendor: 'no-such-vendor', reference: 'REF-WRONGVENDOR-2' },
      'FORBIDDEN',
    );
  });

  it("refuses bodies that break the vendor's schema", async () => {
    const token = await buyToken('demo-vendor-key');
    const missingReference = await expectRefused(token, base, 'INVALID_NOTIFICATION');
    expect(missingReference.message).toContain('reference is a required field');

    const twoLocators = await expectRefused(
      token,
      { ...base, reference: 'REF-TWO', imei: DEMO_DEVICE_IMEI },
      'INVALID_NOTIFICATION',
    );
    expect(twoLocators.message).toContain('exactly one of deviceTag, imei, phoneNumber, financeOrderId is required');
    const noLocator = await expectRefused(
      token,
      { paymentVendor: 'demo-vendor', amount: '1.00', currency: 'USD', reference: 'REF-NONE' },
      'INVALID_NOTIFICATION',
    );
    expect(noLocator.message).toContain('exactly one of deviceTag, imei, phoneNumber, financeOrderId is required');

    const abc = await expectRefused(token, { ...base, reference: 'REF-ABC', amount: 'abc' }, 'INVALID_NOTIFICATION');
    expect(abc.message).toContain('amount');
    await expectRefused(token, { ...base, reference: 'REF-NEG', amount: -5 }, 'INVALID_NOTIFICATION');
    // A JSON number 0 breaks the schema's exclusiveMinimum before the money rules see it.
    await expectRefused(token, { ...base, reference: 'REF-ZERO-NUMBER', amount: 0 }, 'INVALID_NOTIFICATION');

    for (const currency of ['usd', 'US', 'USDX', 840]) {
      const error = await expectRefused(
        token,
        { ...base, reference: `REF-CUR-${currency}`, currency },
        'INVALID_NOTIFICATION',
      );
      expect(error.message).toContain('currency');
    }
    await expectRefused(
      token,
      { ...base, reference: 'REF-IMEI', deviceTag: undefined, imei: '12345' },
      'INVALID_NOTIFICATION',
    );
    await expectRefused(token, ['not', 'an', 'object'], 'INVALID_NOTIFICATION');
  });

  it('refuses a currency other than the order’s with CURRENCY_MISMATCH', async () => {
    const token = await buyToken('demo-vendor-key');
    const error = await expectRefused(token, { ...base, reference: 'REF-EUR', currency: 'EUR' }, 'CURRENCY_MISMATCH');
    expect(error.message).toBe('the payment is in EUR but the finance order is in USD');
    expect(error.extensions.expected).toBe('USD');
    await expectRefused(token, { ...base, reference: 'REF-USD-ON-MXN', deviceTag: 'DTSTBBE' }, 'CURRENCY_MISMATCH');
  });

  it('refuses an amount above the remaining balance with AMOUNT_EXCEEDS_BALANCE', async () => {
    const token = await buyToken('demo-vendor-key');
    const left = await remaining(Number(DEMO_ORDER_ID));
    const error = await expectRefused(
      token,
      { ...base, reference: 'REF-OVER', amount: twoPlaces(left + 1n) },
      'AMOUNT_EXCEEDS_BALANCE',
    );
    expect(error.message).toBe(
      `the payment of ${twoPlaces(left + 1n)} USD is more than the remaining balance of ${twoPlaces(left)} USD`,
    );
    expect(error.extensions.remainingBalance).toBe(twoPlaces(left));
    await expectRefused(token, { ...base, reference: 'REF-OVER-BIG', amount: 1000000 }, 'AMOUNT_EXCEEDS_BALANCE');
  });

  it('refuses a zero amount or more decimals than the currency has with INVALID_PAYMENT_AMOUNT', async () => {
    const token = await buyToken('demo-vendor-key');
    for (const [reference, amount] of [
      ['REF-AMT-0', '0'],
      ['REF-AMT-000', '0.00'],
      ['REF-AMT-18001', '18.001'],
      ['REF-AMT-NUM', 18.001],
    ] as const) {
      const error = await expectRefused(token, { ...base, reference, amount }, 'INVALID_PAYMENT_AMOUNT');
      expect(error.message).toMatch(/^the payment amount is not acceptable: /);
    }
  });

  it('answers RESOURCE_NOT_FOUND for a device, IMEI, phone or order nobody has', async () => {
    const token = await buyToken('demo-vendor-key');
    const { deviceTag: _tag, ...noLocator } = base;
    await expectRefused(token, { ...base, reference: 'REF-NOTAG', deviceTag: 'NOSUCHTAG' }, 'RESOURCE_NOT_FOUND');
    await expectRefused(
      token,
      { ...noLocator, reference: 'REF-NOIMEI', imei: '999999999999999' },
      'RESOURCE_NOT_FOUND',
    );
    await expectRefused(
      token,
      { ...noLocator, reference: 'REF-NOPHONE', phoneNumber: '10000000000' },
      'RESOURCE_NOT_FOUND',
    );
    await expectRefused(
      token,
      { ...noLocator, reference: 'REF-NOORDER', financeOrderId: 9999999 },
      'RESOURCE_NOT_FOUND',
    );
  });

  it('refuses a new reference on the fully paid order 4000010 with AMOUNT_EXCEEDS_BALANCE', async () => {
    const token = await buyToken('demo-vendor-key');
    const error = await expectRefused(
      token,
      { ...base, reference: 'REF-PAIDOFF', deviceTag: 'DTSTBBC' },
      'AMOUNT_EXCEEDS_BALANCE',
    );
    expect(error.message).toBe('the payment of 1.00 USD is more than the remaining balance of 0.00 USD');
    expect(await totalPaid(4000010)).toBe(42000n);
  });

  it('does not burn the reference: after a refusal the same reference records the corrected payment', async () => {
    const token = await buyToken('demo-vendor-key');
    await expectRefused(token, { ...base, reference: 'REF-RETRY', currency: 'EUR' }, 'CURRENCY_MISMATCH');
    await expectRecorded(
      token,
      { ...base, reference: 'REF-RETRY' },
      {
        orderId: Number(DEMO_ORDER_ID),
        amountMinor: 100n,
        deviceTag: DEMO_DEVICE_TAG,
        currency: 'USD',
        vendor: 'demo-vendor',
      },
    );
  });
});

describe('createPaymentNotification: credentials', () => {
  const body = (reference: string) => ({
    paymentVendor: 'demo-vendor',
    amount: '1.00',
    currency: 'USD',
    reference,
    deviceTag: DEMO_DEVICE_TAG,
  });

  /** `beforeExecution`: a credential not valid refuses the whole request (401, no data); else the field fails (200, data null). */
  async function refusedWith(
    headers: Record<string, string>,
    code: string,
    reference: string,
    beforeExecution = false,
  ) {
    const before = await snapshot();
    const { status, body: response } = await service().graphql(NOTIFY, headers, { notification: body(reference) });
    if (beforeExecution) {
      expect(status).toBe(401);
      expect(response).not.toHaveProperty('data');
    } else {
      expect(status).toBe(200);
      expect(response.data).toEqual({ createPaymentNotification: null });
    }
    expect(response.errors[0].extensions.code).toBe(code);
    expect(await snapshot()).toEqual(before);
    return response.errors[0] as { message: string };
  }

  it('needs a credential: without one it is 401 at the door, before validation', async () => {
    await refusedWith({}, 'MISSING_API_KEY', 'CRED-NONE', true);
  });

  it('needs an access token, not the vendor API key itself', async () => {
    for (const headers of [bearer('demo-vendor-key'), { 'x-api-key': 'demo-vendor-key' }]) {
      const error = await refusedWith(headers, 'INVALID_ACCESS_TOKEN', 'CRED-KEY');
      expect(error.message).toContain('an access token is required');
    }
  });

  it('refuses a token whose signature was changed', async () => {
    const token = await buyToken('demo-vendor-key');
    const [version, claims, signature] = token.split('.') as [string, string, string];
    // Change the first character: the last one of a base64url HMAC carries padding bits.
    const tampered = `${version}.${claims}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect(tampered).not.toBe(token);
    const error = await refusedWith(bearer(tampered), 'INVALID_ACCESS_TOKEN', 'CRED-TAMPERED', true);
    expect(error.message).toContain('signature');
    // Claims re-encoded for another key without the secret fail the same way.
    const forgedClaims = Buffer.from(
      JSON.stringify({ k: '1', iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 }),
    ).toString('base64url');
    await refusedWith(bearer(`${version}.${forgedClaims}.${signature}`), 'INVALID_ACCESS_TOKEN', 'CRED-FORGED', true);
  });

  it('refuses an expired token, and accepts one minted the same way that is still valid', async () => {
    const keyId = await demoVendorKeyId();
    const expired = issueAccessToken(TEST_TOKENS, keyId, new Date(Date.now() - 2 * 3600 * 1000)).token;
    const error = await refusedWith(bearer(expired), 'INVALID_ACCESS_TOKEN', 'CRED-EXPIRED', true);
    expect(error.message).toContain('expired');

    const fresh = issueAccessToken(TEST_TOKENS, keyId, new Date()).token;
    await expectRecorded(fresh, body('CRED-FRESH'), {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });
  });

  it('refuses a token signed with another secret', async () => {
    const keyId = await demoVendorKeyId();
    const foreign = issueAccessToken(
      { signingKeys: [{ id: 'test', secret: 'another-secret-of-at-least-32-characters' }], ttlSeconds: 3600 },
      keyId,
      new Date(),
    ).token;
    await refusedWith(bearer(foreign), 'INVALID_ACCESS_TOKEN', 'CRED-FOREIGN', true);
  });

  it("forbids partner and retail keys, and an operator's token", async () => {
    await refusedWith({ 'x-api-key': 'demo-partner-key' }, 'FORBIDDEN', 'CRED-PARTNER');
    await refusedWith(bearer('demo-retail-key'), 'FORBIDDEN', 'CRED-RETAIL');
    await refusedWith(bearer(await buyToken('demo-operator-key')), 'FORBIDDEN', 'CRED-OPERATOR');
  });

  it('stops a token at once when its key is revoked; the revoked key buys no token', async () => {
    const vendor = await db()('payment_vendors').where({ name: 'demo-vendor' }).first('id');
    const created = await service().graphql(
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id kind paymentVendor { name } } } }`,
      OPERATOR,
      { input: { kind: 'VENDOR', paymentVendorId: vendor.id, label: 'revocation test' } },
    );
    expect(created.body.errors).toBeUndefined();
    const { secret, apiKey } = created.body.data.createApiKey;
    expect(apiKey.paymentVendor).toEqual({ name: 'demo-vendor' });
    const token = await buyToken(secret);
    await expectRecorded(token, body('CRED-BEFORE-REVOKE'), {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });

    const revoked = await service().graphql('mutation ($id: ID!) { revokeApiKey(id: $id) { id active } }', OPERATOR, {
      id: apiKey.id,
    });
    expect(revoked.body.data.revokeApiKey).toEqual({ id: apiKey.id, active: false });

    const error = await refusedWith(bearer(token), 'INVALID_ACCESS_TOKEN', 'CRED-AFTER-REVOKE', true);
    expect(error.message).toContain('revoked');
    const again = await service().graphql(CREATE_TOKEN, {}, { apiKey: secret });
    expect(again.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
    // The vendor's other key is untouched.
    await expectRecorded(await buyToken('demo-vendor-key'), body('CRED-OTHER-KEY'), {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });
  });

  it('treats an expired key like a revoked one: no new token, and its tokens stop', async () => {
    const vendor = await db()('payment_vendors').where({ name: 'demo-vendor' }).first('id');
    const created = await service().graphql(
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }`,
      OPERATOR,
      { input: { kind: 'VENDOR', paymentVendorId: vendor.id, label: 'expiry test' } },
    );
    const { secret, apiKey } = created.body.data.createApiKey;
    const token = await buyToken(secret);
    await db()('api_keys')
      .where({ id: apiKey.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await refusedWith(bearer(token), 'INVALID_ACCESS_TOKEN', 'CRED-KEY-EXPIRED', true);
    const again = await service().graphql(CREATE_TOKEN, {}, { apiKey: secret });
    expect(again.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
  });

  it('stops the token of a key revoked directly in the database', async () => {
    const token = await buyToken('demo-vendor-key');
    const key = () => db()('api_keys').where({ key_hash: hashApiKey('demo-vendor-key') });
    await key().update({ revoked_at: new Date() });
    try {
      await refusedWith(bearer(token), 'INVALID_ACCESS_TOKEN', 'CRED-DB-REVOKED', true);
    } finally {
      await key().update({ revoked_at: null });
    }
    await expectRecorded(token, body('CRED-DB-RESTORED'), {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'demo-vendor',
    });
  });

  it('forbids a disabled vendor, and records again once it is enabled', async () => {
    const schema = (await db()('payment_vendors').where({ name: 'demo-vendor' }).first('request_schema'))
      .request_schema;
    const vendor = await service().graphql(
      `mutation ($input: CreatePaymentVendorInput!) { createPaymentVendor(input: $input) { id name enabled } }`,
      OPERATOR,
      { input: { name: 'switchable-vendor', displayName: 'Switchable Vendor', requestSchema: schema } },
    );
    expect(vendor.body.errors).toBeUndefined();
    const vendorId = vendor.body.data.createPaymentVendor.id;
    const key = await service().graphql(
      `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }`,
      OPERATOR,
      { input: { kind: 'VENDOR', paymentVendorId: vendorId } },
    );
    const token = await buyToken(key.body.data.createApiKey.secret);
    const notification = {
      paymentVendor: 'switchable-vendor',
      amount: '1.00',
      currency: 'USD',
      reference: 'CRED-DISABLED',
      deviceTag: DEMO_DEVICE_TAG,
    };

    const setEnabled = async (enabled: boolean) => {
      const result = await service().graphql(
        `mutation ($input: UpdatePaymentVendorInput!) { updatePaymentVendor(input: $input) { name enabled } }`,
        OPERATOR,
        { input: { id: vendorId, enabled } },
      );
      expect(result.body.data.updatePaymentVendor).toEqual({ name: 'switchable-vendor', enabled });
    };
    await setEnabled(false);
    const error = await expectRefused(token, notification, 'FORBIDDEN');
    expect(error.message).toContain('disabled');
    await setEnabled(true);
    await expectRecorded(token, notification, {
      orderId: Number(DEMO_ORDER_ID),
      amountMinor: 100n,
      deviceTag: DEMO_DEVICE_TAG,
      currency: 'USD',
      vendor: 'switchable-vendor',
    });
  });
});

describe('createPaymentNotification: a token is bound to its vendor', () => {
  it("forbids other-vendor's token to notify as demo-vendor", async () => {
    const token = await buyToken('other-vendor-key');
    const error = await expectRefused(
      token,
      {
        paymentVendor: 'demo-vendor',
        amount: '1.00',
        currency: 'USD',
        reference: 'BOUND-1',
        deviceTag: DEMO_DEVICE_TAG,
      },
      'FORBIDDEN',
    );
    expect(error.message).toContain('other-vendor');
  });

  it("checks other-vendor's notifications against its own schema, which requires deviceTag", async () => {
    const token = await buyToken('other-vendor-key');
    const error = await expectRefused(
      token,
      {
        paymentVendor: 'other-vendor',
        amount: '1.00',
        currency: 'USD',
        reference: 'BOUND-IMEI',
        imei: DEMO_DEVICE_IMEI,
      },
      'INVALID_NOTIFICATION',
    );
    expect(error.message).toContain('deviceTag is a required field');
    // The same body is acceptable to demo-vendor's schema.
    await expectRecorded(
      await buyToken('demo-vendor-key'),
      {
        paymentVendor: 'demo-vendor',
        amount: '1.00',
        currency: 'USD',
        reference: 'BOUND-IMEI',
        imei: DEMO_DEVICE_IMEI,
      },
      {
        orderId: Number(DEMO_ORDER_ID),
        amountMinor: 100n,
        deviceTag: DEMO_DEVICE_TAG,
        currency: 'USD',
        vendor: 'demo-vendor',
      },
    );
  });
});
