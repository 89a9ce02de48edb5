// A payment's events, made from what the payment has in hand (no read), each payload by the legacy
// contract's own mappers (src/contract/), so an event's data and the matching record-customer-payment,
// list-transactions or lookup-customer object are the same JSON.
import { legacyPaymentRecorded } from '../../contract/payment.js';
import { legacyTransaction, legacyTransactionSourceOf } from '../../contract/transaction.js';
import type { NewEvent } from '../events/rows.js';
import { financeOrderEvent } from '../financeOrders/events.js';
import type { FinanceOrderRow } from '../financeOrders/rows.js';
import type { PaymentReceiptSnapshot, PaymentRow } from './rows.js';

/** payment.recorded: the payment and its order as they stood right after it, typed as the legacy receipt. */
function paymentRecordedEvent(payment: PaymentRow, receipt: PaymentReceiptSnapshot): NewEvent {
  return {
    type: 'payment.recorded',
    occurredAt: payment.received_at,
    data: legacyPaymentRecorded(
      {
        id: payment.id,
        amountMinor: payment.amount_minor,
        currency: payment.currency,
        channel: payment.channel,
        financeOrderId: payment.finance_order_id,
      },
      receipt,
    ),
  };
}

/** A partner transaction a payment writes (its cash, its commission), with its store and clerk. */
interface PaymentTransactionSource {
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
