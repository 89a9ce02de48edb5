// Every cursor connection of the graph has the Relay shape: edges (cursor, node) beside nodes, and
// pageInfo with hasNextPage, hasPreviousPage, startCursor and endCursor. hasPreviousPage is exact:
// false on a first page; after a cursor, true only when the listing, with the request's filters,
// holds an edge at or before it. The audit trail alone has totalCount (it is cheap there).
import { describe, expect, it } from 'vitest';
import { DEMO_DEVICE_TAG, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
const fixture = useSeededService({ now: NOW });
const as = (key: string) => async (query: string, variables?: Record<string, unknown>) =>
  (await fixture.service.graphql(query, { 'x-api-key': key }, variables)).body as any;
const partner = as('demo-partner-key');
const operator = as('demo-operator-key');

const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

/** The connection's shape holds: edges and nodes alike, cursors of the first and last edge. */
function checkShape(connection: any) {
  expect(connection.edges.map((edge: any) => edge.node.id)).toEqual(connection.nodes.map((node: any) => node.id));
  expect(connection.pageInfo.startCursor).toBe(connection.edges[0]?.cursor ?? null);
  expect(connection.pageInfo.endCursor).toBe(connection.edges.at(-1)?.cursor ?? null);
}

describe('transactions', () => {
  const LIST = `query($first: Int, $after: String, $filter: [String!]) {
    transactions(start: ${T - 365 * DAY}, end: ${T + DAY}, first: $first, after: $after, filter: $filter) {
      edges { cursor node { id type } } nodes { id type } ${PAGE_INFO} } }`;

  it('pages with edges and pageInfo; hasPreviousPage is false first, true after a cursor, false when the filter keeps nothing up to it', async () => {
    const all = (await partner(LIST)).data.transactions;
    checkShape(all);
    expect(all.nodes.length).toBeGreaterThan(3);
    expect(all.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });

    const first = (await partner(LIST, { first: 2 })).data.transactions;
    checkShape(first);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = (await partner(LIST, { first: 2, after: first.pageInfo.endCursor })).data.transactions;
    checkShape(second);
    expect(second.nodes.map((node: any) => node.id)).toEqual(all.nodes.slice(2, 4).map((node: any) => node.id));
    expect(second.pageInfo.hasPreviousPage).toBe(true);

    // The first CASH transaction comes after the first two: with filter type:cash, nothing precedes the cursor.
    const firstCash = all.nodes.findIndex((node: any) => node.type === 'CASH');
    expect(firstCash).toBeGreaterThanOrEqual(2);
    const cash = (await partner(LIST, { filter: ['type:cash'], after: first.pageInfo.endCursor })).data.transactions;
    expect(cash.nodes.length).toBeGreaterThan(0);
    expect(cash.pageInfo.hasPreviousPage).toBe(false);
    const cashAfterIt = (await partner(LIST, { filter: ['type:cash'], after: cash.edges[0].cursor })).data.transactions;
    expect(cashAfterIt.pageInfo.hasPreviousPage).toBe(true);
  });
});

describe('events', () => {
  const LIST = `query($first: Int, $after: String, $types: [EventType!], $partnerId: ID) {
    events(first: $first, after: $after, types: $types, partnerId: $partnerId) {
      edges { cursor node { id type } } nodes { id type } ${PAGE_INFO} } }`;

  it.each([
    ['a partner key (by sequence)', partner],
    ['an operator (by time, every partner)', operator],
  ])('%s: edges and pageInfo; hasPreviousPage after a cursor', async (_who, ask) => {
    const first = (await ask(LIST, { first: 2 })).data.events;
    checkShape(first);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = (await ask(LIST, { first: 2, after: first.pageInfo.endCursor })).data.events;
    checkShape(second);
    expect(second.pageInfo.hasPreviousPage).toBe(true);
    // Newest first: an older type's listing after the newest event's cursor has nothing newer than it.
    const newest = first.nodes[0];
    const others = (await ask(LIST, { after: first.edges[0].cursor, types: ['FINANCE_ORDER_CREATED'] })).data.events;
    expect(newest.type).not.toBe('FINANCE_ORDER_CREATED');
    expect(others.nodes.length).toBeGreaterThan(0);
    expect(others.pageInfo.hasPreviousPage).toBe(false);
  });
});

describe('auditEvents', () => {
  const LIST = `query($first: Int, $after: String, $action: String, $partnerId: ID) {
    auditEvents(first: $first, after: $after, action: $action, partnerId: $partnerId) {
      edges { cursor node { id action } } nodes { id action } ${PAGE_INFO} totalCount } }`;

  it('edges, pageInfo and totalCount: how many events the filters keep on every page together', async () => {
    for (const name of ['Browse One', 'Browse Two', 'Browse Three'])
      expect(
        (await operator(`mutation { createPartner(input: { name: "${name}", commissionRateBasisPoints: 0 }) { id } }`))
          .errors,
      ).toBeUndefined();
    expect((await operator('mutation { createDeviceFamily(name: "Browse Family") { id } }')).errors).toBeUndefined();
    const rows = await fixture.database.db('audit_events').orderBy('id', 'desc');
    const partnerCreations = rows.filter((row) => row.action === 'partner.create');
    expect(partnerCreations).toHaveLength(3);

    const first = (await operator(LIST, { first: 2 })).data.auditEvents;
    checkShape(first);
    expect(first.totalCount).toBe(rows.length);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = (await operator(LIST, { first: 2, after: first.pageInfo.endCursor })).data.auditEvents;
    checkShape(second);
    expect(second.totalCount).toBe(rows.length);
    expect(second.pageInfo.hasPreviousPage).toBe(true);

    const created = (await operator(LIST, { action: 'partner.create', first: 1 })).data.auditEvents;
    expect(created.totalCount).toBe(3);
    // The device family is the newest event: no partner creation is at or before (newer than) its cursor.
    const newest = first.edges[0];
    expect(newest.node.action).toBe('device_family.create');
    const afterNewest = (await operator(LIST, { action: 'partner.create', after: newest.cursor })).data.auditEvents;
    expect(afterNewest.nodes).toHaveLength(3);
    expect(afterNewest.pageInfo.hasPreviousPage).toBe(false);
    expect((await operator(LIST, { partnerId: 'none' })).data.auditEvents).toMatchObject({ nodes: [], totalCount: 0 });
  });
});

describe("the short lists read whole and paged: a customer's orders and devices", () => {
  const CUSTOMER = `query($after: String) { customer(locator: "${DEMO_DEVICE_TAG}") {
    financeOrders(first: 1, after: $after) { edges { cursor node { id } } nodes { id } ${PAGE_INFO} }
    devices(first: 1) { edges { cursor node { id } } nodes { id } ${PAGE_INFO} } } }`;

  it('page as every connection does; after the last edge the page is empty and hasPreviousPage true', async () => {
    const customer = (await partner(CUSTOMER)).data.customer;
    checkShape(customer.financeOrders);
    checkShape(customer.devices);
    expect(customer.financeOrders.nodes.map((node: any) => node.id)).toEqual([DEMO_ORDER_ID]);
    expect(customer.financeOrders.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    expect(customer.devices.nodes).toHaveLength(1);
    const after = (await partner(CUSTOMER, { after: customer.financeOrders.pageInfo.endCursor })).data.customer;
    expect(after.financeOrders).toMatchObject({ nodes: [], pageInfo: { hasNextPage: false, hasPreviousPage: true } });
  });

  it("refuses another connection's cursor, naming after", async () => {
    const devices = (await partner(CUSTOMER)).data.customer.devices;
    const foreign = await partner(CUSTOMER, { after: devices.pageInfo.endCursor });
    expect(foreign.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'after' });
  });
});
