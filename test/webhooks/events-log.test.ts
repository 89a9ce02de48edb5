// The event log's writes: each change writes its events in its own transaction, and each payload is
// the legacy object the REST routes answer for the same thing, byte for byte (one mapper serves both).
import { describe, expect, it } from 'vitest';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
const fixture = useSeededService({ now: NOW });
const get = async (path: string) => (await (await fixture.service.request(path)).json()) as any;
const operator = async (query: string, variables?: Record<string, unknown>) => {
  const { body } = await fixture.service.graphql(query, { 'x-api-key': 'demo-operator-key' }, variables);
  expect((body as any).errors).toBeUndefined();
  return (body as any).data;
};
/** The demo partner's events after `sequence`, oldest first. */
const eventsAfter = (sequence: number) =>
  fixture.database.db('events').where({ partner_id: 1 }).where('sequence', '>', sequence).orderBy('sequence');
const lastSequence = async () =>
  Number((await fixture.database.db('events').where({ partner_id: 1 }).max({ n: 'sequence' }).first())?.n ?? 0);
const listed = async () =>
  (await get(`/v1/list-transactions.php?key=demo-partner-key&starttime=${T}&endtime=${T + DAY}`)).transactions;
/** The list-transactions item the event tells of, compared as the JSON text both write. */
const sameAsListed = (items: unknown[], data: unknown) =>
  expect(items.map((item) => JSON.stringify(item))).toContain(JSON.stringify(data));

const RECORD = `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&currency=USD`;

describe('the events a change writes', () => {
  it("an in-store payment: payment.recorded in the graph's dialect, its cash and commission as listed", async () => {
    const before = await lastSequence();
    const receipt = (await get(`${RECORD}&amount=9.00`)).payment;
    const events = await eventsAfter(before);
    expect(events.map((event) => event.type)).toEqual([
      'payment.recorded',
      'transaction.created',
      'transaction.created',
    ]);
    // Numbered in the order written, after every earlier event of the partner.
    const first = Number(events[0].sequence);
    expect(first).toBeGreaterThan(before);
    expect(events.map((event) => Number(event.sequence))).toEqual([first, first + 1, first + 2]);
    // Ids and amounts as strings, the channel as the graph's enum (docs/decisions.md 41).
    expect(events[0].data).toEqual({
      payment: {
        id: String(receipt.id),
        time: receipt.time,
        amount: '9.00',
        currency: 'USD',
        channel: 'IN_STORE',
        deviceTag: DEMO_DEVICE_TAG,
        financeOrderId: DEMO_ORDER_ID,
      },
      financeOrder: {
        id: DEMO_ORDER_ID,
        remainingBalance: '189.00',
        nextPayment: receipt.nextPayment,
        fullyPaid: false,
      },
    });
    const items = await listed();
    for (const event of events.slice(1)) sameAsListed(items, event.data);
    expect(new Set(events.slice(1).map((event) => (event.data as any).type))).toEqual(new Set(['cash', 'commission']));
  });

  it('a replay with the same Idempotency-Key writes no event', async () => {
    const key = { headers: { 'idempotency-key': 'events-replay-1' } };
    await fixture.service.request(`${RECORD}&amount=1.00`, key);
    const before = await lastSequence();
    const replay = await fixture.service.request(`${RECORD}&amount=1.00`, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await eventsAfter(before)).toEqual([]);
  });

  it('an adjustment: transaction.created as listed', async () => {
    const before = await lastSequence();
    await operator(
      `mutation { createAdjustment(input: { partnerId: "1", kind: PAYMENT, amount: "-1.50", currency: "USD", notes: "till short", merchantId: "${DEMO_MERCHANT_ID}", financeOrderId: "${DEMO_ORDER_ID}" }) { id } }`,
    );
    const events = await eventsAfter(before);
    expect(events.map((event) => event.type)).toEqual(['transaction.created']);
    expect((events[0].data as any).type).toBe('adjustment');
    sameAsListed(await listed(), events[0].data);
  });

  it("financing a cart: finance_order.created as lookup-customer's financeOrder, the finance transaction as listed", async () => {
    const device = (
      await operator(
        'mutation { createDevice(input: { partnerId: "1", customerId: "4000005", modelId: "3", tag: "DTEVENTS1", imei: "356938035643817", simNumber: "8901", phoneNumber: "13035550188" }) { id } }',
      )
    ).createDevice;
    const before = await lastSequence();
    await operator(
      `mutation { financeCart(input: { partnerId: "1", cartTag: "${DEMO_CART_TAG}", deviceId: "${device.id}" }) { id } }`,
    );
    const events = await eventsAfter(before);
    expect(events.map((event) => event.type)).toEqual(['finance_order.created', 'transaction.created']);
    const lookup = await get('/v1/lookup-customer.php?key=demo-partner-key&customerLocator=DTEVENTS1');
    expect(JSON.stringify(events[0].data)).toBe(JSON.stringify(lookup.financeOrder));
    expect((events[1].data as any).type).toBe('finance');
    sameAsListed(await listed(), events[1].data);
    // Its lock timeline: the first deadline's reminders and lock, pending (decisions.md 18).
    const instants = await fixture.database
      .db('lock_timeline')
      .where({ partner_id: 1, finance_order_id: String((events[0].data as any).id) })
      .orderBy('due_at')
      .select('kind', 'days_left', 'state');
    expect(instants).toEqual([
      { kind: 'reminder', days_left: 3, state: 'pending' },
      { kind: 'reminder', days_left: 1, state: 'pending' },
      { kind: 'lock', days_left: null, state: 'pending' },
    ]);
  });

  it('the payment that pays an order off writes finance_order.paid_off with a zero balance; its release waits for the window', async () => {
    const order = (await operator(`{ financeOrder(id: "${DEMO_ORDER_ID}") { remainingBalance } }`)).financeOrder;
    const before = await lastSequence();
    const receipt = (await get(`${RECORD}&amount=${order.remainingBalance}`)).payment;
    expect(receipt.fullyPaid).toBe(true);
    const events = await eventsAfter(before);
    expect(events.map((event) => event.type)).toEqual([
      'payment.recorded',
      'transaction.created',
      'transaction.created',
      'finance_order.paid_off',
    ]);
    expect(events[3].data).toMatchObject({ id: Number(DEMO_ORDER_ID), remainingBalance: 0 });
    // device.released comes when the payoff's reversal window closes, from the lock timeline (decisions.md 44).
    const lookup = await get(`/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_TAG}`);
    expect(JSON.stringify(events[3].data)).toBe(JSON.stringify(lookup.financeOrder));
  });
});
