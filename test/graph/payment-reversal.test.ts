// reversePayment and reverseVendorPayment (docs/decisions.md 44) through /graphql, on real clocks:
// a reversal gives back exactly what its payment took (balance, paid-through, lockAt; a later payment
// keeps its days), answers the in-store payment's transactions with their opposites (list-transactions
// shows them, summing to zero), tells payment.reversed, and leaves ledger:check clean; its refusals in
// their order; its Idempotency-Key; a reversal that puts lockAt in the past locks the device once.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import { DEFAULT_PARTNER_SETTINGS } from '../../src/modules/partners/settings.js';
import { scheduleLoadedOrders } from '../../src/modules/timeline/schedule.js';
import { fireAllDueInstants } from '../../src/modules/timeline/scheduler.js';
import { type ServiceFixture, useSeededService } from '../support/fixtures.js';
import { addTwinOrders } from '../support/twinOrders.js';
import { demoVendorNotifier } from '../support/vendorNotifications.js';

const DAY = 86_400;
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const OTHER_PARTNER = { 'x-api-key': 'other-partner-key' };

const PAY = `mutation ($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { payment { id time reversibleUntil } } }`;
const REVERSE = `mutation ($input: ReversePaymentInput!) { reversePayment(input: $input) {
  id amount currency reason time remainingBalance lockAt fullyPaid replayed
  payment { id reversal { id reason } } } }`;
const REVERSE_VENDOR = `mutation ($input: VendorPaymentReversalInput!) { reverseVendorPayment(input: $input) {
  id amount remainingBalance replayed payment { id channel vendorReference } } }`;
const ORDER = `query ($id: ID!) { financeOrder(id: $id) { remainingBalance lockAt paidThrough status } }`;

/** The suite's helpers over one fixture (each describe has its own database). */
function helpers(fixture: ServiceFixture) {
  const db = () => fixture.database.db;
  const send = async (headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) =>
    (await fixture.service.graphql(query, headers, variables)).body;
  const data = async (headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) => {
    const body = await send(headers, query, variables);
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data as any;
  };
  const pay = async (amount: string, orderId = DEMO_ORDER_ID) =>
    (
      await data(RETAIL, PAY, {
        input: {
          merchantId: DEMO_MERCHANT_ID,
          salesClerkId: DEMO_CLERK_ID,
          financeOrderId: orderId,
          amount,
          currency: 'USD',
        },
      })
    ).recordInStorePayment.payment as { id: string; time: number; reversibleUntil: number };
  const reverse = (headers: Record<string, string>, input: Record<string, unknown>) =>
    send(headers, REVERSE, { input });
  const order = async (id = DEMO_ORDER_ID) => (await data(PARTNER, ORDER, { id })).financeOrder;
  const refusal = (body: any) => body.errors?.[0]?.extensions?.code;
  return { db, send, data, pay, reverse, order, refusal };
}

describe('an in-store payment reversed by its partner', () => {
  const fixture = useSeededService();
  const { db, data, pay, reverse, order, refusal, send } = helpers(fixture);

  it('gives back the balance, paid-through and lockAt exactly, and answers the reversal', async () => {
    const before = await order();
    const payment = await pay('9');
    expect(payment.reversibleUntil).toBe(payment.time + 72 * 3600);
    expect((await order()).lockAt).toBeGreaterThan(before.lockAt);
    const body = await reverse(PARTNER, { paymentId: payment.id, reason: 'credited to the wrong order' });
    expect(body.errors).toBeUndefined();
    const reversal = body.data.reversePayment;
    expect(reversal).toMatchObject({
      amount: '9.00',
      currency: 'USD',
      reason: 'credited to the wrong order',
      remainingBalance: before.remainingBalance,
      lockAt: before.lockAt,
      fullyPaid: false,
      replayed: false,
      payment: { id: payment.id, reversal: { id: reversal.id, reason: 'credited to the wrong order' } },
    });
    expect(await order()).toEqual(before);
    // The payment and its own transactions are untouched; the opposites point at the reversal.
    const rows = await db()('transactions').where({ payment_id: payment.id }).orderBy('id');
    expect(rows.map((t) => [t.type, t.amount_minor, t.reversal_id])).toEqual([
      ['cash', '-900', null],
      ['commission', '45', null],
      ['cash', '900', reversal.id],
      ['commission', '-45', reversal.id],
    ]);
    expect((await db()('payments').where({ id: payment.id }).first()).amount_minor).toBe('900');
  });

  it('shows the opposites in list-transactions with the payment object, summing to zero', async () => {
    const payment = await pay('4');
    const reversal = (await reverse(PARTNER, { paymentId: payment.id, reason: 'duplicate' })).data.reversePayment;
    const now = Math.floor(Date.now() / 1000);
    const response = await fixture.service.request(
      `/v1/list-transactions.php?key=demo-partner-key&starttime=${now - DAY}&endtime=${now + DAY}&filter=payment.id:${payment.id}`,
    );
    expect(response.status).toBe(200);
    const { transactions } = (await response.json()) as { transactions: any[] };
    expect(transactions.map((t) => [t.type, t.amount])).toEqual([
      ['cash', -4],
      ['commission', 0.2],
      ['cash', 4],
      ['commission', -0.2],
    ]);
    for (const t of transactions) expect(t.payment).toEqual(transactions[0].payment);
    expect(transactions[0].payment).toMatchObject({ id: Number(payment.id), amount: 4 });
    expect(transactions.reduce((sum, t) => sum + Math.round(t.amount * 100), 0)).toBe(0);
    expect(transactions[2].time).toBe(reversal.time);
    // transaction.created for the opposites is the very JSON list-transactions answers.
    const created = await db()('events')
      .where({ partner_id: '1', type: 'transaction.created' })
      .orderBy('sequence', 'desc')
      .limit(2);
    expect(created.map((event) => event.data).reverse()).toEqual(transactions.slice(2));
  });

  it('tells payment.reversed and transaction.created for the opposites', async () => {
    const payment = await pay('2');
    const reversal = (await reverse(PARTNER, { paymentId: payment.id, reason: 'wrong amount' })).data.reversePayment;
    const events = await db()('events').where({ partner_id: '1' }).orderBy('sequence', 'desc').limit(3);
    expect(events.map((e) => e.type).reverse()).toEqual([
      'payment.reversed',
      'transaction.created',
      'transaction.created',
    ]);
    const reversed = events[2]!.data;
    expect(reversed).toEqual({
      reversal: { id: reversal.id, time: reversal.time, reason: 'wrong amount', reversedBy: 'PARTNER' },
      payment: {
        id: payment.id,
        time: payment.time,
        amount: '2.00',
        currency: 'USD',
        channel: 'IN_STORE',
        vendorReference: null,
      },
      financeOrder: {
        id: DEMO_ORDER_ID,
        status: 'ACTIVE',
        remainingBalance: reversal.remainingBalance,
        currency: 'USD',
        lockAt: reversal.lockAt,
      },
      device: { tag: 'DTSTBBB', imei: '123456789012347' },
    });
  });

  it('keeps the days of a later payment', async () => {
    const before = await order();
    const first = await pay('9');
    const second = await pay('18');
    await pay('9').then((third) => reverse(PARTNER, { paymentId: third.id, reason: 'scratch' }));
    const withBoth = await order();
    const reversal = (await reverse(PARTNER, { paymentId: first.id, reason: 'first one bounced' })).data.reversePayment;
    // Exactly as if only the second had been paid: the order's day rule on the total that remains.
    const onlySecond = await order();
    expect(reversal.lockAt).toBe(onlySecond.lockAt);
    expect(onlySecond.lockAt).toBeLessThan(withBoth.lockAt);
    expect(onlySecond.lockAt).toBeGreaterThan(before.lockAt);
    expect(Number(onlySecond.remainingBalance)).toBe(Number(before.remainingBalance) - 18);
    // Reversing the second too brings the order back to where it stood before either.
    await reverse(PARTNER, { paymentId: second.id, reason: 'also bounced' });
    expect(await order()).toEqual(before);
  });

  it('refuses a second reversal (409 PAYMENT_ALREADY_REVERSED, naming the first), writing nothing', async () => {
    const payment = await pay('3');
    const first = (await reverse(PARTNER, { paymentId: payment.id, reason: 'once' })).data.reversePayment;
    const standing = await order();
    const again = await reverse(OPERATOR, { paymentId: payment.id, reason: 'twice' });
    expect(refusal(again)).toBe('PAYMENT_ALREADY_REVERSED');
    expect(again.errors[0].extensions.reversalId).toBe(first.id);
    expect(await order()).toEqual(standing);
    expect(await db()('payment_reversals').where({ payment_id: payment.id })).toHaveLength(1);
  });

  it('replays the first answer under the same Idempotency-Key, and refuses the key for another request', async () => {
    const payment = await pay('5');
    const input = { paymentId: payment.id, reason: 'customer asked', idempotencyKey: 'rev-key-1' };
    const first = (await reverse(PARTNER, input)).data.reversePayment;
    await pay('1'); // the order moves on: the replay still answers the first answer
    const replay = (await reverse(PARTNER, input)).data.reversePayment;
    expect(replay).toEqual({ ...first, replayed: true });
    expect(refusal(await reverse(PARTNER, { ...input, reason: 'another reason' }))).toBe('IDEMPOTENCY_CONFLICT');
    const other = await pay('1');
    expect(refusal(await reverse(PARTNER, { ...input, paymentId: other.id }))).toBe('IDEMPOTENCY_CONFLICT');
    // Scoped to the caller: the operator's same key is a key of its own.
    expect((await reverse(OPERATOR, { ...input, paymentId: other.id })).data.reversePayment.replayed).toBe(false);
    expect(await db()('payment_reversals').where({ idempotency_key: 'rev-key-1' }).select('idempotency_scope')).toEqual(
      expect.arrayContaining([
        { idempotency_scope: 'partner:1' },
        { idempotency_scope: expect.stringMatching(/^operator:/) },
      ]),
    );
  });

  it("answers another partner's payment and an unknown one alike (404), and refuses retail and vendor keys", async () => {
    const payment = await pay('1');
    expect(refusal(await reverse(OTHER_PARTNER, { paymentId: payment.id, reason: 'x' }))).toBe('RESOURCE_NOT_FOUND');
    expect(refusal(await reverse(PARTNER, { paymentId: '99999999', reason: 'x' }))).toBe('RESOURCE_NOT_FOUND');
    expect(refusal(await reverse(PARTNER, { paymentId: 'abc', reason: 'x' }))).toBe('RESOURCE_NOT_FOUND');
    expect(refusal(await reverse(RETAIL, { paymentId: payment.id, reason: 'x' }))).toBe('FORBIDDEN');
    const reason = await reverse(PARTNER, { paymentId: payment.id, reason: '' });
    expect(reason.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'input.reason' });
    expect(refusal(await reverse(PARTNER, { paymentId: payment.id, reason: 'x'.repeat(501) }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await db()('payment_reversals').where({ payment_id: payment.id })).toHaveLength(0);
  });

  it("lets a vendor reverse its payment by reference, refuses a partner key on it (403) and another vendor's (404)", async () => {
    const notify = demoVendorNotifier(() => fixture.service);
    const reference = `rev-${Date.now()}`;
    const notified = await notify({ reference, amount: '6.00', deviceTag: 'DTSTBBB' });
    expect(notified.status).toBe(200);
    const paymentId = (await db()('payments').where({ vendor_reference: reference }).first()).id as string;
    expect(refusal(await reverse(PARTNER, { paymentId, reason: 'mine?' }))).toBe('FORBIDDEN');
    const token = async (apiKey: string) =>
      (await data({}, 'mutation ($apiKey: String!) { createAccessToken(apiKey: $apiKey) { accessToken } }', { apiKey }))
        .createAccessToken.accessToken as string;
    const demoVendor = { authorization: `Bearer ${await token('demo-vendor-key')}` };
    const otherVendor = { authorization: `Bearer ${await token('other-vendor-key')}` };
    const otherName = (await db()('payment_vendors').where({ name: 'other-vendor' }).first())?.name ?? 'other-vendor';
    const asOther = await send(otherVendor, REVERSE_VENDOR, {
      input: { paymentVendor: otherName, reference, reason: 'not mine' },
    });
    expect(refusal(asOther)).toBe('RESOURCE_NOT_FOUND');
    const misnamed = await send(demoVendor, REVERSE_VENDOR, {
      input: { paymentVendor: 'other-vendor', reference, reason: 'x' },
    });
    expect(refusal(misnamed)).toBe('FORBIDDEN');
    expect(refusal(await reverse(demoVendor, { paymentId, reason: 'x' }))).toBe('FORBIDDEN');
    const input = { paymentVendor: 'demo-vendor', reference, reason: 'customer disputed', idempotencyKey: 'v-1' };
    const reversed = (await data(demoVendor, REVERSE_VENDOR, { input })).reverseVendorPayment;
    expect(reversed).toMatchObject({
      amount: '6.00',
      replayed: false,
      payment: { id: paymentId, channel: 'VENDOR', vendorReference: reference },
    });
    expect((await data(demoVendor, REVERSE_VENDOR, { input })).reverseVendorPayment).toEqual({
      ...reversed,
      replayed: true,
    });
    // A vendor's payment made no partner transaction, and its reversal makes none.
    expect(await db()('transactions').where({ payment_id: paymentId })).toEqual([]);
    const event = await db()('events').where({ type: 'payment.reversed' }).orderBy('sequence', 'desc').first();
    expect(event.data.reversal.reversedBy).toBe('VENDOR');
    expect(event.data.payment.vendorReference).toBe(reference);
  });

  it('leaves ledger:check clean', async () => {
    expect((await checkLedger(db(), { retentionDays: 3650 })).problems).toEqual([]);
  });
});

describe('the reversal window', () => {
  const fixture = useSeededService();
  const { data, pay, reverse, refusal } = helpers(fixture);

  it('is fixed when the payment is received: a window of 0 refuses, a later change moves no payment', async () => {
    const earlier = await pay('1');
    const setWindow = (hours: number) =>
      data(
        OPERATOR,
        'mutation ($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { settings { reversalWindowHours } } }',
        { input: { partnerId: '1', reversalWindowHours: hours } },
      );
    expect((await setWindow(0)).updatePartnerSettings.settings.reversalWindowHours).toBe(0);
    const audit = await fixture.database
      .db('audit_events')
      .where({ action: 'partner.settings.update', partner_id: 1 })
      .orderBy('id', 'desc')
      .first();
    expect([audit.details.before.reversalWindowHours, audit.details.after.reversalWindowHours]).toEqual([72, 0]);
    const closed = await pay('1');
    expect(closed.reversibleUntil).toBe(closed.time);
    const refused = await reverse(PARTNER, { paymentId: closed.id, reason: 'too late' });
    expect(refusal(refused)).toBe('REVERSAL_WINDOW_CLOSED');
    expect(Math.floor(Date.parse(refused.errors[0].extensions.reversibleUntil) / 1000)).toBe(closed.time);
    await setWindow(72);
    // The payment made under 72 hours keeps them.
    expect((await reverse(PARTNER, { paymentId: earlier.id, reason: 'fine' })).errors).toBeUndefined();
  });

  it('closes at reversibleUntil on the partner clock (a sandbox clock moved past it)', async () => {
    const payment = await pay('2');
    await data(OPERATOR, 'mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
      input: { partnerId: '1', now: payment.reversibleUntil + 1 },
    });
    expect(refusal(await reverse(OPERATOR, { paymentId: payment.id, reason: 'late' }))).toBe('REVERSAL_WINDOW_CLOSED');
  });
});

describe('a reversal that puts lockAt in the past', () => {
  const fixture = useSeededService();
  const { db, pay, reverse, order } = helpers(fixture);
  const lockedEvents = async (orderId: string) =>
    db()('events')
      .where({ partner_id: '1', type: 'device.locked' })
      .whereRaw(`data->'financeOrder'->>'id' = ?`, [orderId]);

  it('makes the lock due at once: the scheduler writes device.locked exactly once', async () => {
    const now = Date.now();
    // Sold 70 days ago with one month paid: paid through 10 days ago, locked (fired without an event).
    const [id] = await addTwinOrders(db(), 9200001, 1, new Date(now - 70 * DAY * 1000));
    await scheduleLoadedOrders(db(), '1', DEFAULT_PARTNER_SETTINGS, new Date(now), [id!]);
    expect((await order(id)).status).toBe('LOCKED');
    const payment = await pay('36', id);
    expect((await order(id)).status).toBe('ACTIVE');
    await fireAllDueInstants(db());
    expect(await lockedEvents(id!)).toHaveLength(0);
    const reversal = (await reverse(PARTNER, { paymentId: payment.id, reason: 'bounced' })).data.reversePayment;
    expect(reversal.lockAt).toBeLessThan(Math.floor(Date.now() / 1000));
    expect((await order(id)).status).toBe('LOCKED');
    // No unlock, no release from a reversal; the lock is the scheduler's, once.
    await fireAllDueInstants(db());
    await fireAllDueInstants(db());
    expect(await lockedEvents(id!)).toHaveLength(1);
    const after = await db()('events')
      .where({ partner_id: '1' })
      .whereIn('type', ['device.unlocked', 'device.released'])
      .whereRaw(`data->'financeOrder'->>'id' = ?`, [id!]);
    expect(after).toHaveLength(1); // the payment's unlock, before the reversal
  });
});
