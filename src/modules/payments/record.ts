// Recording a payment against a finance order, inside the caller's database transaction: the order
// row is locked, every refusal happens before anything is written, and the payment, its partner
// transactions (in store: cash and commission) and the balance change commit together or not at all.
import type { DbOrTrx } from '../../db/knex.js';
import { amountExceedsBalance, currencyMismatch, invalidPaymentAmount, notFound } from '../../errors.js';
import { commissionOnMoney, formatMoney, isMoreThan, money, parsePaymentAmount } from '../../money.js';
import { paymentEvents } from '../events/changes.js';
import { appendEvents } from '../events/queries.js';
import type { EventRow } from '../events/rows.js';
import { lockFinanceOrder } from '../financeOrders/queries.js';
import type { FinanceOrderRow } from '../financeOrders/rows.js';
import { remainingBalanceOf, standingOf } from '../financeOrders/terms.js';
import type { TenantKey } from '../tenancy.js';
import { creditPayment, type PaymentTransaction } from './queries.js';
import type { PaymentReceiptSnapshot, PaymentRow } from './rows.js';

export type PaymentSource =
  | { channel: 'in_store'; merchantId: string; clerkId: string; merchantName: string; clerkName: string }
  | { channel: 'vendor'; vendorId: string; vendorReference: string };

export interface PaymentRequest {
  order: TenantKey;
  /** Decimal text as the payer gave it. */
  amount: string;
  currency: string;
  source: PaymentSource;
}

const toUnixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A payment just recorded: its row, and the receipt that answers the request (and any replay of it). */
export interface RecordedPayment {
  payment: PaymentRow;
  receipt: PaymentReceiptSnapshot;
  /** The events written with it. */
  events: EventRow[];
}

/** The receipt of a payment as its order stood right after it (`totalPaidMinor` counts it). */
export function receiptOf(
  order: FinanceOrderRow & { device_tag: string },
  payment: PaymentRow,
  totalPaidMinor: string,
): PaymentReceiptSnapshot {
  const now = payment.received_at;
  const after = standingOf({ ...order, total_paid_minor: totalPaidMinor }, now);
  return {
    partnerId: order.partner_id,
    paymentId: payment.id,
    amountMinor: payment.amount_minor,
    time: toUnixSeconds(now),
    deviceTag: order.device_tag,
    remainingMinor: after.remainingMinor.toString(),
    currency: order.currency,
    nextPayment: after.nextPayment ? toUnixSeconds(after.nextPayment) : null,
    fullyPaid: after.fullyPaid,
  };
}

export async function recordPayment(trx: DbOrTrx, request: PaymentRequest, now: Date): Promise<RecordedPayment> {
  // One round trip: the order locked, with its partner's commission rate and its device's tag.
  const order = await lockFinanceOrder(trx, request.order);
  if (!order) throw notFound('finance order', request.order.id);

  if (request.currency !== order.currency) throw currencyMismatch(request.currency, order.currency);
  const parsed = parsePaymentAmount(request.amount, order.currency);
  if ('problem' in parsed) throw invalidPaymentAmount(parsed.problem);
  const amount = money(parsed.minor, request.currency);
  const balance = remainingBalanceOf(order);
  if (isMoreThan(amount, balance)) {
    throw amountExceedsBalance(formatMoney(amount), formatMoney(balance), order.currency);
  }

  // Money taken in a store is the partner's cash, and earns its commission; a vendor's is neither.
  const transactions: PaymentTransaction[] = [];
  if (request.source.channel === 'in_store') {
    const commission = commissionOnMoney(amount, order.commission_rate_bps);
    transactions.push({ type: 'cash', amount_minor: (-amount.minor).toString(), clerk_id: request.source.clerkId });
    if (commission.minor > 0n) {
      transactions.push({ type: 'commission', amount_minor: commission.minor.toString(), clerk_id: null });
    }
  }
  // Nothing is written before this one statement: the running total, the payment and its transactions.
  const { payment, totalPaidMinor } = await creditPayment(
    trx,
    {
      partner_id: order.partner_id,
      finance_order_id: order.id,
      channel: request.source.channel,
      amount_minor: amount.minor.toString(),
      currency: amount.currency,
      merchant_id: request.source.channel === 'in_store' ? request.source.merchantId : null,
      clerk_id: request.source.channel === 'in_store' ? request.source.clerkId : null,
      vendor_id: request.source.channel === 'vendor' ? request.source.vendorId : null,
      vendor_reference: request.source.channel === 'vendor' ? request.source.vendorReference : null,
      received_at: now,
    },
    transactions,
  );

  const receipt = receiptOf(order, payment, totalPaidMinor);
  // Its events, in its transaction and one statement; its transactions' are made from what is in hand.
  const source = request.source;
  const events = paymentEvents({ ...order, total_paid_minor: totalPaidMinor }, payment, receipt, {
    transactions:
      source.channel === 'in_store'
        ? transactions.map((transaction) => ({
            ...transaction,
            merchant: { id: source.merchantId, name: source.merchantName },
            clerk: transaction.clerk_id ? { id: source.clerkId, name: source.clerkName } : null,
          }))
        : [],
  });
  const written = await appendEvents(trx, order.partner_id, events);
  return { payment, receipt, events: written };
}
