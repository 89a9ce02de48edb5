// A vendor's payment notification: checked against the vendor's stored JSON Schema before anything is
// written, then credited to the order its device locator names, once per vendor reference.
import type { Db, DbOrTrx } from '../../db/knex.js';
import {
  forbidden,
  invalidNotification,
  notFound,
  paymentReferenceNotFound,
  paymentVendorUnavailable,
} from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { isJsonNumber, numberText, plainJson } from '../../kernel/losslessJson.js';
import { decimalOfJsonNumber, formatAmount } from '../../kernel/money.js';
import { findCustomersByPhone } from '../customers/queries.js';
import { findDevice } from '../devices/queries.js';
import { currentOrderOf } from '../financeOrders/current.js';
import { financeOrdersOfCustomers, financeOrdersOfDevices, findFinanceOrderOwner } from '../financeOrders/queries.js';
import type { PartnerClocks } from '../partners/clock.js';
import { claimPaymentReference, settlePaymentReference } from '../paymentReferences/pay.js';
import type { TenantKey } from '../tenancy.js';
import type { UnlockKeySealer } from '../unlockCodes/sealing.js';
import { notificationProblems, schemaProblem } from '../vendors/requestSchema.js';
import type { PaymentVendorRow } from '../vendors/rows.js';
import {
  type Claimed,
  fingerprintPaymentRequest,
  type RequestFingerprint,
  withVendorReference,
} from './idempotency.js';
import { LOCATORS, MAX_LOCATOR_LENGTH, notificationLimitProblems } from './notificationLimits.js';
import { type RecordedPayment, recordPayment } from './record.js';
import type { PaymentReceiptSnapshot } from './rows.js';

interface Notification {
  /** Decimal text: a JSON number's as the vendor wrote it, so the money rules see every digit. */
  amount: string;
  currency: string;
  reference: string;
  /** What finds the order; null only beside a paymentReference, which names the order itself. */
  locator: { field: (typeof LOCATORS)[number]; value: string } | null;
  /** The code of the payment reference the notification pays (the service's own member), if any. */
  paymentReference: string | null;
  /** What idempotency compares with an earlier notification of the same reference. */
  fingerprint: RequestFingerprint;
}

/**
 * The fields the service itself needs, whatever else the vendor's schema allows. The body's numbers
 * are lossless-json numbers when it came through the REST door (their source text kept), JavaScript
 * numbers when it came through /graphql; the schema checks types on the plain value either way.
 */
function readNotification(vendor: PaymentVendorRow, body: unknown): Notification {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidNotification(['the body must be a JSON object']);
  // The service's own limits first (walked without recursion): no vendor schema sees a body past them.
  const overLimits = notificationLimitProblems(body);
  if (overLimits.length) throw invalidNotification(overLimits);
  const plain = plainJson(body) as Record<string, unknown>;
  const fields = body as Record<string, unknown>;
  if (plain.paymentVendor === undefined || plain.paymentVendor === null || plain.paymentVendor === '') {
    throw invalidNotification(['paymentVendor is a required field']);
  }
  if (plain.paymentVendor !== vendor.name) {
    throw forbidden(
      `this access token belongs to payment vendor "${vendor.name}", not ${JSON.stringify(String(plain.paymentVendor)).slice(0, 80)}`,
    );
  }
  // A schema stored before its patterns were checked may not compile now: the operator must replace it.
  const unusable = schemaProblem(vendor.request_schema);
  if (unusable) throw paymentVendorUnavailable(vendor.name, unusable);
  // paymentReference is the service's member, not the vendor's: its schema never sees it (decisions.md 17).
  const { paymentReference: quoted, ...vendorFields } = plain;
  const problems = notificationProblems(vendor.request_schema, vendorFields);
  if (problems.length) throw invalidNotification(problems);

  const missing: string[] = [];
  const text = (name: string): string => {
    const value = fields[name];
    if (typeof value === 'string' && value !== '') return value;
    // A number as written ("18.999999999999999" stays so); through /graphql, its shortest exact decimal.
    if (isJsonNumber(value) || (typeof value === 'number' && Number.isFinite(value))) return numberText(value);
    missing.push(`${name} is a required field`);
    return '';
  };
  // A number's "1E3" is the amount 1000, written out exactly (places kept) before the money rules see it.
  const amountText = text('amount');
  const amount = typeof fields.amount === 'string' ? amountText : decimalOfJsonNumber(amountText);
  const currency = text('currency');
  const reference = text('reference');
  const paymentReference = quoted === undefined || quoted === null ? null : quoted;
  if (paymentReference !== null && (typeof paymentReference !== 'string' || paymentReference === ''))
    missing.push('paymentReference must be a non-empty string');
  const given = LOCATORS.filter((field) => fields[field] !== undefined && fields[field] !== null);
  if (paymentReference === null && given.length !== 1)
    missing.push(`exactly one of ${LOCATORS.join(', ')} is required`);
  if (paymentReference !== null && given.length > 1)
    missing.push(`at most one of ${LOCATORS.join(', ')} is allowed beside paymentReference`);
  const field = given[0];
  const locator = field === undefined ? '' : String(fields[field]);
  // Strings were held to their limit before the schema; this catches a locator sent as an array.
  if (locator.length > MAX_LOCATOR_LENGTH) missing.push(`${field} must be at most ${MAX_LOCATOR_LENGTH} characters`);
  for (const [name, value] of [
    ['reference', reference],
    [field, locator],
    ['paymentReference', typeof paymentReference === 'string' ? paymentReference : ''],
  ] as const) {
    if (value.includes('\u0000')) missing.push(`${name} must not contain NUL characters`);
  }
  if (missing.length) throw invalidNotification(missing);
  const fingerprint = fingerprintPaymentRequest({ ...fields, amount, currency }, plain);
  return {
    amount,
    currency,
    reference,
    locator: field === undefined ? null : { field, value: locator },
    paymentReference: paymentReference as string | null,
    fingerprint,
  };
}

/** The order a notification pays: the one named, or the current order (current.ts) of the device or customer named. */
async function orderFor(
  trx: DbOrTrx,
  locator: NonNullable<Notification['locator']>,
  clocks: PartnerClocks,
): Promise<TenantKey> {
  const { field, value } = locator;
  if (field === 'deviceTag' || field === 'imei') {
    const device = await findDevice(trx, field === 'imei' ? 'imei' : 'tag', value, null);
    if (!device) throw notFound('device', value, field);
    const ofDevice = await financeOrdersOfDevices(trx, [{ partnerId: device.partner_id, id: device.id }]);
    const order = currentOrderOf({ ofDevice, ofCustomer: [] }, clocks.nowFor(device.partner_id));
    if (!order) throw notFound('finance order for the device', value, field);
    return { partnerId: order.partner_id, id: order.id };
  }
  if (field === 'financeOrderId') {
    const order = isDatabaseId(value) ? await findFinanceOrderOwner(trx, value) : undefined;
    if (!order) throw notFound('finance order', value);
    return order;
  }
  const customers = await findCustomersByPhone(trx, value);
  if (customers.length === 0) throw notFound('customer', value, 'phoneNumber');
  if (customers.length > 1)
    throw invalidNotification(['phoneNumber matches customers of several partners; send deviceTag or imei instead']);
  const customer = customers[0]!;
  const ofCustomer = await financeOrdersOfCustomers(trx, [customer]);
  const order = currentOrderOf({ ofCustomer }, clocks.nowFor(customer.partnerId));
  if (!order) throw notFound('finance order for the customer', value, 'phoneNumber');
  return { partnerId: order.partner_id, id: order.id };
}

export function notificationMessage(receipt: PaymentReceiptSnapshot): string {
  return `payment of ${formatAmount(receipt.amountMinor, receipt.currency)} ${receipt.currency} recorded for device ${receipt.deviceTag}`;
}

/**
 * A notification quoting a payment reference: the reference locked and checked, the order it names
 * paid (a locator given beside it must name that order too), then the reference marked paid by this
 * payment. A refusal at any step throws, and the transaction writes nothing.
 */
async function payReference(
  trx: DbOrTrx,
  vendor: PaymentVendorRow,
  notification: Notification & { paymentReference: string },
  clocks: PartnerClocks,
  unlockKeys: UnlockKeySealer,
): Promise<RecordedPayment> {
  const reference = await claimPaymentReference(trx, notification.paymentReference, notification, clocks);
  const order = { partnerId: reference.partner_id, id: reference.finance_order_id };
  const now = clocks.nowFor(order.partnerId);
  if (notification.locator) {
    const named = await orderFor(trx, notification.locator, clocks);
    if (named.partnerId !== order.partnerId || named.id !== order.id)
      throw paymentReferenceNotFound(notification.paymentReference);
  }
  const recorded = await recordPayment(
    trx,
    {
      order,
      amount: notification.amount,
      currency: notification.currency,
      source: { channel: 'vendor', vendorId: vendor.id, vendorReference: notification.reference },
    },
    now,
    unlockKeys,
  );
  await settlePaymentReference(trx, reference, recorded.payment.id, now);
  return recorded;
}

/**
 * Checks and records a notification in one database transaction; a repeated reference replays. The
 * payment is received at its partner's time (`clocks`: a sandbox clock outside production); `unlockKeys`
 * opens its device's unlock key for the receipt's code (decisions.md 35).
 */
export async function acceptNotification(
  db: Db,
  vendor: PaymentVendorRow,
  body: unknown,
  clocks: PartnerClocks,
  unlockKeys: UnlockKeySealer,
): Promise<Claimed> {
  if (!vendor.enabled) throw forbidden(`payment vendor "${vendor.name}" is disabled`);
  const notification = readNotification(vendor, body);
  return db.transaction((trx) =>
    withVendorReference(
      trx,
      { vendorId: vendor.id, reference: notification.reference, request: notification.fingerprint },
      async () => {
        if (notification.paymentReference !== null)
          return payReference(
            trx,
            vendor,
            { ...notification, paymentReference: notification.paymentReference },
            clocks,
            unlockKeys,
          );
        const order = await orderFor(trx, notification.locator!, clocks);
        return recordPayment(
          trx,
          {
            order,
            amount: notification.amount,
            currency: notification.currency,
            source: { channel: 'vendor', vendorId: vendor.id, vendorReference: notification.reference },
          },
          clocks.nowFor(order.partnerId),
          unlockKeys,
        );
      },
    ),
  );
}
