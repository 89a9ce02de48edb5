// The graph's reads on the demo data, with the figures decisions.md 5 and demo-data.md state:
// order 4000004 owes 198.00 and is paid through T+20d; 4000010 is paid off; 4000012 is locked.
import { describe, expect, it } from 'vitest';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;

const fixture = useSeededService({ now: NOW });
const as = (key: string) => async (query: string, variables?: Record<string, unknown>) =>
  (await fixture.service.graphql(query, { 'x-api-key': key }, variables)).body;
const partner = as('demo-partner-key');
const operator = as('demo-operator-key');

const ORDER = `id remainingBalance totalPaid repayableTotal financeAmount purchaseAmount downPayment pricePreTax monthlyCost weeklyCost months currency
  time paidThrough nextPayment fullyPaid secureStatus paymentOptions { type amount currency }`;

describe('finance orders', () => {
  it('4000004: owes 198.00, paid through T+20d, active and secured', async () => {
    const { data } = await partner(
      `{ financeOrder(id: "${DEMO_ORDER_ID}") { ${ORDER} payments { id amount currency time channel merchant { id } salesClerk { id } } } }`,
    );
    expect(data.financeOrder).toEqual({
      id: DEMO_ORDER_ID,
      remainingBalance: '198.00',
      totalPaid: '18.00',
      repayableTotal: '216.00',
      financeAmount: '200.00',
      purchaseAmount: '300.00',
      downPayment: '100.00',
      pricePreTax: '300.00',
      monthlyCost: '18.00',
      weeklyCost: '4.00',
      months: 12,
      currency: 'USD',
      time: T - 40 * DAY,
      paidThrough: T + 20 * DAY,
      nextPayment: T + 20 * DAY,
      fullyPaid: false,
      secureStatus: 'ACTIVE_AND_SECURED',
      paymentOptions: [
        { type: 'FULL', amount: '198.00', currency: 'USD' },
        { type: 'MONTH', amount: '18.00', currency: 'USD' },
        { type: 'WEEK', amount: '4.00', currency: 'USD' },
      ],
      payments: [
        {
          id: '4000008',
          amount: '18.00',
          currency: 'USD',
          time: T - 10 * DAY,
          channel: 'IN_STORE',
          merchant: { id: DEMO_MERCHANT_ID },
          salesClerk: { id: DEMO_CLERK_ID },
        },
      ],
    });
  });

  it('4000010: fully paid by a vendor, released, no next payment, no options', async () => {
    const { data } = await partner(
      `{ financeOrder(id: "4000010") { remainingBalance fullyPaid nextPayment secureStatus paymentOptions { type } payments { amount channel paymentVendor { name } vendorReference } } }`,
    );
    expect(data.financeOrder).toEqual({
      remainingBalance: '0.00',
      fullyPaid: true,
      nextPayment: null,
      secureStatus: 'RELEASED',
      paymentOptions: [],
      payments: [
        {
          amount: '420.00',
          channel: 'VENDOR',
          paymentVendor: { name: 'demo-vendor' },
          vendorReference: 'DEMO-VENDOR-4000010-1',
        },
      ],
    });
  });

  it('4000012: owes 240.00, locked since T-70d, with three overdue instalments', async () => {
    const { data } = await partner(
      `{ financeOrder(id: "4000012") { remainingBalance paidThrough secureStatus schedule { number dueAt amount paid status } } }`,
    );
    expect(data.financeOrder.remainingBalance).toBe('240.00');
    expect(data.financeOrder.paidThrough).toBe(T - 70 * DAY);
    expect(data.financeOrder.secureStatus).toBe('LOCKED');
    expect(data.financeOrder.schedule).toHaveLength(12);
    expect(data.financeOrder.schedule.slice(0, 4)).toEqual([
      { number: 1, dueAt: T - 70 * DAY, amount: '20.00', paid: '0.00', status: 'OVERDUE' },
      { number: 2, dueAt: T - 40 * DAY, amount: '20.00', paid: '0.00', status: 'OVERDUE' },
      { number: 3, dueAt: T - 10 * DAY, amount: '20.00', paid: '0.00', status: 'OVERDUE' },
      { number: 4, dueAt: T + 20 * DAY, amount: '20.00', paid: '0.00', status: 'UPCOMING' },
    ]);
  });

  it("answers another partner's order as not found, and lets operators reach every order", async () => {
    expect(
      (await as('other-partner-key')(`{ financeOrder(id: "${DEMO_ORDER_ID}") { id } }`)).data.financeOrder,
    ).toBeNull();
    expect((await partner('{ financeOrder(id: "5000002") { id } }')).data.financeOrder).toBeNull();
    expect(
      (await operator('{ financeOrder(id: "5000002") { id currency remainingBalance } }')).data.financeOrder,
    ).toEqual({ id: '5000002', currency: 'MXN', remainingBalance: '192.00' });
  });
});

describe('customer(locator)', () => {
  const LOOKUP =
    'query($l: String!) { customer(locator: $l) { id name phoneNumber financeOrder { id } device: financeOrder { device { tag imei } } } }';

  it.each([
    ['an IMEI', DEMO_DEVICE_IMEI, '4000005', DEMO_ORDER_ID],
    ['a device tag', 'DTSTBBD', '4000007', '4000012'],
    ['a phone number', '5512345679', '4000006', '4000010'],
    ['a customer id', '4000005', '4000005', DEMO_ORDER_ID],
  ])('finds a customer by %s', async (_kind, locator, customerId, orderId) => {
    const { data } = await partner(LOOKUP, { l: locator });
    expect(data.customer.id).toBe(customerId);
    expect(data.customer.financeOrder.id).toBe(orderId);
  });

  it('gives the device, its model and family, its paid-through time and status', async () => {
    const { data } = await partner(
      `{ customer(locator: "${DEMO_DEVICE_TAG}") { devices { nodes { tag imei simNumber phoneNumber description lastSeen validThrough secureStatus model { id makeModel name } family { id name } } } } }`,
    );
    expect(data.customer.devices.nodes).toEqual([
      {
        tag: DEMO_DEVICE_TAG,
        imei: DEMO_DEVICE_IMEI,
        simNumber: '12345678901774567891',
        phoneNumber: '15052111315',
        description: 'Black, 32 GB',
        lastSeen: T - DAY,
        validThrough: T + 20 * DAY,
        secureStatus: 'ACTIVE_AND_SECURED',
        model: { id: '3', makeModel: 'SAMSUNG SM-G920P', name: 'Samsung Galaxy S6 (Boost/Sprint)' },
        family: { id: '3', name: 'Galaxy S6' },
      },
    ]);
  });

  it('finds nothing of another partner, and nothing for locators that match nothing', async () => {
    for (const locator of ['123456789012370', 'DTSTBBE', '5215550000001', '5000001', 'nothing', '', "x' or 1=1 --"]) {
      expect((await partner(LOOKUP, { l: locator })).data.customer, locator).toBeNull();
    }
    expect((await as('other-retail-key')(LOOKUP, { l: 'DTSTBBE' })).data.customer.id).toBe('5000001');
  });

  it('returns personal data to partners only when asked with reveal, and always to operators', async () => {
    const query =
      '{ customer(locator: "4000005") { email address nationalId revealed: email(reveal: true) a2: address(reveal: true) n2: nationalId(reveal: true) } }';
    expect((await partner(query)).data.customer).toEqual({
      email: null,
      address: null,
      nationalId: null,
      revealed: 'api.user@example.com',
      a2: '679 3rd St, Tallahassee, FL, US',
      n2: 'ID-4000005',
    });
    expect((await operator('{ customer(locator: "4000005") { email } }')).data.customer.email).toBe(
      'api.user@example.com',
    );
  });
});

describe('cart(cartTag)', () => {
  it('gives the cart with its terms to the partner key', async () => {
    const { data } =
      await partner(`{ cart(cartTag: "${DEMO_CART_TAG}") { cartTag purchaseAmount financeAmount downPayment pricePreTax monthlyCost weeklyCost months currency
      deviceDescription deviceModel { makeModel family { name } } merchant { id } salesClerk { id } customer { id name } financeOrder { id } } }`);
    expect(data.cart).toEqual({
      cartTag: DEMO_CART_TAG,
      purchaseAmount: '300.00',
      financeAmount: '200.00',
      downPayment: '100.00',
      pricePreTax: '300.00',
      monthlyCost: '18.00',
      weeklyCost: '4.00',
      months: 12,
      currency: 'USD',
      deviceDescription: 'Black, 32 GB',
      deviceModel: { makeModel: 'SAMSUNG SM-G920P', family: { name: 'Galaxy S6' } },
      merchant: { id: DEMO_MERCHANT_ID },
      salesClerk: { id: DEMO_CLERK_ID },
      customer: { id: '4000005', name: 'API User' },
      financeOrder: null,
    });
  });

  it('is refused to retail keys, not found for other partners, and needs a partner from operators', async () => {
    expect(
      (await as('demo-retail-key')(`{ cart(cartTag: "${DEMO_CART_TAG}") { id } }`)).errors[0].extensions.code,
    ).toBe('FORBIDDEN');
    expect((await partner('{ cart(cartTag: "CART-OTHER-1") { id } }')).data.cart).toBeNull();
    expect((await operator('{ cart(cartTag: "CART-OTHER-1") { id } }')).errors[0].extensions).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'partnerId',
    });
  });
});

describe('transactions', () => {
  const WINDOW = { start: T - 366 * DAY, end: T };
  const LIST = `query($start: Timestamp!, $end: Timestamp!, $filter: [String!], $first: Int, $after: String) {
    transactions(start: $start, end: $end, filter: $filter, first: $first, after: $after) {
      edges { cursor node { id type time amount currency merchant { id }
        ... on FinanceTransaction { financeOrder { id } salesClerk { id } device { imei } }
        ... on CashTransaction { payment { id } financeOrder { id } salesClerk { id } }
        ... on CommissionTransaction { payment { id } financeOrder { id } }
        ... on AdjustmentTransaction { adjustment { id kind notes amount } } } }
      pageInfo { hasNextPage endCursor } } }`;

  it("lists the partner's window in (time, id) order with every type's fields", async () => {
    const { data } = await partner(LIST, WINDOW);
    const nodes = data.transactions.edges.map((edge: { node: unknown }) => edge.node);
    // 4000010's finance transaction (T-400d) is outside the window; Other Retail's never shows.
    expect(nodes.map((n: { type: string; amount: string; time: number }) => [n.type, n.amount, n.time])).toEqual([
      ['FINANCE', '200.00', T - 100 * DAY],
      ['FINANCE', '200.00', T - 40 * DAY],
      ['CASH', '-18.00', T - 10 * DAY],
      ['COMMISSION', '0.90', T - 10 * DAY],
      ['ADJUSTMENT', '-0.10', T - 5 * DAY],
    ]);
    expect(nodes[1]).toMatchObject({
      financeOrder: { id: DEMO_ORDER_ID },
      salesClerk: { id: DEMO_CLERK_ID },
      device: { imei: DEMO_DEVICE_IMEI },
    });
    expect(nodes[2]).toMatchObject({
      payment: { id: '4000008' },
      financeOrder: { id: DEMO_ORDER_ID },
      salesClerk: { id: DEMO_CLERK_ID },
    });
    expect(nodes[4].adjustment).toMatchObject({
      kind: 'COMMISSION',
      notes: `commission correction for financeOrder ${DEMO_ORDER_ID}`,
      amount: '-0.10',
    });
    expect(data.transactions.pageInfo.hasNextPage).toBe(false);
  });

  it('takes start inclusive and end exclusive', async () => {
    const exact = await partner(LIST, { start: T - 10 * DAY, end: T - 5 * DAY });
    expect(exact.data.transactions.edges.map((e: { node: { type: string } }) => e.node.type)).toEqual([
      'CASH',
      'COMMISSION',
    ]);
  });

  it.each([
    [['type:cash'], ['CASH']],
    [['type:CASH'], ['CASH']],
    [[`financeOrder.id:${DEMO_ORDER_ID}`], ['FINANCE', 'CASH', 'COMMISSION']],
    [[`device.imei:${DEMO_DEVICE_IMEI}`], ['FINANCE']],
    [['merchant.name:DEMO'], ['FINANCE', 'CASH', 'COMMISSION', 'ADJUSTMENT']],
    [['merchant.name:DEMO2'], ['FINANCE']],
    [['amount:-18'], ['CASH']],
    [['adjustment.type:commission'], ['ADJUSTMENT']],
    [['type:finance', 'salesClerk.id:5320'], ['FINANCE']],
    [['type:cash', 'merchant.id:999888'], []],
    [['payment.amount:18'], ['CASH', 'COMMISSION']],
    [['financeOrder.financeAmount:200.00'], ['FINANCE', 'FINANCE']],
    [['financeOrder.monthlyCost:20', 'financeOrder.months:12'], ['FINANCE']],
    [[`payment.timestamp:${T - 10 * DAY}`], ['CASH', 'COMMISSION']],
    [['amount:0.9'], ['COMMISSION']],
    [['amount:abc'], []],
  ])('filters with %j', async (filter, types) => {
    const { data } = await partner(LIST, { ...WINDOW, filter });
    expect(data.transactions.edges.map((e: { node: { type: string } }) => e.node.type)).toEqual(types);
  });

  it('pages with exact cursors', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const body: {
        data: {
          transactions: {
            edges: Array<{ node: { id: string } }>;
            pageInfo: { hasNextPage: boolean; endCursor: string };
          };
        };
      } = await partner(LIST, { ...WINDOW, first: 2, after });
      seen.push(...body.data.transactions.edges.map((edge) => edge.node.id));
      if (!body.data.transactions.pageInfo.hasNextPage) break;
      after = body.data.transactions.pageInfo.endCursor;
    }
    const whole = await partner(LIST, WINDOW);
    expect(seen).toEqual(whole.data.transactions.edges.map((e: { node: { id: string } }) => e.node.id));
    expect(seen).toHaveLength(5);
  });

  it.each([
    [{ start: T, end: T - 1 }, 'end', 'must not be before the start of the window'],
    [{ start: T - 367 * DAY, end: T }, 'end', 'must be at most 366 days after the start of the window'],
    [{ ...WINDOW, filter: ['nocolon'] }, 'filter', 'must be <field path>:<value>'],
    [{ ...WINDOW, filter: ['device.colour:red'] }, 'filter', 'unknown field path "device.colour"'],
    [{ ...WINDOW, first: 0 }, 'first', 'must be from 1 to 5000'],
    [{ ...WINDOW, after: 'bm9wZQ' }, 'after', 'is not a cursor'],
  ])('refuses %j naming the argument', async (variables, argument, problem) => {
    const { errors } = await partner(LIST, variables);
    expect(errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument });
    expect(errors[0].message).toContain(problem);
  });

  it('is refused to retail keys and scoped for operators', async () => {
    expect((await as('demo-retail-key')(LIST, WINDOW)).errors[0].extensions.code).toBe('FORBIDDEN');
    const other = await operator(
      'query($p: ID) { transactions(start: 0, end: 31536000, partnerId: $p) { nodes { id } } }',
      { p: null },
    );
    expect(other.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'partnerId' });
    const mine = await as('other-partner-key')(
      `{ transactions(start: ${T - 30 * DAY}, end: ${T}) { nodes { amount currency } } }`,
    );
    expect(mine.data.transactions.nodes).toEqual([{ amount: '160.00', currency: 'MXN' }]);
  });
});

describe('catalogue and operator lists', () => {
  it('lists the device catalogue to any caller', async () => {
    const { data } = await as('demo-retail-key')(
      '{ deviceFamilies { id name models { nodes { id makeModel name } } } }',
    );
    expect(data.deviceFamilies).toEqual([
      {
        id: '3',
        name: 'Galaxy S6',
        models: { nodes: [{ id: '3', makeModel: 'SAMSUNG SM-G920P', name: 'Samsung Galaxy S6 (Boost/Sprint)' }] },
      },
      {
        id: '7',
        name: 'Moto G',
        models: { nodes: [{ id: '12', makeModel: 'motorola moto g(8)', name: 'Motorola Moto G8' }] },
      },
    ]);
  });

  it("lists vendors and keys to operators only, never a key's secret", async () => {
    const vendors = await operator('{ paymentVendors { name enabled requestSchema } }');
    expect(vendors.data.paymentVendors.map((v: { name: string }) => v.name)).toEqual(['demo-vendor', 'other-vendor']);
    expect(vendors.data.paymentVendors[0].requestSchema.required).toEqual([
      'paymentVendor',
      'amount',
      'currency',
      'reference',
    ]);
    const keys = await operator('{ apiKeys { kind displayPrefix active partner { name } paymentVendor { name } } }');
    expect(keys.data.apiKeys).toHaveLength(7);
    expect(JSON.stringify(keys)).not.toMatch(/demo-partner-key|key_hash/);
    expect((await partner('{ paymentVendors { name } }')).errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await partner('{ apiKeys { id } }')).errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
