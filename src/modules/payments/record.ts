// Recording a payment against a finance order, inside the caller's database transaction: the order
// row is locked, every refusal happens before anything is written, and the payment, its partner
// transactions (in store: cash and commission) and the balance change commit together or not at all.
import type { DbOrTrx } from '../../db/knex.js';
import { amountExceedsBalance, currencyMismatch, invalidPaymentAmount, notFound } from '../../errors.js';
import { commissionOn, formatAmount, parsePaymentAmount } from '../../money.js';
import { devicesByKeys } from '../devices/queries.js';
import { addToTotalPaid, lockFinanceOrder } from '../financeOrders/queries.js';
import { standingOf } from '../financeOrders/terms.js';
import { partnersByIds } from '../partners/queries.js';
import type { TenantKey } from '../tenancy.js';
import { insertTransactions } from '../transactions/queries.js';
import { insertPayment } from './queries.js';
import type { PaymentReceiptSnapshot, PaymentRow } from './rows.js';

export type PaymentSource =
  | { channel: 'in_store'; merchantId: string; clerkId: string }
  | { channel: 'vendor'; vendorId: string; vendorReference: string };

export interface PaymentRequest {
  order: TenantKey;
  /** Decimal text as the payer gave it. */
  amount: string;
  currency: string;
  source: PaymentSource;
}

const toUnixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export async function recordPayment(
  trx: DbOrTrx,
  request: PaymentRequest,
  now: Date,
): Promise<{ payment: PaymentRow; receipt: PaymentReceiptSnapshot }> {
  const order = await lockFinanceOrder(trx, request.order);
  if (!order) throw notFound('finance order', request.order.id);

  if (request.currency !== order.currency) throw currencyMismatch(request.currency, order.currency);
  const parsed = parsePaymentAmount(request.amount, order.currency);
  if ('problem' in parsed) throw invalidPaymentAmount(parsed.problem);
  const before = standingOf(order, now);
  if (parsed.minor > before.remainingMinor) {
    throw amountExceedsBalance(formatAmount(parsed.minor, order.currency), formatAmount(before.remainingMinor, order.currency), order.currency);
  }

  const updated = await addToTotalPaid(trx, request.order, parsed.minor);
  const payment = await insertPayment(trx, {
    partner_id: order.partner_id,
    finance_order_id: order.id,
    channel: request.source.channel,
    amount_minor: parsed.minor.toString(),
    currency: order.currency,
    merchant_id: request.source.channel === 'in_store' ? request.source.merchantId : null,
    clerk_id: request.source.channel === 'in_store' ? request.source.clerkId : null,
    vendor_id: request.source.channel === 'vendor' ? request.source.vendorId : null,
    vendor_reference: request.source.channel === 'vendor' ? request.source.vendorReference : null,
    received_at: now,
  });

  // Money taken in a store is the partner's cash, and earns its commission; a vendor's is neither.
  if (request.source.channel === 'in_store') {
    const [partner] = await partnersByIds(trx, [order.partner_id]);
    const commission = commissionOn(parsed.minor, partner!.commission_rate_bps);
    const common = { partner_id: order.partner_id, currency: order.currency, occurred_at: now, merchant_id: request.source.merchantId, finance_order_id: order.id, payment_id: payment.id, adjustment_id: null };
    await insertTransactions(trx, [
      { ...common, type: 'cash', amount_minor: (-parsed.minor).toString(), clerk_id: request.source.clerkId },
      ...(commission > 0n ? [{ ...common, type: 'commission' as const, amount_minor: commission.toString(), clerk_id: null }] : []),
    ]);
  }

  const [device] = await devicesByKeys(trx, [{ partnerId: order.partner_id, id: order.device_id }]);
  const after = standingOf(updated, now);
  return {
    payment,
    receipt: {
      partnerId: order.partner_id,
      paymentId: payment.id,
      amountMinor: payment.amount_minor,
      time: toUnixSeconds(now),
      deviceTag: device!.tag,
      remainingMinor: after.remainingMinor.toString(),
      currency: order.currency,
      nextPayment: after.nextPayment ? toUnixSeconds(after.nextPayment) : null,
      fullyPaid: after.fullyPaid,
    },
  };
}
