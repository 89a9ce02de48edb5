// The acceptance walk of the graph, as an operator through GraphQL only: provision a partner with its
// store, clerk, customer, catalogue model, device and cart; finance the cart; issue the partner's keys;
// pay the order off in store with the new retail key; check the money rules (decisions.md 5), the
// ledger, tenancy, locking and key revocation on the way. The provisioning mutations' refusals,
// adjustments and payment vendors are test/graph/graph-provisioning-refusals.test.ts.
//
// Inside "the acceptance walk" the tests run in order and share its state (`walk`), each building on
// the previous one, as the comments say.
import { describe, expect, it } from 'vitest';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import {
  API_KEYS,
  as,
  CREATE_API_KEY,
  CREATE_CART,
  CREATE_CLERK,
  CREATE_CUSTOMER,
  CREATE_DEVICE,
  CREATE_FAMILY,
  CREATE_MERCHANT,
  CREATE_MODEL,
  CREATE_PARTNER,
  cents,
  DAY,
  expectRefusedWithoutWriting,
  FINANCE_CART,
  FINANCE_ORDER,
  failure,
  nowSeconds,
  OPERATOR_KEY,
  ok,
  operator,
  paidThroughDays,
  RECORD_PAYMENT,
  TRANSACTIONS,
  tableCounts,
  useProvisioningService,
  VIEWER,
} from '../support/provisioning.js';
import { startTestService } from '../support/service.js';

const fixture = useProvisioningService();

// ---------------------------------------------------------------------------------------------------

describe('the acceptance walk: an operator provisions a partner, finances a cart, and its retail key pays it off', () => {
  // Filled in step by step; every later test relies on the ones before it (vitest runs them in order).
  const walk = {} as {
    partnerId: string;
    merchantId: string;
    clerkId: string;
    customerId: string;
    customerPhone: string;
    familyId: string;
    modelId: string;
    deviceId: string;
    deviceTag: string;
    imei: string;
    cartTag: string;
    orderId: string;
    orderTime: number;
    retailKey: string;
    retailKeyId: string;
    partnerKey: string;
    partnerKeyId: string;
    paymentIds: string[];
  };
  const window = () => ({ start: walk.orderTime - 60, end: nowSeconds() + 3600 });

  it('1. provisions partner, store, clerk, customer, catalogue, device and cart, then finances the cart', async () => {
    const partner = ok(
      await operator(CREATE_PARTNER, { input: { name: 'Walk Retail', commissionRateBasisPoints: 250 } }),
    ).createPartner;
    expect(partner).toMatchObject({ name: 'Walk Retail', commissionRateBasisPoints: 250, merchants: [], clerks: [] });
    expect(partner.id).toMatch(/^\d+$/);
    walk.partnerId = partner.id;

    const merchant = ok(
      await operator(CREATE_MERCHANT, {
        input: {
          partnerId: walk.partnerId,
          name: 'WALK STORE',
          phoneNumber: '303-555-0100',
          address: { street: '1 Walk St', city: 'Denver', state: 'CO', postalCode: '80202', country: 'us' },
        },
      }),
    ).createMerchant;
    expect(merchant).toMatchObject({
      name: 'WALK STORE',
      phoneNumber: '303-555-0100',
      address: { street: '1 Walk St', street2: null, city: 'Denver', state: 'CO', postalCode: '80202', country: 'US' },
    });
    walk.merchantId = merchant.id;

    const clerk = ok(
      await operator(CREATE_CLERK, {
        input: {
          partnerId: walk.partnerId,
          name: 'Walk Clerk',
          phoneNumber: '13035550101',
          email: 'clerk@walk.example',
        },
      }),
    ).createClerk;
    expect(clerk).toMatchObject({ name: 'Walk Clerk', phoneNumber: '13035550101', email: 'clerk@walk.example' });
    expect(clerk.personUuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    walk.clerkId = clerk.id;

    walk.customerPhone = '13035550199';
    const customer = ok(
      await operator(CREATE_CUSTOMER, {
        input: {
          partnerId: walk.partnerId,
          name: 'Walk Customer',
          phoneNumber: walk.customerPhone,
          email: 'walker@example.com',
          address: '1 Walk St, Denver, CO, US',
          nationalId: 'ID-WALK-1',
        },
      }),
    ).createCustomer;
    // Operators always see the personal data.
    expect(customer).toMatchObject({
      name: 'Walk Customer',
      phoneNumber: walk.customerPhone,
      email: 'walker@example.com',
      address: '1 Walk St, Denver, CO, US',
      nationalId: 'ID-WALK-1',
      financeOrder: null,
      financeOrders: { nodes: [] },
      devices: { nodes: [] },
    });
    walk.customerId = customer.id;

    const family = ok(await operator(CREATE_FAMILY, { name: 'Walk Phone' })).createDeviceFamily;
    expect(family).toMatchObject({ name: 'Walk Phone', models: { nodes: [] } });
    walk.familyId = family.id;
    const model = ok(
      await operator(CREATE_MODEL, {
        input: { familyId: walk.familyId, makeModel: 'WALK W1', name: 'Walk Phone One' },
      }),
    ).createDeviceModel;
    expect(model).toMatchObject({
      makeModel: 'WALK W1',
      name: 'Walk Phone One',
      family: { id: walk.familyId, name: 'Walk Phone' },
    });
    walk.modelId = model.id;

    walk.deviceTag = 'DTWALK01';
    walk.imei = '356938035643809';
    const device = ok(
      await operator(CREATE_DEVICE, {
        input: {
          partnerId: walk.partnerId,
          customerId: walk.customerId,
          modelId: walk.modelId,
          tag: walk.deviceTag,
          imei: walk.imei,
          simNumber: '89014103211118510720',
          phoneNumber: '13035550177',
          description: 'Blue, 64 GB',
        },
      }),
    ).createDevice;
    // Without an order, the device has no paid-through time and no status.
    expect(device).toMatchObject({
      tag: walk.deviceTag,
      imei: walk.imei,
      simNumber: '89014103211118510720',
      phoneNumber: '13035550177',
      description: 'Blue, 64 GB',
      model: { id: walk.modelId },
      family: { id: walk.familyId },
      customer: { id: walk.customerId },
      financeOrder: null,
      validThrough: null,
      secureStatus: null,
    });
    walk.deviceId = device.id;

    walk.cartTag = 'CART-WALK-1';
    const cart = ok(
      await operator(CREATE_CART, {
        input: {
          partnerId: walk.partnerId,
          cartTag: walk.cartTag,
          customerId: walk.customerId,
          merchantId: walk.merchantId,
          salesClerkId: walk.clerkId,
          deviceModelId: walk.modelId,
          deviceDescription: 'Blue, 64 GB',
          currency: 'USD',
          purchaseAmount: '500.00',
          downPayment: '100',
          pricePreTax: '460.00',
          monthlyCost: '40.00',
          weeklyCost: '10.00',
          months: 12,
        },
      }),
    ).createCart;
    expect(cart).toMatchObject({
      cartTag: walk.cartTag,
      currency: 'USD',
      purchaseAmount: '500.00',
      downPayment: '100.00',
      financeAmount: '400.00',
      pricePreTax: '460.00',
      monthlyCost: '40.00',
      weeklyCost: '10.00',
      months: 12,
      deviceDescription: 'Blue, 64 GB',
      customer: { id: walk.customerId },
      merchant: { id: walk.merchantId },
      salesClerk: { id: walk.clerkId },
      deviceModel: { id: walk.modelId },
      financeOrder: null,
    });

    const before = nowSeconds();
    const order = ok(
      await operator(FINANCE_CART, {
        input: { partnerId: walk.partnerId, cartTag: walk.cartTag, deviceId: walk.deviceId },
      }),
    ).financeCart;
    const after = nowSeconds();
    expect(order.time).toBeGreaterThanOrEqual(before);
    expect(order.time).toBeLessThanOrEqual(after);
    walk.orderId = order.id;
    walk.orderTime = order.time;
    const paidThrough = order.time + 30 * DAY;
    expect(order).toMatchObject({
      currency: 'USD',
      purchaseAmount: '500.00',
      downPayment: '100.00',
      financeAmount: '400.00',
      pricePreTax: '460.00',
      monthlyCost: '40.00',
      weeklyCost: '10.00',
      months: 12,
      repayableTotal: '480.00',
      totalPaid: '0.00',
      remainingBalance: '480.00',
      paidThrough,
      nextPayment: paidThrough,
      fullyPaid: false,
      secureStatus: 'ACTIVE_AND_SECURED',
      paymentOptions: [
        { type: 'FULL', amount: '480.00', currency: 'USD' },
        { type: 'MONTH', amount: '40.00', currency: 'USD' },
        { type: 'WEEK', amount: '10.00', currency: 'USD' },
      ],
      payments: [],
      customer: { id: walk.customerId },
      merchant: { id: walk.merchantId },
      salesClerk: { id: walk.clerkId },
      cart: { cartTag: walk.cartTag },
      device: { id: walk.deviceId, tag: walk.deviceTag, validThrough: paidThrough, secureStatus: 'ACTIVE_AND_SECURED' },
    });
    expect(order.schedule).toHaveLength(12);
    expect(order.schedule[0]).toEqual({
      number: 1,
      dueAt: order.time + 30 * DAY,
      amount: '40.00',
      paid: '0.00',
      status: 'UPCOMING',
    });
    expect(order.schedule[11]).toEqual({
      number: 12,
      dueAt: order.time + 360 * DAY,
      amount: '40.00',
      paid: '0.00',
      status: 'UPCOMING',
    });

    // The cart now names its order.
    const financedCart = ok(
      await operator(
        'query($t: String!, $p: ID) { cart(cartTag: $t, partnerId: $p) { cartTag financeOrder { id } } }',
        {
          t: walk.cartTag,
          p: walk.partnerId,
        },
      ),
    ).cart;
    expect(financedCart).toEqual({ cartTag: walk.cartTag, financeOrder: { id: walk.orderId } });

    // The partner's ledger holds exactly the financed sale: +financeAmount at the order's time.
    const ledger = ok(await operator(TRANSACTIONS, { ...window(), partnerId: walk.partnerId })).transactions.nodes;
    expect(ledger).toEqual([
      {
        __typename: 'FinanceTransaction',
        id: expect.any(String),
        type: 'FINANCE',
        time: walk.orderTime,
        amount: '400.00',
        currency: 'USD',
        merchant: { id: walk.merchantId },
        financeOrder: { id: walk.orderId },
        salesClerk: { id: walk.clerkId },
        device: { tag: walk.deviceTag },
      },
    ]);
  });

  it('2. issues the partner a retail and a partner key: each secret shown once, never listed', async () => {
    const retail = ok(
      await operator(CREATE_API_KEY, { input: { kind: 'RETAIL', partnerId: walk.partnerId, label: 'walk till' } }),
    ).createApiKey;
    expect(retail.secret).toMatch(/^dfs_rk_[0-9A-Za-z]{38}$/);
    expect(retail.apiKey).toMatchObject({
      kind: 'RETAIL',
      displayPrefix: retail.secret.slice(0, 12),
      label: 'walk till',
      partner: { id: walk.partnerId },
      paymentVendor: null,
      operatorId: null,
      expiresAt: null,
      revokedAt: null,
      active: true,
    });
    walk.retailKey = retail.secret;
    walk.retailKeyId = retail.apiKey.id;

    const partnerKey = ok(
      await operator(CREATE_API_KEY, { input: { kind: 'PARTNER', partnerId: walk.partnerId } }),
    ).createApiKey;
    expect(partnerKey.secret).toMatch(/^dfs_pk_[0-9A-Za-z]{38}$/);
    expect(partnerKey.apiKey).toMatchObject({
      kind: 'PARTNER',
      displayPrefix: partnerKey.secret.slice(0, 12),
      label: null,
      partner: { id: walk.partnerId },
      active: true,
    });
    expect(partnerKey.secret).not.toBe(retail.secret);
    walk.partnerKey = partnerKey.secret;
    walk.partnerKeyId = partnerKey.apiKey.id;

    // The listing: this partner's keys only, newest first, metadata without any secret.
    const raw = await fixture.service.graphql(API_KEYS, { 'x-api-key': OPERATOR_KEY }, { partnerId: walk.partnerId });
    const listed = ok(raw.body).apiKeys;
    expect(listed.map((key: { id: string; kind: string }) => [key.id, key.kind])).toEqual([
      [walk.partnerKeyId, 'PARTNER'],
      [walk.retailKeyId, 'RETAIL'],
    ]);
    for (const key of listed) expect(key.partner).toEqual({ id: walk.partnerId, name: 'Walk Retail' });
    const text = JSON.stringify(raw.body);
    expect(text).not.toContain(walk.retailKey);
    expect(text).not.toContain(walk.partnerKey);
    // The secret is no field of ApiKey at all.
    expect(
      failure(await operator('query($p: ID) { apiKeys(partnerId: $p) { id secret } }', { p: walk.partnerId })),
    ).toBe('GRAPHQL_VALIDATION_FAILED');

    // Both keys work at once, for their own partner.
    expect(ok(await as(walk.retailKey)(VIEWER)).viewer).toEqual({
      kind: 'PARTNER',
      keyKind: 'RETAIL',
      partner: { id: walk.partnerId, name: 'Walk Retail' },
    });
    expect(ok(await as(walk.partnerKey)(VIEWER)).viewer).toEqual({
      kind: 'PARTNER',
      keyKind: 'PARTNER',
      partner: { id: walk.partnerId, name: 'Walk Retail' },
    });
  });

  it('5. (before any payment) the unpaid order locks once its paid-through time has passed', async () => {
    // Services over the same database with pinned clocks; the order was made at walk.orderTime.
    const query = `query($id: ID!, $locator: String!) {
      financeOrder(id: $id) { paidThrough nextPayment secureStatus fullyPaid schedule { number status } }
      customer(locator: $locator) { devices { nodes { tag validThrough secureStatus } } }
    }`;
    const at = async (seconds: number) => {
      const pinned = await startTestService(fixture.database.db, { now: () => new Date(seconds * 1000) });
      try {
        const { body } = await pinned.graphql(
          query,
          { 'x-api-key': OPERATOR_KEY },
          { id: walk.orderId, locator: walk.deviceTag },
        );
        return ok(body);
      } finally {
        await pinned.close();
      }
    };
    const paidThrough = walk.orderTime + 30 * DAY;

    const stillActive = await at(paidThrough - 1);
    expect(stillActive.financeOrder).toMatchObject({
      paidThrough,
      nextPayment: paidThrough,
      secureStatus: 'ACTIVE_AND_SECURED',
      fullyPaid: false,
    });
    expect(stillActive.customer.devices.nodes).toEqual([
      { tag: walk.deviceTag, validThrough: paidThrough, secureStatus: 'ACTIVE_AND_SECURED' },
    ]);

    const locked = await at(walk.orderTime + 31 * DAY);
    expect(locked.financeOrder).toMatchObject({
      paidThrough,
      nextPayment: paidThrough,
      secureStatus: 'LOCKED',
      fullyPaid: false,
    });
    expect(locked.financeOrder.schedule[0]).toEqual({ number: 1, status: 'OVERDUE' });
    expect(locked.financeOrder.schedule[1]).toEqual({ number: 2, status: 'UPCOMING' });
    expect(locked.customer.devices.nodes).toEqual([
      { tag: walk.deviceTag, validThrough: paidThrough, secureStatus: 'LOCKED' },
    ]);

    // The service on the real clock still sees it active.
    expect(ok(await operator(FINANCE_ORDER, { id: walk.orderId })).financeOrder.secureStatus).toBe(
      'ACTIVE_AND_SECURED',
    );
  });

  it('3. records in-store payments with the new retail key until the order is paid off', async () => {
    // Commission at 250 bps, rounded half up to the cent: 0.01 -> 0.0025 -> none; 0.20 -> 0.005 -> 0.01;
    // 13.33 -> 0.33325 -> 0.33; 421.46 -> 10.5365 -> 10.54; 5.00 -> 0.125 -> 0.13.
    const steps = [
      { amount: '40.00', totalPaid: '40.00', remaining: '440.00', days: 60, commission: '1.00' },
      { amount: '0.01', totalPaid: '40.01', remaining: '439.99', days: 60, commission: null },
      { amount: '0.20', totalPaid: '40.21', remaining: '439.79', days: 60, commission: '0.01' },
      { amount: '13.33', totalPaid: '53.54', remaining: '426.46', days: 70, commission: '0.33' },
      { amount: '421.46', totalPaid: '475.00', remaining: '5.00', days: 386, commission: '10.54' },
      { amount: '5.00', totalPaid: '480.00', remaining: '0.00', days: 390, commission: '0.13' },
    ];
    const pay = (amount: string, key = walk.retailKey, currency = 'USD') =>
      as(key)(RECORD_PAYMENT, {
        input: {
          merchantId: walk.merchantId,
          salesClerkId: walk.clerkId,
          financeOrderId: walk.orderId,
          amount,
          currency,
        },
      });
    walk.paymentIds = [];

    for (const step of steps) {
      if (step.amount === '5.00') {
        // One cent over the balance is refused, and nothing is recorded.
        await expectRefusedWithoutWriting('AMOUNT_EXCEEDS_BALANCE', () => pay('5.01'));
      }
      const fullyPaid = step.remaining === '0.00';
      const days = paidThroughDays(cents(step.totalPaid), 4000);
      expect(days).toBe(step.days);
      const paidThrough = walk.orderTime + days * DAY;

      const receipt = ok(await pay(step.amount)).recordInStorePayment;
      expect(receipt).toMatchObject({
        deviceTag: walk.deviceTag,
        remainingBalance: step.remaining,
        currency: 'USD',
        nextPayment: fullyPaid ? null : paidThrough,
        fullyPaid,
        replayed: false,
        payment: {
          amount: step.amount,
          currency: 'USD',
          channel: 'IN_STORE',
          merchant: { id: walk.merchantId },
          salesClerk: { id: walk.clerkId },
          financeOrder: { id: walk.orderId },
        },
      });
      expect(receipt.payment.time).toBe(receipt.time);
      walk.paymentIds.push(receipt.payment.id);

      // The order as the partner's own partner key reads it afterwards.
      const order = ok(await as(walk.partnerKey)(FINANCE_ORDER, { id: walk.orderId })).financeOrder;
      const remaining = step.remaining;
      // The payoff completes until its reversal window (72 hours) closes, its device secured (decisions.md 44).
      const releaseAt = fullyPaid ? receipt.time + 72 * 3600 : null;
      expect(order).toMatchObject({
        totalPaid: step.totalPaid,
        remainingBalance: remaining,
        repayableTotal: '480.00',
        paidThrough,
        nextPayment: fullyPaid ? null : paidThrough,
        fullyPaid,
        secureStatus: 'ACTIVE_AND_SECURED',
        device: { validThrough: releaseAt ?? paidThrough, secureStatus: 'ACTIVE_AND_SECURED' },
      });
      const min = (a: string, b: string) => (cents(a) <= cents(b) ? a : b);
      expect(order.paymentOptions).toEqual(
        fullyPaid
          ? []
          : [
              { type: 'FULL', amount: remaining, currency: 'USD' },
              { type: 'MONTH', amount: min('40.00', remaining), currency: 'USD' },
              { type: 'WEEK', amount: min('10.00', remaining), currency: 'USD' },
            ],
      );
    }

    const final = ok(await operator(FINANCE_ORDER, { id: walk.orderId })).financeOrder;
    expect(final).toMatchObject({
      totalPaid: '480.00',
      remainingBalance: '0.00',
      fullyPaid: true,
      nextPayment: null,
      paymentOptions: [],
      secureStatus: 'ACTIVE_AND_SECURED',
      device: { secureStatus: 'ACTIVE_AND_SECURED' },
    });
    expect(
      final.schedule.every(
        (installment: { status: string; paid: string }) =>
          installment.status === 'PAID' && installment.paid === '40.00',
      ),
    ).toBe(true);
    // Payments oldest first.
    expect(final.payments.map((payment: { id: string }) => payment.id)).toEqual(walk.paymentIds);
    expect(final.payments.map((payment: { amount: string }) => payment.amount)).toEqual(
      steps.map((step) => step.amount),
    );
    const times = final.payments.map((payment: { time: number }) => payment.time);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    for (const payment of final.payments) {
      expect(payment).toMatchObject({
        currency: 'USD',
        channel: 'IN_STORE',
        merchant: { id: walk.merchantId },
        salesClerk: { id: walk.clerkId },
        paymentVendor: null,
        vendorReference: null,
      });
    }

    // The ledger: the sale, then per payment a CASH of minus the amount and, unless it rounds to zero,
    // a COMMISSION; in (time, id) order.
    const ledger = ok(await operator(TRANSACTIONS, { ...window(), partnerId: walk.partnerId })).transactions.nodes;
    const expected: Array<[string, string, string | null]> = [['FINANCE', '400.00', null]];
    steps.forEach((step, index) => {
      expected.push(['CASH', `-${step.amount}`, walk.paymentIds[index]!]);
      if (step.commission) expected.push(['COMMISSION', step.commission, walk.paymentIds[index]!]);
    });
    expect(ledger.map((node: any) => [node.type, node.amount, node.payment?.id ?? null])).toEqual(expected);
    for (const node of ledger) {
      expect(node).toMatchObject({
        currency: 'USD',
        merchant: { id: walk.merchantId },
        financeOrder: { id: walk.orderId },
      });
      if (node.type === 'CASH') expect(node.salesClerk).toEqual({ id: walk.clerkId });
    }
    // No commission transaction at all for the 0.01 payment (0.0025 rounds to 0.00).
    const commissions = ok(
      await operator(TRANSACTIONS, { ...window(), partnerId: walk.partnerId, filter: ['type:commission'] }),
    ).transactions.nodes;
    expect(commissions.map((node: any) => node.amount)).toEqual(['1.00', '0.01', '0.33', '10.54', '0.13']);
    expect(commissions.some((node: any) => node.payment.id === walk.paymentIds[1])).toBe(false);
  });

  it('4. keeps the new partner and the demo partners apart', async () => {
    const mine = as(walk.partnerKey);
    const own = ok(
      await mine(
        `query($phone: String!, $tag: String!, $imei: String!, $id: ID!, $cart: String!) {
      merchants { id } clerks { id }
      byPhone: customer(locator: $phone) { id email nationalId revealed: email(reveal: true) financeOrder { id } }
      byTag: customer(locator: $tag) { id financeOrder { id } }
      byImei: customer(locator: $imei) { id }
      financeOrder(id: $id) { id }
      cart(cartTag: $cart) { cartTag financeOrder { id } }
    }`,
        { phone: walk.customerPhone, tag: walk.deviceTag, imei: walk.imei, id: walk.orderId, cart: walk.cartTag },
      ),
    );
    expect(own).toEqual({
      merchants: [{ id: walk.merchantId }],
      clerks: [{ id: walk.clerkId }],
      // Personal data only when asked for.
      byPhone: {
        id: walk.customerId,
        email: null,
        nationalId: null,
        revealed: 'walker@example.com',
        financeOrder: { id: walk.orderId },
      },
      byTag: { id: walk.customerId, financeOrder: { id: walk.orderId } },
      byImei: { id: walk.customerId },
      financeOrder: { id: walk.orderId },
      cart: { cartTag: walk.cartTag, financeOrder: { id: walk.orderId } },
    });

    // The new partner key reaches nothing of Demo Retail's.
    const theirs = ok(
      await mine(`{
      financeOrder(id: "${DEMO_ORDER_ID}") { id }
      byTag: customer(locator: "${DEMO_DEVICE_TAG}") { id }
      byPhone: customer(locator: "14084930580") { id }
      byId: customer(locator: "4000005") { id }
      cart(cartTag: "${DEMO_CART_TAG}") { cartTag }
      merchant(id: "${DEMO_MERCHANT_ID}") { id }
      clerk(id: "${DEMO_CLERK_ID}") { id }
    }`),
    );
    expect(theirs).toEqual({
      financeOrder: null,
      byTag: null,
      byPhone: null,
      byId: null,
      cart: null,
      merchant: null,
      clerk: null,
    });

    // Its ledger is its own, whatever the filter asks for.
    const ledger = ok(await mine(TRANSACTIONS, window())).transactions.nodes;
    expect(ledger.length).toBeGreaterThan(0);
    for (const node of ledger) expect(node.merchant).toEqual({ id: walk.merchantId });
    expect(
      ok(await mine(TRANSACTIONS, { ...window(), filter: [`financeOrder.id:${DEMO_ORDER_ID}`] })).transactions.nodes,
    ).toEqual([]);
    // Naming another partner answers nothing rather than that partner's ledger.
    const demoId = (await fixture.database.db('partners').where({ name: 'Demo Retail' }).first()).id as string;
    const foreign = await mine(TRANSACTIONS, {
      start: nowSeconds() - 300 * DAY,
      end: nowSeconds() + DAY,
      partnerId: demoId,
    });
    expect(ok(foreign).transactions.nodes).toEqual([]);

    // Demo Retail's partner key gets null for each of the new partner's records.
    const demo = ok(
      await as('demo-partner-key')(
        `query($phone: String!, $tag: String!, $imei: String!, $customerId: String!, $id: ID!, $cart: String!, $m: ID!, $c: ID!) {
      financeOrder(id: $id) { id }
      byPhone: customer(locator: $phone) { id }
      byTag: customer(locator: $tag) { id }
      byImei: customer(locator: $imei) { id }
      byId: customer(locator: $customerId) { id }
      cart(cartTag: $cart) { cartTag }
      merchant(id: $m) { id }
      clerk(id: $c) { id }
    }`,
        {
          phone: walk.customerPhone,
          tag: walk.deviceTag,
          imei: walk.imei,
          customerId: walk.customerId,
          id: walk.orderId,
          cart: walk.cartTag,
          m: walk.merchantId,
          c: walk.clerkId,
        },
      ),
    );
    expect(demo).toEqual({
      financeOrder: null,
      byPhone: null,
      byTag: null,
      byImei: null,
      byId: null,
      cart: null,
      merchant: null,
      clerk: null,
    });
    const demoLedger = ok(
      await as('demo-partner-key')(TRANSACTIONS, { ...window(), filter: [`financeOrder.id:${walk.orderId}`] }),
    ).transactions.nodes;
    expect(demoLedger).toEqual([]);
    // The demo retail key cannot pay the new partner's order either: to it, the order does not exist.
    const demoPay = await as('demo-retail-key')(RECORD_PAYMENT, {
      input: {
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        financeOrderId: walk.orderId,
        amount: '1.00',
        currency: 'USD',
      },
    });
    expect(failure(demoPay)).toBe('RESOURCE_NOT_FOUND');
  });

  it('6. a revoked retail key stops working at once; the partner key is untouched', async () => {
    const revoked = ok(
      await operator('mutation($id: ID!) { revokeApiKey(id: $id) { id kind revokedAt active } }', {
        id: walk.retailKeyId,
      }),
    ).revokeApiKey;
    expect(revoked).toMatchObject({ id: walk.retailKeyId, kind: 'RETAIL', active: false });
    expect(revoked.revokedAt).toBeGreaterThanOrEqual(walk.orderTime);

    expect(failure(await as(walk.retailKey)(VIEWER))).toBe('INVALID_API_KEY');
    const before = await tableCounts();
    const payment = await as(walk.retailKey)(RECORD_PAYMENT, {
      input: {
        merchantId: walk.merchantId,
        salesClerkId: walk.clerkId,
        financeOrderId: walk.orderId,
        amount: '1.00',
        currency: 'USD',
      },
    });
    expect(failure(payment)).toBe('INVALID_API_KEY');
    expect(await tableCounts()).toEqual(before);

    const listed = ok(await operator(API_KEYS, { partnerId: walk.partnerId })).apiKeys;
    expect(listed.map((key: { kind: string; active: boolean }) => [key.kind, key.active])).toEqual([
      ['PARTNER', true],
      ['RETAIL', false],
    ]);
    expect(ok(await as(walk.partnerKey)(VIEWER)).viewer.keyKind).toBe('PARTNER');
  });
});

// ---------------------------------------------------------------------------------------------------
