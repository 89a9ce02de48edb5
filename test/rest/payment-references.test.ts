// Payment references end to end (decisions.md 17), on PGlite and on Postgres: made by amount or by
// days, read and cancelled within the caller's partner, paid once through a vendor's notification,
// refused when paid, expired, cancelled, unknown or for another amount, with nothing recorded on any
// refusal; a replay answers the first receipt; a reference refused as expired stays expired after a
// sandbox clock reset; and on Postgres, 50 notifications racing for one reference record one payment.

import { describe, expect, it } from 'vitest';
import { DEMO_DEVICE_TAG, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import type { PartnerClocks } from '../../src/modules/partners/clock.js';
import { newCode } from '../../src/modules/paymentReferences/code.js';
import { insertPaymentReference } from '../../src/modules/paymentReferences/queries.js';
import { acceptNotification } from '../../src/modules/payments/notification.js';
import type { PaymentVendorRow } from '../../src/modules/vendors/rows.js';
import { onServer } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { TEST_UNLOCK_KEYS } from '../support/unlockKeys.js';

/** Every partner at one instant, as acceptNotification reads the time. */
const clockAt = (now: Date): PartnerClocks => ({ nowFor: () => now });

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const db = () => fixture.database.db;
const service = () => fixture.service;

const PARTNER = { 'x-api-key': 'demo-partner-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };
const OTHER_PARTNER = { 'x-api-key': 'other-partner-key' };
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
// Demo Retail's second open order (owes 240.00), for the race.
const SECOND_ORDER_ID = '4000012';

const REFERENCE_FIELDS = 'code amount currency daysPaid expiresAt status financeOrder { id } payment { id amount }';
const CREATE = `mutation ($input: CreatePaymentReferenceInput!) { createPaymentReference(input: $input) { ${REFERENCE_FIELDS} } }`;
const READ = `query ($code: String!) { paymentReference(code: $code) { ${REFERENCE_FIELDS} } }`;
const CANCEL = `mutation ($code: String!) { cancelPaymentReference(code: $code) { ${REFERENCE_FIELDS} } }`;
const ORDER = `query ($id: ID!, $first: Int, $after: String) { financeOrder(id: $id) { nextPayment
  paymentReferences(first: $first, after: $after) { nodes { code status } pageInfo { hasNextPage hasPreviousPage endCursor } } } }`;

async function graphql(headers: Record<string, string>, query: string, variables: Record<string, unknown>) {
  const { body } = await service().graphql(query, headers, variables);
  return body as { data: any; errors?: Array<{ message: string; extensions: { code: string } }> };
}

async function create(input: Record<string, unknown>, headers = PARTNER) {
  const body = await graphql(headers, CREATE, { input });
  expect(body.errors).toBeUndefined();
  return body.data.createPaymentReference as Record<string, any>;
}

const errorCode = (body: { errors?: Array<{ extensions: { code: string } }> }) => body.errors?.[0]?.extensions.code;

const countOf = async (table: string): Promise<number> => Number((await db()(table).count({ n: '*' }))[0]!.n);

/** Everything a notification or a refused creation could write. */
async function snapshot() {
  return {
    payments: await countOf('payments'),
    notifications: await countOf('vendor_notifications'),
    events: await countOf('events'),
    references: await db()('payment_references').select('code', 'status', 'payment_id').orderBy('id'),
    balances: await db()('finance_orders').select('partner_id', 'id', 'total_paid_minor').orderBy(['partner_id', 'id']),
  };
}

let token: string | undefined;
async function vendorToken(): Promise<string> {
  if (token) return token;
  const response = await service().request('/payments/v1/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
  });
  token = ((await response.json()) as { data: { access_token: string } }).data.access_token;
  return token;
}

let vendorReferences = 0;
/** A demo-vendor notification through the REST door; its schema wants a locator, so the order's device tag rides along. */
async function notify(fields: Record<string, unknown>) {
  const body = {
    paymentVendor: 'demo-vendor',
    currency: 'USD',
    reference: `PR-TEST-${++vendorReferences}`,
    deviceTag: DEMO_DEVICE_TAG,
    ...fields,
  };
  const response = await service().request('/payments/v1/notification', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await vendorToken()}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any, sent: body };
}

/** A notification that must be refused with `status` and `code`, writing nothing. */
async function expectRefused(fields: Record<string, unknown>, status: number, code: string) {
  const before = await snapshot();
  const answer = await notify(fields);
  expect(answer.body.error?.code, JSON.stringify(answer.body)).toBe(code);
  expect(answer.status).toBe(status);
  expect(await snapshot()).toEqual(before);
}

/** A code with a valid check character that no reference has. */
function unknownCode(): string {
  return newCode();
}

describe('creating a payment reference', () => {
  it('by days: the cheapest amount buying them (7 days of order 4000004 cost 4.20), expiring in 72 hours', async () => {
    const reference = await create({ financeOrderId: DEMO_ORDER_ID, daysPaid: 7 });
    expect(reference).toEqual({
      code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{9}$/),
      amount: '4.20',
      currency: 'USD',
      daysPaid: 7,
      expiresAt: NOW.getTime() / 1000 + 72 * 3600,
      status: 'OPEN',
      financeOrder: { id: DEMO_ORDER_ID },
      payment: null,
    });
  });

  it('by amount (4.00 buys 6 days), with a retail key and an expiry of its own', async () => {
    const reference = await create({ financeOrderId: DEMO_ORDER_ID, amount: '4.00', expiresInHours: 1 }, RETAIL);
    expect(reference).toMatchObject({ amount: '4.00', daysPaid: 6, expiresAt: NOW.getTime() / 1000 + 3600 });
  });

  it('refuses bad input with its code and writes nothing', async () => {
    const before = await snapshot();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ amount: '4.00', daysPaid: 7 }, 'INVALID_ARGUMENT'],
      [{}, 'INVALID_ARGUMENT'],
      [{ amount: '0' }, 'INVALID_PAYMENT_AMOUNT'],
      [{ amount: '4.001' }, 'INVALID_PAYMENT_AMOUNT'],
      [{ amount: '198.01' }, 'AMOUNT_EXCEEDS_BALANCE'],
      [{ daysPaid: 0 }, 'INVALID_ARGUMENT'],
      [{ daysPaid: 3601 }, 'INVALID_ARGUMENT'],
      [{ amount: '1.00', expiresInHours: 0 }, 'INVALID_ARGUMENT'],
      [{ amount: '1.00', expiresInHours: 721 }, 'INVALID_ARGUMENT'],
    ];
    for (const [input, code] of refusals) {
      const body = await graphql(PARTNER, CREATE, { input: { financeOrderId: DEMO_ORDER_ID, ...input } });
      expect(errorCode(body), JSON.stringify(input)).toBe(code);
    }
    // Days past the balance are capped at it: the whole 198.00.
    expect(
      (await graphql(PARTNER, CREATE, { input: { financeOrderId: DEMO_ORDER_ID, daysPaid: 3600 } })).data,
    ).toMatchObject({ createPaymentReference: { amount: '198.00' } });
    await db()('payment_references').where({ amount_minor: 19800 }).delete();
    expect(await snapshot()).toEqual(before);
  });

  it("keeps each partner to its own: another partner's order and reference are not found; vendors are forbidden", async () => {
    const reference = await create({ financeOrderId: DEMO_ORDER_ID, amount: '1.00' });
    const before = await snapshot();
    expect(
      errorCode(await graphql(OTHER_PARTNER, CREATE, { input: { financeOrderId: DEMO_ORDER_ID, amount: '1.00' } })),
    ).toBe('RESOURCE_NOT_FOUND');
    expect((await graphql(OTHER_PARTNER, READ, { code: reference.code })).data.paymentReference).toBeNull();
    expect(errorCode(await graphql(OTHER_PARTNER, CANCEL, { code: reference.code }))).toBe(
      'PAYMENT_REFERENCE_NOT_FOUND',
    );
    const vendor = await graphql({ authorization: `Bearer ${await vendorToken()}` }, READ, { code: reference.code });
    expect(errorCode(vendor)).toBe('FORBIDDEN');
    expect(await snapshot()).toEqual(before);
    // Its own partner and operators read it.
    expect((await graphql(RETAIL, READ, { code: reference.code })).data.paymentReference.code).toBe(reference.code);
    expect((await graphql(OPERATOR, READ, { code: reference.code.toLowerCase() })).data.paymentReference.code).toBe(
      reference.code,
    );
    expect((await graphql(OPERATOR, CANCEL, { code: reference.code })).data.cancelPaymentReference.status).toBe(
      'CANCELLED',
    );
    // An operator's writes are in the audit trail; a partner's, like its payments, are not.
    const trail = await db()('audit_events').where({ subject_kind: 'payment_reference' }).orderBy('id');
    expect(trail.map((event) => [event.action, event.actor_kind, event.details.code])).toEqual([
      ['payment_reference.cancel', 'operator', reference.code],
    ]);
    const made = await create({ financeOrderId: DEMO_ORDER_ID, amount: '1.00' }, OPERATOR);
    const last = await db()('audit_events').where({ subject_kind: 'payment_reference' }).orderBy('id', 'desc').first();
    expect([last.action, last.details.code, last.partner_id]).toEqual(['payment_reference.create', made.code, '1']);
  });

  it('draws another code when the one drawn is taken: the insert skips a taken code instead of failing', async () => {
    const taken = await db()('payment_references').first();
    const {
      code: _code,
      id: _id,
      status: _status,
      payment_id: _payment,
      paid_at: _paid,
      cancelled_at: _cancelled,
      ...row
    } = taken;
    expect(await insertPaymentReference(db(), { ...row, code: taken.code })).toBeUndefined();
    const fresh = await insertPaymentReference(db(), { ...row, code: newCode() });
    expect(fresh).toMatchObject({ status: 'OPEN', finance_order_id: taken.finance_order_id });
    await db()('payment_references').where({ id: fresh!.id }).delete();
  });
});

describe('paying a payment reference', () => {
  it('pays once: the order moves exactly 7 days, a replay answers the first receipt, another notification is 409', async () => {
    const reference = await create({ financeOrderId: DEMO_ORDER_ID, daysPaid: 7 });
    const orderBefore = (await graphql(PARTNER, ORDER, { id: DEMO_ORDER_ID })).data.financeOrder;
    const before = await snapshot();
    // Read out loud and typed loosely: lower case, a hyphen.
    const typed = `${reference.code.slice(0, 4).toLowerCase()}-${reference.code.slice(4)}`;
    const paid = await notify({ amount: '4.20', paymentReference: typed });
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ remainingBalance: 193.8, currency: 'USD', fullyPaid: false });
    const after = await snapshot();
    expect(after.payments).toBe(before.payments + 1);
    expect(after.notifications).toBe(before.notifications + 1);

    const orderAfter = (await graphql(PARTNER, ORDER, { id: DEMO_ORDER_ID })).data.financeOrder;
    expect(orderAfter.nextPayment - orderBefore.nextPayment).toBe(7 * 86_400);
    const read = (await graphql(PARTNER, READ, { code: reference.code })).data.paymentReference;
    expect(read).toMatchObject({ status: 'PAID', payment: { id: String(paid.body.data.paymentId), amount: '4.20' } });

    // The same notification again: the first receipt, nothing new.
    const replay = await service().request('/payments/v1/notification', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await vendorToken()}` },
      body: JSON.stringify(paid.sent),
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(paid.body);
    expect(await snapshot()).toEqual(after);

    // Another notification for the paid reference.
    await expectRefused({ amount: '4.20', paymentReference: reference.code }, 409, 'PAYMENT_REFERENCE_ALREADY_PAID');
    // A paid reference cannot be cancelled.
    expect(errorCode(await graphql(PARTNER, CANCEL, { code: reference.code }))).toBe('PAYMENT_REFERENCE_ALREADY_PAID');
  });

  it('refuses another amount or currency (AMOUNT_MISMATCH), writing nothing', async () => {
    const reference = await create({ financeOrderId: DEMO_ORDER_ID, amount: '5.00' });
    await expectRefused({ amount: '5.01', paymentReference: reference.code }, 400, 'AMOUNT_MISMATCH');
    await expectRefused({ amount: '4.99', paymentReference: reference.code }, 400, 'AMOUNT_MISMATCH');
    await expectRefused({ amount: '5.00', currency: 'MXN', paymentReference: reference.code }, 400, 'AMOUNT_MISMATCH');
    // The refusal names neither the reference's amount nor its currency (decisions.md 36), on either door.
    const { body } = await notify({ amount: '4.00', paymentReference: reference.code });
    expect(body.error.message).toContain(reference.code);
    expect(body.error.message).not.toMatch(/5\.00|500|USD/);
    const { body: graph } = await service().graphql(
      'mutation($n: JSON!) { createPaymentNotification(notification: $n) { message } }',
      { authorization: `Bearer ${await vendorToken()}` },
      {
        n: {
          paymentVendor: 'demo-vendor',
          amount: '5.00',
          currency: 'MXN',
          reference: `PR-TEST-${++vendorReferences}`,
          deviceTag: DEMO_DEVICE_TAG,
          paymentReference: reference.code,
        },
      },
    );
    expect(graph.errors[0].extensions).toEqual({ code: 'AMOUNT_MISMATCH' });
    expect(graph.errors[0].message).not.toMatch(/5\.00|500|USD/);
    // The same amount written otherwise is the same amount.
    expect((await notify({ amount: 5, paymentReference: reference.code })).status).toBe(200);
  });

  it('refuses an expired reference (PAYMENT_REFERENCE_EXPIRED), which reads EXPIRED and can still be cancelled', async () => {
    const reference = await create({ financeOrderId: DEMO_ORDER_ID, amount: '2.00' });
    // Its expiry reached on the partner's clock (the service's fixed now).
    await db()('payment_references').where({ code: reference.code }).update({ expires_at: NOW });
    await expectRefused({ amount: '2.00', paymentReference: reference.code }, 409, 'PAYMENT_REFERENCE_EXPIRED');
    expect((await graphql(PARTNER, READ, { code: reference.code })).data.paymentReference.status).toBe('EXPIRED');
    expect((await graphql(PARTNER, CANCEL, { code: reference.code })).data.cancelPaymentReference.status).toBe(
      'CANCELLED',
    );
  });

  it('expires on the clock the notification is judged by: one minute before expiresAt it pays, at it it is refused', async () => {
    const reference = await create({ financeOrderId: DEMO_ORDER_ID, amount: '1.50', expiresInHours: 1 });
    const [vendor] = await db()('payment_vendors').where({ name: 'demo-vendor' });
    const body = (reference_: string) => ({
      paymentVendor: 'demo-vendor',
      amount: '1.50',
      currency: 'USD',
      reference: reference_,
      deviceTag: DEMO_DEVICE_TAG,
      paymentReference: reference.code,
    });
    const before = await snapshot();
    await expect(
      acceptNotification(
        db(),
        vendor,
        body('PR-CLOCK-1'),
        clockAt(new Date(NOW.getTime() + 3600_000)),
        TEST_UNLOCK_KEYS,
      ),
    ).rejects.toMatchObject({ extensions: { code: 'PAYMENT_REFERENCE_EXPIRED' } });
    expect(await snapshot()).toEqual(before);
    const paid = await acceptNotification(
      db(),
      vendor,
      body('PR-CLOCK-2'),
      clockAt(new Date(NOW.getTime() + 3540_000)),
      TEST_UNLOCK_KEYS,
    );
    expect(paid.replayed).toBe(false);
  });

  it('refuses a cancelled, unknown or malformed code, and a locator naming another order (404), writing nothing', async () => {
    const reference = await create({ financeOrderId: DEMO_ORDER_ID, amount: '3.00' });
    const cancelled = (await graphql(PARTNER, CANCEL, { code: reference.code })).data.cancelPaymentReference;
    expect(cancelled.status).toBe('CANCELLED');
    // Cancelling again answers it again.
    expect((await graphql(PARTNER, CANCEL, { code: reference.code })).data.cancelPaymentReference.status).toBe(
      'CANCELLED',
    );
    await expectRefused({ amount: '3.00', paymentReference: reference.code }, 404, 'PAYMENT_REFERENCE_NOT_FOUND');
    await expectRefused({ amount: '3.00', paymentReference: unknownCode() }, 404, 'PAYMENT_REFERENCE_NOT_FOUND');
    await expectRefused({ amount: '3.00', paymentReference: 'NOT-A-CODE' }, 404, 'PAYMENT_REFERENCE_NOT_FOUND');
    const open = await create({ financeOrderId: DEMO_ORDER_ID, amount: '3.00' });
    await expectRefused(
      { amount: '3.00', paymentReference: open.code, deviceTag: undefined, financeOrderId: SECOND_ORDER_ID },
      404,
      'PAYMENT_REFERENCE_NOT_FOUND',
    );
    await expectRefused({ amount: '3.00', paymentReference: 7 }, 400, 'INVALID_NOTIFICATION');
  });

  it("is accepted beside any vendor's schema, even one allowing no other member, with no locator", async () => {
    const [vendor] = (await db()('payment_vendors')
      .insert({
        name: 'strict-vendor',
        display_name: 'Strict Vendor',
        request_schema: JSON.stringify({
          type: 'object',
          properties: { paymentVendor: {}, amount: {}, currency: {}, reference: {} },
          required: ['paymentVendor', 'amount', 'currency', 'reference'],
          additionalProperties: false,
        }),
      })
      .returning('*')) as PaymentVendorRow[];
    const reference = await create({ financeOrderId: SECOND_ORDER_ID, amount: '2.50' });
    const body = { paymentVendor: 'strict-vendor', amount: '2.50', currency: 'USD', reference: 'STRICT-1' };
    // Without the reference, the service still needs a locator.
    await expect(acceptNotification(db(), vendor!, body, clockAt(NOW), TEST_UNLOCK_KEYS)).rejects.toMatchObject({
      extensions: { code: 'INVALID_NOTIFICATION' },
    });
    const claimed = await acceptNotification(
      db(),
      vendor!,
      { ...body, paymentReference: reference.code },
      clockAt(NOW),
      TEST_UNLOCK_KEYS,
    );
    expect(claimed.payment).toMatchObject({ finance_order_id: SECOND_ORDER_ID, amount_minor: '250' });
    // Another member the schema does not allow is still refused.
    await expect(
      acceptNotification(
        db(),
        vendor!,
        { ...body, reference: 'STRICT-2', paymentReference: reference.code, extra: 1 },
        clockAt(NOW),
        TEST_UNLOCK_KEYS,
      ),
    ).rejects.toMatchObject({ extensions: { code: 'INVALID_NOTIFICATION' } });
  });
});

describe('a sandbox clock reset (decisions.md 37)', () => {
  const SET_CLOCK = 'mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }';
  const RESET_CLOCK = 'mutation { resetSandboxClock(partnerId: "1") { now realNow } }';

  it('leaves a reference refused as expired expired, and one still open payable', async () => {
    const expired = await create({ financeOrderId: DEMO_ORDER_ID, amount: '1.10', expiresInHours: 1 });
    const open = await create({ financeOrderId: DEMO_ORDER_ID, amount: '1.20', expiresInHours: 720 });
    const ahead = Math.floor(NOW.getTime() / 1000) + 2 * 3600;
    expect((await graphql(OPERATOR, SET_CLOCK, { input: { partnerId: '1', now: ahead } })).errors).toBeUndefined();
    await expectRefused({ amount: '1.10', paymentReference: expired.code }, 409, 'PAYMENT_REFERENCE_EXPIRED');

    const reset = await graphql(OPERATOR, RESET_CLOCK, {});
    expect(reset.data.resetSandboxClock.now).toBe(reset.data.resetSandboxClock.realNow);
    // Back on real time, two hours before the partner saw it expire: still expired, and refused.
    expect((await graphql(PARTNER, READ, { code: expired.code })).data.paymentReference).toMatchObject({
      status: 'EXPIRED',
      expiresAt: expired.expiresAt,
    });
    await expectRefused({ amount: '1.10', paymentReference: expired.code }, 409, 'PAYMENT_REFERENCE_EXPIRED');
    const paid = await notify({ amount: '1.20', paymentReference: open.code });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect((await graphql(PARTNER, READ, { code: open.code })).data.paymentReference.status).toBe('PAID');
    // A stored EXPIRED can still be cancelled, as an expired one always could.
    expect((await graphql(PARTNER, CANCEL, { code: expired.code })).data.cancelPaymentReference.status).toBe(
      'CANCELLED',
    );
  });
});

describe('an order lists its payment references', () => {
  it('in the order they were made, a page at a time', async () => {
    const all = (await graphql(PARTNER, ORDER, { id: SECOND_ORDER_ID, first: 100 })).data.financeOrder
      .paymentReferences;
    const codes = (await db()('payment_references').where({ finance_order_id: SECOND_ORDER_ID }).orderBy('id')).map(
      (row) => row.code,
    );
    expect(all.nodes.map((node: { code: string }) => node.code)).toEqual(codes);
    await create({ financeOrderId: SECOND_ORDER_ID, amount: '1.00' });
    await create({ financeOrderId: SECOND_ORDER_ID, amount: '1.00' });
    const first = (await graphql(PARTNER, ORDER, { id: SECOND_ORDER_ID, first: 1 })).data.financeOrder
      .paymentReferences;
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = (await graphql(PARTNER, ORDER, { id: SECOND_ORDER_ID, first: 100, after: first.pageInfo.endCursor }))
      .data.financeOrder.paymentReferences;
    expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect([...first.nodes, ...next.nodes]).toHaveLength(codes.length + 2);
  });
});

describe.skipIf(!onServer)('50 notifications racing for one reference (a real server)', () => {
  it('record exactly one payment; the others are PAYMENT_REFERENCE_ALREADY_PAID and write nothing', async () => {
    const reference = await create({ financeOrderId: SECOND_ORDER_ID, amount: '10.00' });
    const [vendor] = await db()('payment_vendors').where({ name: 'demo-vendor' });
    const before = await snapshot();
    const settled = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        acceptNotification(
          db(),
          vendor,
          {
            paymentVendor: 'demo-vendor',
            amount: '10.00',
            currency: 'USD',
            reference: `RACE-${index}`,
            financeOrderId: SECOND_ORDER_ID,
            paymentReference: reference.code,
          },
          clockAt(NOW),
          TEST_UNLOCK_KEYS,
        ),
      ),
    );
    const recorded = settled.filter((outcome) => outcome.status === 'fulfilled');
    const refused = settled.flatMap((outcome) =>
      outcome.status === 'rejected' ? [(outcome.reason as { extensions?: { code?: string } }).extensions?.code] : [],
    );
    expect(recorded).toHaveLength(1);
    expect(refused).toEqual(Array(49).fill('PAYMENT_REFERENCE_ALREADY_PAID'));
    const after = await snapshot();
    expect(after.payments).toBe(before.payments + 1);
    expect(after.notifications).toBe(before.notifications + 1);
    const row = await db()('payment_references').where({ code: reference.code }).first();
    expect(row).toMatchObject({ status: 'PAID', payment_id: recorded[0]!.value.receipt.paymentId });
  });
});

describe('the ledger check', () => {
  it('finds every reference in order, and names a paid one whose payment does not match it', async () => {
    expect((await checkLedger(db())).problems).toEqual([]);
    const paid = await db()('payment_references').where({ status: 'PAID' }).first();
    await db()('payment_references')
      .where({ code: paid.code })
      .update({ amount_minor: Number(paid.amount_minor) + 1 });
    expect((await checkLedger(db())).problems).toEqual([
      `a paid payment reference has exactly one payment, of its order, amount and currency: payment reference ${paid.code} is paid by ${paid.payment_id}, which does not match it`,
    ]);
    await db()('payment_references').where({ code: paid.code }).update({ amount_minor: paid.amount_minor });
  });
});
