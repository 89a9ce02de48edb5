// The provisioning mutations' refusals, each an error code with nothing written; adjustments; payment
// vendors (the acceptance walk of the graph is test/graph/graph-provisioning.test.ts). Every describe
// block provisions what it needs itself (distinct names, phones, tags and IMEIs).
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICE_IMEI, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import {
  API_KEYS,
  as,
  CREATE_ADJUSTMENT,
  CREATE_API_KEY,
  CREATE_CART,
  CREATE_CLERK,
  CREATE_CUSTOMER,
  CREATE_DEVICE,
  CREATE_FAMILY,
  CREATE_MERCHANT,
  CREATE_MODEL,
  CREATE_PARTNER,
  expectRefusedWithoutWriting,
  FINANCE_CART,
  failure,
  nowSeconds,
  ok,
  operator,
  TRANSACTIONS,
  useProvisioningService,
} from '../support/provisioning.js';

const fixture = useProvisioningService();

describe('provisioning refusals: each one an error code, with nothing written', () => {
  // A small partner of its own, provisioned through GraphQL: a customer with a device of a new model
  // (financed through cart V-1) and a device of the demo model 12, plus an unfinanced cart V-2.
  const setup = {} as {
    partnerId: string;
    merchantId: string;
    clerkId: string;
    customerId: string;
    modelId: string;
    deviceId: string;
    otherModelDeviceId: string;
    orderId: string;
  };
  const cartInput = (overrides: Record<string, unknown> = {}) => ({
    partnerId: setup.partnerId,
    cartTag: 'CART-V-NEW',
    customerId: setup.customerId,
    merchantId: setup.merchantId,
    salesClerkId: setup.clerkId,
    deviceModelId: setup.modelId,
    currency: 'USD',
    purchaseAmount: '100.00',
    downPayment: '10.00',
    pricePreTax: '100.00',
    monthlyCost: '10.00',
    weeklyCost: '2.50',
    months: 10,
    ...overrides,
  });

  beforeAll(async () => {
    setup.partnerId = ok(
      await operator(CREATE_PARTNER, { input: { name: 'Validation Retail', commissionRateBasisPoints: 0 } }),
    ).createPartner.id;
    setup.merchantId = ok(
      await operator(CREATE_MERCHANT, {
        input: {
          partnerId: setup.partnerId,
          name: 'V STORE',
          phoneNumber: '1',
          address: { street: '2 V St', city: 'Reno', state: 'NV', country: 'US' },
        },
      }),
    ).createMerchant.id;
    setup.clerkId = ok(
      await operator(CREATE_CLERK, {
        input: { partnerId: setup.partnerId, name: 'V Clerk', phoneNumber: '2', email: 'v@clerk.example' },
      }),
    ).createClerk.id;
    setup.customerId = ok(
      await operator(CREATE_CUSTOMER, {
        input: { partnerId: setup.partnerId, name: 'V Customer', phoneNumber: '17755550001' },
      }),
    ).createCustomer.id;
    const familyId = ok(await operator(CREATE_FAMILY, { name: 'Validation Phone' })).createDeviceFamily.id;
    setup.modelId = ok(
      await operator(CREATE_MODEL, { input: { familyId, makeModel: 'VALID V1', name: 'Validation One' } }),
    ).createDeviceModel.id;
    const device = (tag: string, imei: string, modelId: string) =>
      operator(CREATE_DEVICE, {
        input: { partnerId: setup.partnerId, customerId: setup.customerId, modelId, tag, imei },
      });
    setup.deviceId = ok(await device('DTVAL001', '490154203237518', setup.modelId)).createDevice.id;
    setup.otherModelDeviceId = ok(await device('DTVAL002', '490154203237526', '12')).createDevice.id;
    ok(await operator(CREATE_CART, { input: cartInput({ cartTag: 'CART-V-1' }) }));
    ok(await operator(CREATE_CART, { input: cartInput({ cartTag: 'CART-V-2' }) }));
    setup.orderId = ok(
      await operator(FINANCE_CART, {
        input: { partnerId: setup.partnerId, cartTag: 'CART-V-1', deviceId: setup.deviceId },
      }),
    ).financeCart.id;
  });

  it('refuses a commission rate outside 0..10000 basis points', async () => {
    for (const rate of [10_001, -1]) {
      await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
        operator(CREATE_PARTNER, { input: { name: 'Too Greedy', commissionRateBasisPoints: rate } }),
      );
    }
  });

  it('refuses a merchant with a country that is not ISO alpha-2, or of a partner that does not exist', async () => {
    const input = (partnerId: string, country: string) => ({
      input: { partnerId, name: 'BAD', phoneNumber: '1', address: { street: '1 St', city: 'X', state: 'Y', country } },
    });
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(CREATE_MERCHANT, input(setup.partnerId, 'USA')),
    );
    await expectRefusedWithoutWriting('RESOURCE_NOT_FOUND', () => operator(CREATE_MERCHANT, input('987654321', 'US')));
  });

  it('refuses a second customer with the same phone number within a partner, not across partners', async () => {
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(CREATE_CUSTOMER, { input: { partnerId: setup.partnerId, name: 'Twin', phoneNumber: '17755550001' } }),
    );
    const otherId = (await fixture.database.db('partners').where({ name: 'Other Retail' }).first()).id as string;
    const elsewhere = ok(
      await operator(CREATE_CUSTOMER, {
        input: { partnerId: otherId, name: 'Twin Elsewhere', phoneNumber: '17755550001' },
      }),
    ).createCustomer;
    expect(elsewhere.phoneNumber).toBe('17755550001');
  });

  it("refuses a device whose IMEI is malformed, or whose IMEI or tag another partner's device already has", async () => {
    const input = (tag: string, imei: string) => ({
      input: { partnerId: setup.partnerId, customerId: setup.customerId, modelId: setup.modelId, tag, imei },
    });
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () => operator(CREATE_DEVICE, input('DTVAL003', '123')));
    // 123456789012347 is Demo Retail's DTSTBBB: IMEIs are unique across every partner.
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(CREATE_DEVICE, input('DTVAL003', DEMO_DEVICE_IMEI)),
    );
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(CREATE_DEVICE, input(DEMO_DEVICE_TAG, '490154203237534')),
    );
  });

  it('refuses a cart whose down payment exceeds the price, or with more decimals than the currency has', async () => {
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(CREATE_CART, { input: cartInput({ purchaseAmount: '100.00', downPayment: '100.01' }) }),
    );
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(CREATE_CART, { input: cartInput({ purchaseAmount: '10.001' }) }),
    );
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(CREATE_CART, { input: cartInput({ cartTag: 'CART-V-1' }) }),
    );
  });

  it('refuses to finance a cart twice, or with a device of another model', async () => {
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(FINANCE_CART, { input: { partnerId: setup.partnerId, cartTag: 'CART-V-1', deviceId: setup.deviceId } }),
    );
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(FINANCE_CART, {
        input: { partnerId: setup.partnerId, cartTag: 'CART-V-2', deviceId: setup.otherModelDeviceId },
      }),
    );
    // Cart V-2 is still unfinanced, and V-1 still has its one order.
    const carts = ok(
      await operator(
        `query($p: ID) { v1: cart(cartTag: "CART-V-1", partnerId: $p) { financeOrder { id } } v2: cart(cartTag: "CART-V-2", partnerId: $p) { financeOrder { id } } }`,
        { p: setup.partnerId },
      ),
    );
    expect(carts).toEqual({ v1: { financeOrder: { id: setup.orderId } }, v2: { financeOrder: null } });
  });

  it("refuses an adjustment in another currency than its order's", async () => {
    await expectRefusedWithoutWriting('CURRENCY_MISMATCH', () =>
      operator(CREATE_ADJUSTMENT, {
        input: {
          partnerId: setup.partnerId,
          kind: 'PAYMENT',
          amount: '1.00',
          currency: 'MXN',
          notes: 'wrong currency',
          merchantId: setup.merchantId,
          financeOrderId: setup.orderId,
        },
      }),
    );
  });

  it('keeps every provisioning mutation to operators: partner and retail keys are FORBIDDEN', async () => {
    const mutations: Array<[string, Record<string, unknown>]> = [
      [CREATE_PARTNER, { input: { name: 'Self Made', commissionRateBasisPoints: 100 } }],
      [
        CREATE_MERCHANT,
        {
          input: {
            partnerId: setup.partnerId,
            name: 'X',
            phoneNumber: '1',
            address: { street: '1', city: '1', state: '1', country: 'US' },
          },
        },
      ],
      [CREATE_CLERK, { input: { partnerId: setup.partnerId, name: 'X', phoneNumber: '1', email: 'x@example.com' } }],
      [CREATE_CUSTOMER, { input: { partnerId: setup.partnerId, name: 'X', phoneNumber: '17755559999' } }],
      [CREATE_FAMILY, { name: 'Forbidden Family' }],
      [CREATE_MODEL, { input: { familyId: '3', makeModel: 'FORBIDDEN F1', name: 'F1' } }],
      [
        CREATE_DEVICE,
        {
          input: {
            partnerId: setup.partnerId,
            customerId: setup.customerId,
            modelId: setup.modelId,
            tag: 'DTFORBID',
            imei: '490154203237542',
          },
        },
      ],
      [CREATE_CART, { input: cartInput({ cartTag: 'CART-FORBIDDEN' }) }],
      [FINANCE_CART, { input: { partnerId: setup.partnerId, cartTag: 'CART-V-2', deviceId: setup.deviceId } }],
      [
        CREATE_ADJUSTMENT,
        {
          input: {
            partnerId: setup.partnerId,
            kind: 'PAYMENT',
            amount: '1.00',
            currency: 'USD',
            notes: 'x',
            merchantId: setup.merchantId,
          },
        },
      ],
      [CREATE_API_KEY, { input: { kind: 'RETAIL', partnerId: setup.partnerId } }],
      ['mutation { revokeApiKey(id: "1") { id } }', {}],
      [
        'mutation($input: CreatePaymentVendorInput!) { createPaymentVendor(input: $input) { id } }',
        { input: { name: 'sneaky', displayName: 'Sneaky', requestSchema: { type: 'object' } } },
      ],
      ['mutation { updatePaymentVendor(input: { id: "1", enabled: false }) { id } }', {}],
    ];
    for (const key of ['demo-partner-key', 'demo-retail-key']) {
      for (const [mutation, variables] of mutations) {
        await expectRefusedWithoutWriting('FORBIDDEN', () => as(key)(mutation, variables));
      }
    }
    // The operator-only reads too.
    expect(failure(await as('demo-partner-key')(API_KEYS, {}))).toBe('FORBIDDEN');
    expect(failure(await as('demo-partner-key')('{ paymentVendors { id } }'))).toBe('FORBIDDEN');
  });
});

// ---------------------------------------------------------------------------------------------------

describe('adjustments', () => {
  const ORDERS = `{ a: financeOrder(id: "${DEMO_ORDER_ID}") { totalPaid remainingBalance } b: financeOrder(id: "4000010") { totalPaid remainingBalance }
    c: financeOrder(id: "4000012") { totalPaid remainingBalance } d: financeOrder(id: "5000002") { totalPaid remainingBalance } }`;

  it('records a signed correction as an ADJUSTMENT transaction with its notes, leaving every balance alone', async () => {
    const demoId = (await fixture.database.db('partners').where({ name: 'Demo Retail' }).first()).id as string;
    const balancesBefore = ok(await operator(ORDERS));
    expect(balancesBefore.a).toEqual({ totalPaid: '18.00', remainingBalance: '198.00' });

    const start = nowSeconds() - 60;
    const adjustment = ok(
      await operator(CREATE_ADJUSTMENT, {
        input: {
          partnerId: demoId,
          kind: 'COMMISSION',
          amount: '-0.50',
          currency: 'USD',
          notes: `walk: commission over-credited on ${DEMO_ORDER_ID}`,
          merchantId: DEMO_MERCHANT_ID,
          financeOrderId: DEMO_ORDER_ID,
        },
      }),
    ).createAdjustment;
    expect(adjustment).toMatchObject({
      kind: 'COMMISSION',
      amount: '-0.50',
      currency: 'USD',
      notes: `walk: commission over-credited on ${DEMO_ORDER_ID}`,
      merchant: { id: DEMO_MERCHANT_ID },
      financeOrder: { id: DEMO_ORDER_ID },
    });
    expect(adjustment.time).toBeGreaterThanOrEqual(start);

    const window = { start, end: nowSeconds() + 60, filter: ['type:adjustment'] };
    const expectedNode = {
      __typename: 'AdjustmentTransaction',
      id: expect.any(String),
      type: 'ADJUSTMENT',
      time: adjustment.time,
      amount: '-0.50',
      currency: 'USD',
      merchant: { id: DEMO_MERCHANT_ID },
      adjustment: {
        id: adjustment.id,
        kind: 'COMMISSION',
        amount: '-0.50',
        currency: 'USD',
        notes: `walk: commission over-credited on ${DEMO_ORDER_ID}`,
        financeOrder: { id: DEMO_ORDER_ID },
        merchant: { id: DEMO_MERCHANT_ID },
      },
    };
    expect(ok(await operator(TRANSACTIONS, { ...window, partnerId: demoId })).transactions.nodes).toEqual([
      expectedNode,
    ]);
    // The partner sees it in its own ledger; another partner does not.
    expect(ok(await as('demo-partner-key')(TRANSACTIONS, window)).transactions.nodes).toEqual([expectedNode]);
    expect(ok(await as('other-partner-key')(TRANSACTIONS, window)).transactions.nodes).toEqual([]);

    expect(ok(await operator(ORDERS))).toEqual(balancesBefore);
  });

  it('refuses a zero adjustment and one for a store of another partner', async () => {
    const demoId = (await fixture.database.db('partners').where({ name: 'Demo Retail' }).first()).id as string;
    const input = {
      partnerId: demoId,
      kind: 'PAYMENT',
      amount: '0.00',
      currency: 'USD',
      notes: 'nothing',
      merchantId: DEMO_MERCHANT_ID,
    };
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () => operator(CREATE_ADJUSTMENT, { input }));
    await expectRefusedWithoutWriting('RESOURCE_NOT_FOUND', () =>
      operator(CREATE_ADJUSTMENT, { input: { ...input, amount: '1.00', merchantId: '2000001' } }),
    );
  });
});

// ---------------------------------------------------------------------------------------------------

describe('payment vendors', () => {
  const CREATE_VENDOR = `mutation($input: CreatePaymentVendorInput!) {
    createPaymentVendor(input: $input) { id name displayName requestSchema enabled createdAt }
  }`;
  const UPDATE_VENDOR = `mutation($input: UpdatePaymentVendorInput!) {
    updatePaymentVendor(input: $input) { id name displayName requestSchema enabled }
  }`;
  const VENDORS = '{ paymentVendors { id name displayName requestSchema enabled } }';
  const SCHEMA = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      paymentVendor: { type: 'string' },
      amount: { type: 'string' },
      currency: { type: 'string' },
      reference: { type: 'string' },
      deviceTag: { type: 'string' },
    },
    required: ['paymentVendor', 'amount', 'currency', 'reference', 'deviceTag'],
  };

  it('refuses a request schema that is not a valid JSON Schema', async () => {
    for (const requestSchema of [{ type: 12 }, { required: 'reference' }, ['not', 'an', 'object']]) {
      await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
        operator(CREATE_VENDOR, { input: { name: 'walk-broken', displayName: 'Broken', requestSchema } }),
      );
    }
    const names = ok(await operator(VENDORS)).paymentVendors.map((vendor: { name: string }) => vendor.name);
    expect(names).not.toContain('walk-broken');
  });

  it('lists a new vendor with its schema, and toggles it with updatePaymentVendor', async () => {
    const created = ok(
      await operator(CREATE_VENDOR, { input: { name: 'walk-pay', displayName: 'Walk Pay', requestSchema: SCHEMA } }),
    ).createPaymentVendor;
    expect(created).toMatchObject({ name: 'walk-pay', displayName: 'Walk Pay', requestSchema: SCHEMA, enabled: true });

    const find = async () =>
      (ok(await operator(VENDORS)).paymentVendors as Array<{ id: string }>).find((vendor) => vendor.id === created.id);
    expect(await find()).toEqual({
      id: created.id,
      name: 'walk-pay',
      displayName: 'Walk Pay',
      requestSchema: SCHEMA,
      enabled: true,
    });

    const disabled = ok(
      await operator(UPDATE_VENDOR, { input: { id: created.id, enabled: false } }),
    ).updatePaymentVendor;
    expect(disabled).toEqual({
      id: created.id,
      name: 'walk-pay',
      displayName: 'Walk Pay',
      requestSchema: SCHEMA,
      enabled: false,
    });
    expect(await find()).toMatchObject({ enabled: false });

    const enabled = ok(await operator(UPDATE_VENDOR, { input: { id: created.id, enabled: true } })).updatePaymentVendor;
    expect(enabled).toMatchObject({ enabled: true, displayName: 'Walk Pay', requestSchema: SCHEMA });
    expect(await find()).toMatchObject({ enabled: true });

    // An invalid new schema is refused and the stored one stays.
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(UPDATE_VENDOR, { input: { id: created.id, requestSchema: { type: 12 } } }),
    );
    expect(await find()).toMatchObject({ requestSchema: SCHEMA, enabled: true });

    // The agreed name is unique.
    await expectRefusedWithoutWriting('INVALID_ARGUMENT', () =>
      operator(CREATE_VENDOR, { input: { name: 'walk-pay', displayName: 'Again', requestSchema: SCHEMA } }),
    );
  });
});
