// A payment's events, made from what the payment has in hand (no read). payment.recorded speaks the
// graph's dialect (decisions.md 41: no legacy body has its shape); transaction.created and
// finance_order.paid_off are the legacy contract's own objects, by its mappers (src/contract/), so their
// data and the matching list-transactions or lookup-customer object are the same JSON.
import { legacyTransaction, legacyTransactionSourceOf } from '../../contract/transaction.js';
import { formatAmount } from '../../kernel/money.js';
import type { NewEvent } from '../events/rows.js';
import { financeOrderEvent } from '../financeOrders/events.js';
import type { FinanceOrderRow } from '../financeOrders/rows.js';
import type { PaymentReceiptSnapshot, PaymentReversalRow, PaymentReversalSnapshot, PaymentRow } from './rows.js';

/** The graph's PaymentChannel of a payment's channel. */
const GRAPH_CHANNELS = { in_store: 'IN_STORE', vendor: 'VENDOR' } as const;

/**
 * payment.recorded: the payment and its order as they stood right after it, in the graph's dialect
 * (decisions.md 41): the values of its PaymentReceipt, ids and amounts as strings, times Unix seconds.
 */
export function paymentRecordedEvent(payment: PaymentRow, receipt: PaymentReceiptSnapshot): NewEvent {
  return {
    type: 'payment.recorded',
    occurredAt: payment.received_at,
    data: {
      payment: {
        id: payment.id,
        time: receipt.time,
        amount: formatAmount(payment.amount_minor, payment.currency),
        currency: payment.currency,
        channel: GRAPH_CHANNELS[payment.channel],
        deviceTag: receipt.deviceTag,
        financeOrderId: payment.finance_order_id,
      },
      financeOrder: {
        id: payment.finance_order_id,
        remainingBalance: formatAmount(receipt.remainingMinor, receipt.currency),
        nextPayment: receipt.nextPayment,
        fullyPaid: receipt.fullyPaid,
      },
    },
  };
}

/** A partner transaction a payment writes (its cash, its commission), with its store and clerk. */
export interface PaymentTransactionSource {
  type: 'cash' | 'commission';
  amount_minor: string;
  merchant: { id: string; name: string };
  clerk: { id: string; name: string } | null;
}

/**
 * A payment's events: payment.recorded, transaction.created for each of its partner transactions,
 * and finance_order.paid_off when it brought the balance to 0. `order` stands as right after the
 * payment; `payment` carries its id (an in-store payment's is drawn by its read, before its write).
 */
export function paymentEvents(
  order: FinanceOrderRow,
  payment: PaymentRow,
  receipt: PaymentReceiptSnapshot,
  options: { transactions: readonly PaymentTransactionSource[] },
): NewEvent[] {
  const events = [paymentRecordedEvent(payment, receipt)];
  for (const transaction of options.transactions) {
    const record = {
      type: transaction.type,
      amount_minor: transaction.amount_minor,
      currency: payment.currency,
      occurred_at: payment.received_at,
      finance_order_id: payment.finance_order_id,
      links: { merchant: transaction.merchant, clerk: transaction.clerk, payment },
    };
    events.push({
      type: 'transaction.created',
      occurredAt: payment.received_at,
      data: legacyTransaction(legacyTransactionSourceOf(record)),
    });
  }
  if (receipt.fullyPaid) events.push(financeOrderEvent('finance_order.paid_off', order, payment.received_at));
  return events;
}

/** The graph's name of who reversed a payment. */
const REVERSED_BY = { vendor: 'VENDOR', partner: 'PARTNER', operator: 'OPERATOR' } as const;

/**
 * payment.reversed (decisions.md 44), in the graph's dialect: the reversal, the payment it undid, and
 * the order as it stood right after it (`status` the order's then: ACTIVE, LOCKED, or PAID_OFF while
 * another payment keeps it paid), with its device.
 */
export function paymentReversedEvent(
  reversal: PaymentReversalRow,
  payment: PaymentRow,
  snapshot: PaymentReversalSnapshot,
  order: { status: 'ACTIVE' | 'LOCKED' | 'PAID_OFF'; deviceTag: string; deviceImei: string | null },
): NewEvent {
  return {
    type: 'payment.reversed',
    occurredAt: reversal.reversed_at,
    data: {
      reversal: {
        id: reversal.id,
        time: snapshot.time,
        reason: reversal.reason,
        reversedBy: REVERSED_BY[reversal.reversed_by],
      },
      payment: {
        id: payment.id,
        time: Math.floor(payment.received_at.getTime() / 1000),
        amount: formatAmount(payment.amount_minor, payment.currency),
        currency: payment.currency,
        channel: GRAPH_CHANNELS[payment.channel],
        vendorReference: payment.vendor_reference,
      },
      financeOrder: {
        id: payment.finance_order_id,
        status: order.status,
        remainingBalance: formatAmount(snapshot.remainingMinor, snapshot.currency),
        currency: snapshot.currency,
        lockAt: snapshot.lockAt,
      },
      device: { tag: order.deviceTag, imei: order.deviceImei },
    },
  };
}

/**
 * transaction.created for a reversal's opposites of an in-store payment's transactions, at the
 * reversal's time, each with the reversed payment (decisions.md 44): as list-transactions writes them.
 */
export function reversalTransactionEvents(
  payment: PaymentRow,
  reversedAt: Date,
  transactions: readonly PaymentTransactionSource[],
): NewEvent[] {
  return transactions.map((transaction) => ({
    type: 'transaction.created',
    occurredAt: reversedAt,
    data: legacyTransaction(
      legacyTransactionSourceOf({
        type: transaction.type,
        amount_minor: transaction.amount_minor,
        currency: payment.currency,
        occurred_at: reversedAt,
        finance_order_id: payment.finance_order_id,
        links: { merchant: transaction.merchant, clerk: transaction.clerk, payment },
      }),
    ),
  }));
}
