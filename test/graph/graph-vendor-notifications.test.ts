// createPaymentNotification on the graph: recording (the vendor's JSON Schema, the device locators, the
// money rules), idempotency by vendor reference, and refusals, each checked to leave the database
// exactly as it was. Tokens and who may notify are test/graph/graph-vendor.test.ts.
import { describe, expect, it } from 'vitest';
import {
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { fillDirectories } from '../../src/modules/directories.js';
import {
  buyToken,
  countOf,
  db,
  expectRecorded,
  expectRefused,
  notify,
  remaining,
  snapshot,
  totalPaid,
  twoPlaces,
  useVendorService,
} from '../support/vendorGraph.js';

useVendorService();

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
    // Its directory entries, as the service's writers make them beside the rows (decisions.md 48).
    await fillDirectories(db());

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
