// The dashboards' listings, Query.financeOrders and Query.customers: filters (status, merchant, a
// window of creation times), cursor pages in id order that hold still while rows are added, pageInfo
// (hasPreviousPage included), tenancy as for customer(locator), the cost limits, and a fixed number of
// SQL statements per page whatever its length. And the status filter's SQL against terms.ts, at every
// boundary the rule has (paid-through exactly now, a millisecond either side, a microsecond the Date
// cannot hold, the floor of the days bought, the last minor unit, a daylight-saving change).
// On PGlite by default, on Postgres with TEST_DATABASE_URL.
import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { financeOrdersByKeys, listFinanceOrders } from '../../src/modules/financeOrders/queries.js';
import type { FinanceOrderRow, FinanceOrderStatus } from '../../src/modules/financeOrders/rows.js';
import { orderStatusOf } from '../../src/modules/financeOrders/terms.js';
import { addBulkOrders } from '../support/bulk.js';
import { useSeededService } from '../support/fixtures.js';
import { statementsDuring } from '../support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
const fixture = useSeededService({ now: NOW });
const as = (key: string) => async (query: string, variables?: Record<string, unknown>) =>
  (await fixture.service.graphql(query, { 'x-api-key': key }, variables)).body as any;
const demoPartner = as('demo-partner-key');
const demoRetail = as('demo-retail-key');
const otherPartner = as('other-partner-key');
const otherRetail = as('other-retail-key');
const operator = as('demo-operator-key');
const vendor = as('demo-vendor-key');

const partnerIdOf = async (name: string): Promise<string> =>
  String((await fixture.database.db('partners').where({ name }).first()).id);

const ORDERS = `query($first: Int, $after: String, $status: FinanceOrderStatus, $merchantId: ID,
    $createdAfter: Timestamp, $createdBefore: Timestamp, $partnerId: ID) {
  financeOrders(first: $first, after: $after, status: $status, merchantId: $merchantId,
      createdAfter: $createdAfter, createdBefore: $createdBefore, partnerId: $partnerId) {
    edges { cursor node { id } }
    nodes { id status secureStatus time merchant { id } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

const CUSTOMERS = `query($first: Int, $after: String, $status: FinanceOrderStatus, $merchantId: ID,
    $createdAfter: Timestamp, $createdBefore: Timestamp, $partnerId: ID) {
  customers(first: $first, after: $after, status: $status, merchantId: $merchantId,
      createdAfter: $createdAfter, createdBefore: $createdBefore, partnerId: $partnerId) {
    edges { cursor node { id } }
    nodes { id name createdAt }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

type Ask = ReturnType<typeof as>;

/** The ids of one page of a listing (its errors must be none). */
async function idsOf(ask: Ask, query: string, field: string, variables: Record<string, unknown> = {}) {
  const body = await ask(query, variables);
  expect(body.errors).toBeUndefined();
  return (body.data[field].nodes as Array<{ id: string }>).map((node) => node.id);
}

/** Every page of a listing, `first` at a time; `between` runs after each page but the last. */
async function walk(
  ask: Ask,
  query: string,
  field: string,
  variables: Record<string, unknown>,
  between?: () => Promise<void>,
) {
  const pages: any[] = [];
  let after: string | null = null;
  for (;;) {
    const body = await ask(query, { ...variables, after });
    expect(body.errors).toBeUndefined();
    const page = body.data[field];
    pages.push(page);
    if (!page.pageInfo.hasNextPage) return pages;
    after = page.pageInfo.endCursor;
    await between?.();
  }
}

describe('Query.financeOrders', () => {
  it("a partner key lists its own partner's orders in id order, each with its status (the demo's three)", async () => {
    const body = await demoPartner(ORDERS);
    expect(body.errors).toBeUndefined();
    const { nodes, edges, pageInfo } = body.data.financeOrders;
    expect(nodes).toEqual([
      {
        id: DEMO_ORDER_ID,
        status: 'ACTIVE',
        secureStatus: 'ACTIVE_AND_SECURED',
        time: T - 40 * DAY,
        merchant: { id: DEMO_MERCHANT_ID },
      },
      { id: '4000010', status: 'PAID_OFF', secureStatus: 'RELEASED', time: T - 400 * DAY, merchant: { id: '999888' } },
      { id: '4000012', status: 'LOCKED', secureStatus: 'LOCKED', time: T - 100 * DAY, merchant: { id: '1000201' } },
    ]);
    expect(edges.map((edge: any) => edge.node.id)).toEqual(nodes.map((node: any) => node.id));
    expect(pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: edges[0].cursor,
      endCursor: edges[2].cursor,
    });
  });

  it.each([
    ['ACTIVE', [DEMO_ORDER_ID]],
    ['LOCKED', ['4000012']],
    ['PAID_OFF', ['4000010']],
  ])('status %s: the orders that stand so now', async (status, ids) => {
    expect(await idsOf(demoPartner, ORDERS, 'financeOrders', { status })).toEqual(ids);
  });

  it('merchant, and a window of order times: start inclusive, end exclusive; filters combine', async () => {
    expect(await idsOf(demoPartner, ORDERS, 'financeOrders', { merchantId: '999888' })).toEqual(['4000010']);
    expect(await idsOf(demoPartner, ORDERS, 'financeOrders', { merchantId: '999888', status: 'ACTIVE' })).toEqual([]);
    // Another partner's store, and an id that cannot exist: nothing.
    expect(await idsOf(demoPartner, ORDERS, 'financeOrders', { merchantId: '2000001' })).toEqual([]);
    expect(await idsOf(demoPartner, ORDERS, 'financeOrders', { merchantId: 'DEMO' })).toEqual([]);
    // 4000004 was made at T-40d exactly, 4000012 at T-100d.
    const window = (createdAfter?: number, createdBefore?: number) =>
      idsOf(demoPartner, ORDERS, 'financeOrders', { createdAfter, createdBefore });
    expect(await window(T - 40 * DAY)).toEqual([DEMO_ORDER_ID]);
    expect(await window(T - 40 * DAY + 1)).toEqual([]);
    expect(await window(undefined, T - 40 * DAY)).toEqual(['4000010', '4000012']);
    expect(await window(undefined, T - 40 * DAY + 1)).toEqual([DEMO_ORDER_ID, '4000010', '4000012']);
    expect(await window(T - 100 * DAY, T - 40 * DAY)).toEqual(['4000012']);
    expect(await window(T - 100 * DAY, T - 100 * DAY)).toEqual([]);
    const backwards = await demoPartner(ORDERS, { createdAfter: T, createdBefore: T - 1 });
    expect(backwards.errors?.[0]).toMatchObject({
      message: 'the createdBefore argument must not be before createdAfter',
      extensions: { code: 'INVALID_ARGUMENT', argument: 'createdBefore' },
    });
  });

  it("tenancy: a retail key lists its own partner's; another partner's id lists nothing; vendors are FORBIDDEN", async () => {
    const demo = await partnerIdOf('Demo Retail');
    const other = await partnerIdOf('Other Retail');
    expect(await idsOf(demoRetail, ORDERS, 'financeOrders')).toEqual([DEMO_ORDER_ID, '4000010', '4000012']);
    expect(await idsOf(otherRetail, ORDERS, 'financeOrders')).toEqual(['5000002']);
    expect(await idsOf(otherPartner, ORDERS, 'financeOrders')).toEqual(['5000002']);
    // Other Retail never sees Demo Retail's, whatever it asks for.
    for (const variables of [
      { partnerId: demo },
      { partnerId: demo, status: 'LOCKED' },
      { merchantId: DEMO_MERCHANT_ID },
    ]) {
      expect(await idsOf(otherRetail, ORDERS, 'financeOrders', variables)).toEqual([]);
      expect(await idsOf(otherPartner, ORDERS, 'financeOrders', variables)).toEqual([]);
    }
    expect(await idsOf(otherRetail, ORDERS, 'financeOrders', { partnerId: other })).toEqual(['5000002']);
    // Operators: every partner's, or one partner's; a merchant names its partner.
    expect(await idsOf(operator, ORDERS, 'financeOrders')).toEqual([DEMO_ORDER_ID, '4000010', '4000012', '5000002']);
    expect(await idsOf(operator, ORDERS, 'financeOrders', { partnerId: other })).toEqual(['5000002']);
    expect(await idsOf(operator, ORDERS, 'financeOrders', { merchantId: '2000001' })).toEqual(['5000002']);
    expect(await idsOf(operator, ORDERS, 'financeOrders', { status: 'ACTIVE' })).toEqual([DEMO_ORDER_ID, '5000002']);
    const refused = await vendor(ORDERS);
    expect(refused.data).toBeNull();
    expect(refused.errors[0].extensions.code).toBe('FORBIDDEN');
    const anonymous = (await fixture.service.graphql(ORDERS)).body;
    expect(anonymous.errors[0].extensions.code).toBe('MISSING_API_KEY');
  });
});

describe('Query.customers', () => {
  it("a partner key lists its own partner's customers in id order, with when each was registered", async () => {
    await fixture.database
      .db('customers')
      .where({ id: 4000005 })
      .update({ created_at: new Date((T - 50 * DAY) * 1000) });
    await fixture.database
      .db('customers')
      .where({ id: 4000006 })
      .update({ created_at: new Date((T - 500 * DAY) * 1000) });
    await fixture.database
      .db('customers')
      .where({ id: 4000007 })
      .update({ created_at: new Date((T - 150 * DAY) * 1000) });
    const body = await demoPartner(CUSTOMERS);
    expect(body.errors).toBeUndefined();
    expect(body.data.customers.nodes).toEqual([
      { id: '4000005', name: 'API User', createdAt: T - 50 * DAY },
      { id: '4000006', name: 'Paid Off', createdAt: T - 500 * DAY },
      { id: '4000007', name: 'Late Payer', createdAt: T - 150 * DAY },
    ]);
    // A customer a lookup found carries no registration time: it is loaded by key.
    const found = await demoPartner('{ customer(locator: "DTSTBBD") { id createdAt } }');
    expect(found.data.customer).toEqual({ id: '4000007', createdAt: T - 150 * DAY });
  });

  it('status: the customers with at least one order that stands so; with merchant, one order must be both', async () => {
    const customers = (variables: Record<string, unknown>) => idsOf(demoPartner, CUSTOMERS, 'customers', variables);
    expect(await customers({ status: 'ACTIVE' })).toEqual(['4000005']);
    expect(await customers({ status: 'LOCKED' })).toEqual(['4000007']);
    expect(await customers({ status: 'PAID_OFF' })).toEqual(['4000006']);
    expect(await customers({ merchantId: '1000201' })).toEqual(['4000007']);
    expect(await customers({ merchantId: '1000201', status: 'LOCKED' })).toEqual(['4000007']);
    expect(await customers({ merchantId: '1000201', status: 'ACTIVE' })).toEqual([]);

    // A second order for Late Payer, active, sold at DEMO: Late Payer now has a locked and an active order.
    const late = await fixture.database.db('finance_orders').where({ id: 4000012 }).first();
    const [second] = await fixture.database
      .db('finance_orders')
      .insert({
        ...late,
        id: undefined,
        merchant_id: Number(DEMO_MERCHANT_ID),
        total_paid_minor: 0,
        ordered_at: new Date((T - 10 * DAY) * 1000),
      })
      .returning('id');
    try {
      expect(await customers({ status: 'ACTIVE' })).toEqual(['4000005', '4000007']);
      expect(await customers({ status: 'LOCKED' })).toEqual(['4000007']);
      expect(await customers({ merchantId: DEMO_MERCHANT_ID })).toEqual(['4000005', '4000007']);
      // Late Payer's order at DEMO is active, its locked one is at DEMO2: no one order is both.
      expect(await customers({ merchantId: DEMO_MERCHANT_ID, status: 'LOCKED' })).toEqual([]);
      expect(await customers({ merchantId: '1000201', status: 'LOCKED' })).toEqual(['4000007']);
    } finally {
      await fixture.database.db('finance_orders').where({ id: second.id }).delete();
    }
  });

  it('a window of registration times: start inclusive, end exclusive', async () => {
    const window = (createdAfter?: number, createdBefore?: number) =>
      idsOf(demoPartner, CUSTOMERS, 'customers', { createdAfter, createdBefore });
    expect(await window(T - 150 * DAY)).toEqual(['4000005', '4000007']);
    expect(await window(T - 150 * DAY + 1)).toEqual(['4000005']);
    expect(await window(undefined, T - 150 * DAY)).toEqual(['4000006']);
    expect(await window(T - 500 * DAY, T - 50 * DAY)).toEqual(['4000006', '4000007']);
    expect(await window(T - 500 * DAY, T - 50 * DAY + 1)).toEqual(['4000005', '4000006', '4000007']);
  });

  it("tenancy as customer(locator): Other Retail never sees Demo Retail's; operators see all; vendors are FORBIDDEN", async () => {
    const demo = await partnerIdOf('Demo Retail');
    expect(await idsOf(demoRetail, CUSTOMERS, 'customers')).toEqual(['4000005', '4000006', '4000007']);
    expect(await idsOf(otherRetail, CUSTOMERS, 'customers')).toEqual(['5000001']);
    for (const variables of [{}, { partnerId: demo }, { status: 'LOCKED' }, { merchantId: DEMO_MERCHANT_ID }]) {
      const ids = await idsOf(otherRetail, CUSTOMERS, 'customers', variables);
      expect(ids.filter((id) => id.startsWith('400000'))).toEqual([]);
    }
    expect(await idsOf(otherRetail, CUSTOMERS, 'customers', { partnerId: demo })).toEqual([]);
    expect(await idsOf(operator, CUSTOMERS, 'customers')).toEqual(['4000005', '4000006', '4000007', '5000001']);
    expect(await idsOf(operator, CUSTOMERS, 'customers', { partnerId: demo, status: 'PAID_OFF' })).toEqual(['4000006']);
    expect(await idsOf(operator, CUSTOMERS, 'customers', { merchantId: '2000001' })).toEqual(['5000001']);
    const refused = await vendor(CUSTOMERS);
    expect(refused.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('cursor pages', () => {
  it('pages in id order, each edge its cursor; hasPreviousPage is false first, then true; a page holds still while rows are added', async () => {
    const before = await idsOf(operator, ORDERS, 'financeOrders');
    const base = await fixture.database
      .db('finance_orders')
      .where({ id: Number(DEMO_ORDER_ID) })
      .first();
    const added: string[] = [];
    // After each of the first three pages a new order arrives: it gets a higher id than any, so it
    // comes after the orders that were there, once.
    const pages = await walk(operator, ORDERS, 'financeOrders', { first: 1 }, async () => {
      if (added.length === 3) return;
      const [row] = await fixture.database
        .db('finance_orders')
        .insert({ ...base, id: undefined, ordered_at: NOW })
        .returning('id');
      added.push(String(row.id));
    });
    try {
      const seen = pages.flatMap((page) => page.nodes.map((node: any) => node.id));
      expect(seen.slice(0, before.length)).toEqual(before);
      expect(new Set(seen).size).toBe(seen.length);
      expect(added).toHaveLength(3);
      expect(seen.slice(before.length)).toEqual(added);
      expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => a - b));
      expect(pages[0].pageInfo.hasPreviousPage).toBe(false);
      for (const page of pages.slice(1)) {
        expect(page.pageInfo.hasPreviousPage).toBe(true);
        expect(page.pageInfo.startCursor).toBe(page.edges[0].cursor);
        expect(page.pageInfo.endCursor).toBe(page.edges.at(-1).cursor);
      }
    } finally {
      await fixture.database.db('finance_orders').whereIn('id', added).delete();
    }
  });

  it('hasPreviousPage asks whether the listing, with its filters, holds a row at or before the cursor', async () => {
    const first = await demoPartner(ORDERS, { first: 1 });
    const cursorOf4000004 = first.data.financeOrders.pageInfo.endCursor;
    // After 4000004: the listing of every order holds it; the listing of locked ones holds nothing up to it.
    const all = await demoPartner(ORDERS, { first: 1, after: cursorOf4000004 });
    expect(all.data.financeOrders.nodes.map((node: any) => node.id)).toEqual(['4000010']);
    expect(all.data.financeOrders.pageInfo.hasPreviousPage).toBe(true);
    const locked = await demoPartner(ORDERS, { first: 1, after: cursorOf4000004, status: 'LOCKED' });
    expect(locked.data.financeOrders.nodes.map((node: any) => node.id)).toEqual(['4000012']);
    expect(locked.data.financeOrders.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });
    // The same on customers (4000005 is the first).
    const customers = await demoPartner(CUSTOMERS, { first: 1 });
    const afterFirst = customers.data.customers.pageInfo.endCursor;
    const paidOff = await demoPartner(CUSTOMERS, { after: afterFirst, status: 'PAID_OFF' });
    expect(paidOff.data.customers.nodes.map((node: any) => node.id)).toEqual(['4000006']);
    expect(paidOff.data.customers.pageInfo.hasPreviousPage).toBe(false);
    const every = await demoPartner(CUSTOMERS, { after: afterFirst });
    expect(every.data.customers.pageInfo.hasPreviousPage).toBe(true);
  });

  it('a cursor is refused by another connection, and text that is no cursor is INVALID_ARGUMENT naming after', async () => {
    const orders = await demoPartner(ORDERS, { first: 1 });
    const orderCursor = orders.data.financeOrders.pageInfo.endCursor;
    for (const after of [
      orderCursor.slice(1),
      'not a cursor',
      Buffer.from('customers:4000005').toString('base64url'),
    ]) {
      const body = await demoPartner(ORDERS, { after });
      expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'INVALID_ARGUMENT', argument: 'after' } });
    }
    const wrong = await demoPartner(CUSTOMERS, { after: orderCursor });
    expect(wrong.errors?.[0]).toMatchObject({ extensions: { code: 'INVALID_ARGUMENT', argument: 'after' } });
  });

  it('first is 1 to 1,000 (the @listSize bound); a document whose answer could pass the cost limit is refused before it runs', async () => {
    for (const first of [0, 1001]) {
      const body = await operator(ORDERS, { first });
      expect(body.errors?.[0]).toMatchObject({ extensions: { code: 'INVALID_ARGUMENT', argument: 'first' } });
    }
    const response = await fixture.service.graphql(
      '{ customers(first: 1000) { nodes { financeOrders { nodes { payments { id } } } } } }',
      { 'x-api-key': 'demo-operator-key' },
    );
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({
      message: expect.stringContaining('GRAPHQL_MAX_COST'),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    // A full page of orders with their customer, device (model, family), store and clerk fits.
    const full = await operator(
      '{ financeOrders(first: 1000) { nodes { id customer { id } device { id model { id } family { id } } merchant { id } salesClerk { id } } } }',
    );
    expect(full.errors).toBeUndefined();
  });
});

describe('the status filter: SQL and terms.ts agree at every boundary', () => {
  const MONTHLY = 1800n;
  const MONTHS = 12;
  const REPAYABLE = Number(MONTHLY) * MONTHS;
  const MS_PER_DAY = 86_400_000;
  const at = (iso: string) => new Date(iso);
  const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);
  const N = NOW;

  interface Case {
    name: string;
    /** ordered_at as Postgres text (microseconds allowed). */
    orderedAt: string;
    paid: number;
    now: Date;
    expected: FinanceOrderStatus;
  }
  const iso = (date: Date) => date.toISOString();
  const CASES: Case[] = [
    // Nothing paid: paid through ordered_at + 30 days, counted from the sale's whole second
    // (decisions.md 37): what lockAt shows, in whole seconds, is when the order locks.
    {
      name: 'paid through exactly now',
      orderedAt: iso(plus(N, -30 * MS_PER_DAY)),
      paid: 0,
      now: N,
      expected: 'LOCKED',
    },
    {
      name: 'sold 1 ms into the second: paid through the second it shows, now',
      orderedAt: iso(plus(N, -30 * MS_PER_DAY + 1)),
      paid: 0,
      now: N,
      expected: 'LOCKED',
    },
    {
      name: 'paid through a second after now',
      orderedAt: iso(plus(N, -30 * MS_PER_DAY + 1000)),
      paid: 0,
      now: N,
      expected: 'ACTIVE',
    },
    {
      name: 'paid through a second after now, read 999 ms into this second',
      orderedAt: iso(plus(N, -30 * MS_PER_DAY + 1999)),
      paid: 0,
      now: plus(N, 999),
      expected: 'ACTIVE',
    },
    {
      name: 'paid through 1 ms before now',
      orderedAt: iso(plus(N, -30 * MS_PER_DAY - 1)),
      paid: 0,
      now: N,
      expected: 'LOCKED',
    },
    // Microseconds the Date does not hold: the second is what counts, in SQL as in terms.ts.
    {
      name: 'paid through 0.5 ms after now (microseconds)',
      orderedAt: `${iso(plus(N, -30 * MS_PER_DAY)).slice(0, -1)}500Z`,
      paid: 0,
      now: N,
      expected: 'LOCKED',
    },
    {
      name: 'paid through a second and 0.999 ms after now (microseconds)',
      orderedAt: `${iso(plus(N, -30 * MS_PER_DAY + 1000)).slice(0, -1)}999Z`,
      paid: 0,
      now: N,
      expected: 'ACTIVE',
    },
    // The days bought are floor(paid * 30 / monthly): 60 of 1800 buys a day, 59 buys none.
    {
      name: 'a day bought exactly',
      orderedAt: iso(plus(N, -31 * MS_PER_DAY + 1000)),
      paid: 60,
      now: N,
      expected: 'ACTIVE',
    },
    {
      name: 'a minor unit short of a day',
      orderedAt: iso(plus(N, -31 * MS_PER_DAY + 1000)),
      paid: 59,
      now: N,
      expected: 'LOCKED',
    },
    // The last minor unit: paid off whatever the time; one short and long overdue, locked.
    {
      name: 'the whole repayable total',
      orderedAt: iso(plus(N, -1000 * MS_PER_DAY)),
      paid: REPAYABLE,
      now: N,
      expected: 'PAID_OFF',
    },
    {
      name: 'one minor unit short of it',
      orderedAt: iso(plus(N, -1000 * MS_PER_DAY)),
      paid: REPAYABLE - 1,
      now: N,
      expected: 'LOCKED',
    },
    {
      name: 'one minor unit short, paid through later',
      orderedAt: iso(plus(N, -100 * MS_PER_DAY)),
      paid: REPAYABLE - 1,
      now: N,
      expected: 'ACTIVE',
    },
    // Across the start of US daylight saving (2026-03-08): 30 days are 30 x 86,400 s, in any time zone.
    {
      name: 'across a daylight-saving change, 30 min before paid-through',
      orderedAt: '2026-03-07T16:00:00.000Z',
      paid: 0,
      now: at('2026-04-06T15:30:00.000Z'),
      expected: 'ACTIVE',
    },
    {
      name: 'across a daylight-saving change, at paid-through',
      orderedAt: '2026-03-07T16:00:00.000Z',
      paid: 0,
      now: at('2026-04-06T16:00:00.000Z'),
      expected: 'LOCKED',
    },
  ];

  it.each(['UTC', 'America/New_York', 'Asia/Kolkata'])(
    'each case is in exactly the status terms.ts gives it, and the one expected (session time zone %s)',
    async (timeZone) => {
      const db = fixture.database.db;
      const base = await db('finance_orders').where({ id: 4000012 }).first();
      const partnerId = String(base.partner_id);
      await db
        .transaction(async (trx) => {
          await trx.raw(`set local time zone '${timeZone}'`);
          const ids: string[] = [];
          for (const testCase of CASES) {
            const [row] = await trx('finance_orders')
              .insert({
                ...base,
                id: undefined,
                monthly_cost_minor: String(MONTHLY),
                months: MONTHS,
                total_paid_minor: testCase.paid,
                ordered_at: trx.raw('?::timestamptz', [testCase.orderedAt]),
              })
              .returning('id');
            ids.push(String(row.id));
          }
          const rows = await financeOrdersByKeys(
            trx,
            ids.map((id) => ({ partnerId, id })),
          );
          const byId = new Map(rows.map((row: FinanceOrderRow) => [row.id, row]));
          const window = { partnerId, createdAfter: null, createdBefore: null, merchantId: null };
          for (const [index, testCase] of CASES.entries()) {
            const id = ids[index]!;
            const inTerms = orderStatusOf(byId.get(id)!, testCase.now);
            const inSql: FinanceOrderStatus[] = [];
            for (const status of ['ACTIVE', 'LOCKED', 'PAID_OFF'] as const) {
              const listed = await listFinanceOrders(
                trx,
                { ...window, status, moment: { partnerId, now: testCase.now, graceHours: 0 } },
                { after: String(Number(id) - 1), limit: 1 },
              );
              if (listed[0]?.id === id) inSql.push(status);
            }
            expect({ case: testCase.name, inTerms, inSql }).toEqual({
              case: testCase.name,
              inTerms: testCase.expected,
              inSql: [testCase.expected],
            });
          }
          throw new Error('rolled back');
        })
        .catch((error: Error) => {
          if (error.message !== 'rolled back') throw error;
        });
    },
  );
});

describe('statements per page (no N+1)', () => {
  const ORDER_PAGE = `query($first: Int) { financeOrders(first: $first) { edges { cursor node { id } }
    nodes { id status remainingBalance customer { id name } device { imei model { name } family { name } } merchant { name } salesClerk { name } }
    pageInfo { hasNextPage endCursor } } }`;
  const CUSTOMER_PAGE = `query($first: Int) { customers(first: $first) {
    nodes { id createdAt financeOrder { id status } financeOrders(first: 5) { nodes { id status merchant { name } } } devices(first: 5) { nodes { imei } } }
    pageInfo { hasNextPage endCursor } } }`;

  async function statementsFor(query: string, field: string, first: number) {
    const { result, statements } = await statementsDuring(fixture.database.db, () =>
      fixture.service.graphql(query, { 'x-api-key': 'demo-partner-key' }, { first }),
    );
    expect(result.body.errors).toBeUndefined();
    return { rows: result.body.data[field].nodes.length as number, statements: statements.map((s) => s.sql) };
  }

  it('a page of orders with their customer, device, store and clerk: 6 statements for 3 rows and for 253', async () => {
    await addBulkOrders(fixture.database.db, 250, new Date((T - 101 * DAY) * 1000));
    const few = await statementsFor(ORDER_PAGE, 'financeOrders', 3);
    const many = await statementsFor(ORDER_PAGE, 'financeOrders', 1000);
    expect(few.rows).toBe(3);
    expect(many.rows).toBe(253);
    // The key, the page, then one batch each: customers, devices (with model and family), merchants, clerks.
    expect(many.statements).toHaveLength(6);
    expect(few.statements).toHaveLength(many.statements.length);
    expect(many.statements.filter((sql) => /"finance_orders"/.test(sql))).toHaveLength(1);
  });

  it('a page of customers with their orders and devices: 6 statements for 3 rows and for 253', async () => {
    const few = await statementsFor(CUSTOMER_PAGE, 'customers', 3);
    const many = await statementsFor(CUSTOMER_PAGE, 'customers', 300);
    expect(few.rows).toBe(3);
    expect(many.rows).toBe(253);
    expect(many.statements).toHaveLength(few.statements.length);
    // The key, the page, the orders around each customer (its current order), each customer's orders,
    // their devices, the stores.
    expect(many.statements).toHaveLength(6);
  });
});
