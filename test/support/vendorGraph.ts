// Payment vendors on the graph (test/graph/graph-vendor*.test.ts): tokens bought with a key, a
// notification sent with one, the order's totals read from the rows, and the checks that a refusal
// wrote nothing and that a recording wrote exactly its rows.
import { expect } from 'vitest';
import { hashApiKey } from '../../src/modules/auth/keys.js';
import { type ServiceFixture, useSeededService } from './fixtures.js';

let fixture: ServiceFixture | undefined;

/** The seeded service of the test file that calls it, once at its top level: every helper here asks it. */
export function useVendorService(): ServiceFixture {
  fixture = useSeededService();
  return fixture;
}
export const service = () => fixture!.service;
export const db = () => fixture!.database.db;

export const CREATE_TOKEN = `mutation ($apiKey: String!) {
  createAccessToken(apiKey: $apiKey) { accessToken tokenType expiresIn expiresAt }
}`;

export const NOTIFY = `mutation ($notification: JSON!) {
  createPaymentNotification(notification: $notification) {
    message
    receipt {
      payment { id amount currency channel vendorReference paymentVendor { name } financeOrder { id } }
      deviceTag remainingBalance currency fullyPaid replayed
    }
  }
}`;

export const VIEWER = '{ viewer { kind keyKind viaAccessToken partner { name } paymentVendor { name displayName } } }';

export const OPERATOR = { 'x-api-key': 'demo-operator-key' };
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** USD/MXN minor units as the graph prints them: 22000n -> "220.00". */
export const twoPlaces = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;

export async function buyToken(apiKey: string): Promise<string> {
  const { body } = await service().graphql(CREATE_TOKEN, {}, { apiKey });
  expect(body.errors).toBeUndefined();
  return body.data.createAccessToken.accessToken as string;
}

export const notify = (token: string, notification: unknown) =>
  service().graphql(NOTIFY, bearer(token), { notification });

export async function totalPaid(orderId: number): Promise<bigint> {
  const row = await db()('finance_orders').where({ id: orderId }).first('total_paid_minor');
  return BigInt(row.total_paid_minor);
}

/** Still to pay on an order, from its row: monthly cost * months - total paid. */
export async function remaining(orderId: number): Promise<bigint> {
  const row = await db()('finance_orders')
    .where({ id: orderId })
    .first('monthly_cost_minor', 'months', 'total_paid_minor');
  return BigInt(row.monthly_cost_minor) * BigInt(row.months) - BigInt(row.total_paid_minor);
}

export const countOf = async (table: string): Promise<number> => Number((await db()(table).count({ n: '*' }))[0]!.n);

/** Everything a notification could write: payments, notification records, transactions, every balance. */
export async function snapshot() {
  return {
    payments: await countOf('payments'),
    notifications: await countOf('vendor_notifications'),
    transactions: await countOf('transactions'),
    balances: await db()('finance_orders').select('partner_id', 'id', 'total_paid_minor').orderBy(['partner_id', 'id']),
  };
}

/** Sends a notification that must be refused with `code`, and checks that nothing was written. */
export async function expectRefused(token: string, notification: unknown, code: string) {
  const before = await snapshot();
  const { status, body } = await notify(token, notification);
  expect(status).toBe(200);
  // The field is nullable (decisions.md 36): its refusal nulls it alone.
  expect(body.data).toEqual({ createPaymentNotification: null });
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0].extensions.code).toBe(code);
  expect(await snapshot()).toEqual(before);
  return body.errors[0] as { message: string; extensions: Record<string, unknown> };
}

/** Sends a notification that must be recorded, and checks what it wrote. */
export async function expectRecorded(
  token: string,
  notification: Record<string, unknown>,
  expected: { orderId: number; amountMinor: bigint; deviceTag: string; currency: string; vendor: string },
) {
  const before = await snapshot();
  const paidBefore = await totalPaid(expected.orderId);
  const remainingBefore = await remaining(expected.orderId);
  const { status, body } = await notify(token, notification);
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  const result = body.data.createPaymentNotification;
  const amount = twoPlaces(expected.amountMinor);
  const remainingAfter = remainingBefore - expected.amountMinor;

  expect(result.message).toBe(`payment of ${amount} ${expected.currency} recorded for device ${expected.deviceTag}`);
  expect(result.receipt).toEqual({
    payment: {
      id: expect.any(String),
      amount,
      currency: expected.currency,
      channel: 'VENDOR',
      vendorReference: notification.reference,
      paymentVendor: { name: expected.vendor },
      financeOrder: { id: String(expected.orderId) },
    },
    deviceTag: expected.deviceTag,
    remainingBalance: twoPlaces(remainingAfter),
    currency: expected.currency,
    fullyPaid: remainingAfter === 0n,
    replayed: false,
  });

  // In the database: one vendor payment, the balance moved, one notification record, and no
  // partner transaction (a vendor's collection is neither the partner's cash nor commission).
  const payment = await db()('payments').where({ id: result.receipt.payment.id }).first();
  const vendor = await db()('payment_vendors').where({ name: expected.vendor }).first('id');
  expect(payment).toMatchObject({
    finance_order_id: String(expected.orderId),
    channel: 'vendor',
    amount_minor: expected.amountMinor.toString(),
    currency: expected.currency,
    vendor_id: vendor.id,
    vendor_reference: notification.reference,
    merchant_id: null,
    clerk_id: null,
  });
  expect(await totalPaid(expected.orderId)).toBe(paidBefore + expected.amountMinor);
  const after = await snapshot();
  expect(after.payments).toBe(before.payments + 1);
  expect(after.notifications).toBe(before.notifications + 1);
  expect(after.transactions).toBe(before.transactions);
  expect(
    Number((await db()('transactions').where({ payment_id: result.receipt.payment.id }).count({ n: '*' }))[0]!.n),
  ).toBe(0);
  return result;
}

export const demoVendorKeyId = async (): Promise<string> =>
  (
    await db()('api_keys')
      .where({ key_hash: hashApiKey('demo-vendor-key') })
      .first('id')
  ).id as string;
