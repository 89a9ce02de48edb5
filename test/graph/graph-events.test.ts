// Reading the event log through the graph: newest first, a page at a time, by type; one event by id;
// partner keys their own partner's log, operators every partner's, retail keys none.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const as = (key: string) => async (query: string, variables?: Record<string, unknown>) =>
  (await fixture.service.graphql(query, { 'x-api-key': key }, variables)).body as any;
const partner = as('demo-partner-key');
const operator = as('demo-operator-key');

const PAGE = `query($first: Int, $after: String, $types: [EventType!], $partnerId: ID) {
  events(first: $first, after: $after, types: $types, partnerId: $partnerId) {
    nodes { id type occurredAt sequence data partner { id name } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** Every page of a listing, `first` at a time. */
async function walk(ask: typeof partner, variables: Record<string, unknown>) {
  const nodes: any[] = [];
  let after: string | null = null;
  for (;;) {
    const body = await ask(PAGE, { ...variables, after });
    expect(body.errors).toBeUndefined();
    nodes.push(...body.data.events.nodes);
    if (!body.data.events.pageInfo.hasNextPage) return nodes;
    after = body.data.events.pageInfo.endCursor;
  }
}

describe('Query.events and Query.event', () => {
  it("a partner key pages its own partner's log newest first, by sequence, and filters by type", async () => {
    await fixture.service.request(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=2.00&currency=USD`,
    );
    const rows = await fixture.database.db('events').where({ partner_id: 1 }).orderBy('sequence', 'desc');
    const all = await walk(partner, { first: 2 });
    expect(all.map((node) => node.id)).toEqual(rows.map((row) => row.id));
    expect(all.map((node) => Number(node.sequence))).toEqual(rows.map((row) => Number(row.sequence)));
    expect(new Set(all.map((node) => node.partner.name))).toEqual(new Set(['Demo Retail']));
    const [newest] = all;
    expect(newest).toMatchObject({ type: 'TRANSACTION_CREATED', occurredAt: Math.floor(NOW.getTime() / 1000) });
    const payments = await walk(partner, { first: 500, types: ['PAYMENT_RECORDED'] });
    expect(payments.map((node) => node.id)).toEqual(
      rows.filter((row) => row.type === 'payment.recorded').map((row) => row.id),
    );
    expect(payments[0].data.payment).toMatchObject({ amount: '2.00', currency: 'USD', channel: 'IN_STORE' });

    const one = await partner('query($id: ID!) { event(id: $id) { id type data } }', { id: payments[0].id });
    expect(one.data.event).toEqual({ id: payments[0].id, type: 'PAYMENT_RECORDED', data: payments[0].data });
  });

  it("operators read every partner's log by time, or one partner's; others' events are null to a partner key", async () => {
    const rows = await fixture.database.db('events').orderBy([
      { column: 'occurred_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
    const all = await walk(operator, { first: 3 });
    expect(all.map((node) => node.id)).toEqual(rows.map((row) => row.id));
    expect(new Set(all.map((node) => node.partner.name))).toEqual(new Set(['Demo Retail', 'Other Retail']));
    const other = rows.filter((row) => String(row.partner_id) === '2');
    const ofOther = await walk(operator, { first: 500, partnerId: '2' });
    expect(ofOther.map((node) => node.id)).toEqual(
      [...other].sort((a, b) => Number(b.sequence) - Number(a.sequence)).map((row) => row.id),
    );
    expect((await operator('query($id: ID!) { event(id: $id) { id } }', { id: other[0].id })).data.event).toEqual({
      id: other[0].id,
    });
    expect((await partner('query($id: ID!) { event(id: $id) { id } }', { id: other[0].id })).data.event).toBeNull();
    expect((await partner(PAGE, { partnerId: '2' })).data.events.nodes).toEqual([]);
  });

  it('refuses retail keys, a bad cursor, and a page size out of range', async () => {
    const retail = as('demo-retail-key');
    expect((await retail(PAGE, {})).errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await retail('{ event(id: "evt_0000000000AAAAAAAAAAAAAAAA") { id } }')).errors[0].extensions.code).toBe(
      'FORBIDDEN',
    );
    const bad = await partner(PAGE, { after: 'not-a-cursor' });
    expect(bad.errors[0]).toMatchObject({ extensions: { code: 'INVALID_ARGUMENT' } });
    expect(bad.errors[0].message).toContain('after');
    // An operator's cross-partner cursor is not one of a single partner's log.
    const page = await operator(PAGE, { first: 1 });
    const mixed = await partner(PAGE, { after: page.data.events.pageInfo.endCursor });
    expect(mixed.errors[0].extensions.code).toBe('INVALID_ARGUMENT');
    expect((await partner(PAGE, { first: 501 })).errors[0].extensions.code).toBe('INVALID_ARGUMENT');
    expect((await partner('{ event(id: "nonsense") { id } }')).data.event).toBeNull();
  });
});
