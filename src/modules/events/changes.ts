// The events a change writes, built from the rows it has in its transaction: each payload by the
// same mapper the legacy REST bodies use (transactions/legacy.ts, financeOrders/legacy.ts), so an
// event's data and the matching list-transactions or lookup-customer object are the same JSON.
import type { DbOrTrx } from '../../db/knex.js';
import { decimalToJsonNumber, formatAmount } from '../../money.js';
import { legacyFinanceOrder, legacyFinanceOrderSourceOf } from '../financeOrders/legacy.js';
import type { FinanceOrderRow } from '../financeOrders/rows.js';
import type { PaymentReceiptSnapshot, PaymentRow } from '../payments/rows.js';
import { legacyTransaction, legacyTransactionSourceOf } from '../transactions/legacy.js';
import { transactionsWithLinks } from '../transactions/queries.js';
import type { EventTypeName, NewEvent } from './rows.js';

/** payment.recorded: the payment and its order as they stood right after it, typed as the legacy receipt. */
export function paymentRecordedEvent(payment: PaymentRow, receipt: PaymentReceiptSnapshot): NewEvent {
  const amount = (minor: string) => decimalToJsonNumber(formatAmount(minor, receipt.currency));
  return {
    type: 'payment.recorded',
    occurredAt: payment.received_at,
    data: {
      payment: {
        id: Number(payment.id),
        time: receipt.time,
        amount: amount(payment.amount_minor),
        currency: payment.currency,
        channel: payment.channel,
        deviceTag: receipt.deviceTag,
        financeOrderId: Number(payment.finance_order_id),
      },
      financeOrder: {
        id: Number(payment.finance_order_id),
        remainingBalance: amount(receipt.remainingMinor),
        nextPayment: receipt.nextPayment,
        fullyPaid: receipt.fullyPaid,
      },
    },
  };
}

/** transaction.created for each transaction named (by id or by its payment), read with its links. */
export async function transactionCreatedEvents(
  trx: DbOrTrx,
  partnerId: string,
  by: Parameters<typeof transactionsWithLinks>[2],
): Promise<NewEvent[]> {
  const rows = await transactionsWithLinks(trx, partnerId, by);
  return rows.map((row) => ({
    type: 'transaction.created',
    occurredAt: row.occurred_at,
    data: legacyTransaction(legacyTransactionSourceOf(row)),
  }));
}

/** finance_order.created or finance_order.paid_off: the order as lookup-customer answers it at `now`. */
export function financeOrderEvent(
  type: 'finance_order.created' | 'finance_order.paid_off',
  order: FinanceOrderRow,
  now: Date,
): NewEvent {
  return { type, occurredAt: now, data: legacyFinanceOrder(legacyFinanceOrderSourceOf(order, now)) };
}

/** A partner transaction a payment writes (its cash, its commission), with its store and clerk. */
export interface PaymentTransactionSource {
  type: 'cash' | 'commission';
  amount_minor: string;
  merchant: { id: string; name: string };
  clerk: { id: string; name: string } | null;
}

/**
 * A payment's events: payment.recorded, transaction.created for each of its partner transactions
 * (made from what the payment has in hand: no read), and finance_order.paid_off when it brought the
 * balance to 0. `order` stands as right after the payment.
 */
export function paymentEvents(
  order: FinanceOrderRow,
  payment: PaymentRow,
  receipt: PaymentReceiptSnapshot,
  options: { transactions: readonly PaymentTransactionSource[] },
): NewEvent[] {
  const events = [paymentRecordedEvent(payment, receipt)];
  for (const transaction of options.transactions) {
    const row = {
      partner_id: payment.partner_id,
      id: '',
      type: transaction.type,
      amount_minor: transaction.amount_minor,
      currency: payment.currency,
      occurred_at: payment.received_at,
      merchant_id: transaction.merchant.id,
      finance_order_id: payment.finance_order_id,
      payment_id: payment.id,
      clerk_id: transaction.clerk?.id ?? null,
      adjustment_id: null,
    };
    const links = { merchant: transaction.merchant, clerk: transaction.clerk, payment };
    events.push({
      type: 'transaction.created',
      occurredAt: payment.received_at,
      data: legacyTransaction(legacyTransactionSourceOf({ ...row, links })),
    });
  }
  if (receipt.fullyPaid) events.push(financeOrderEvent('finance_order.paid_off', order, payment.received_at));
  return events;
}

/**
 * Where a payment's events carry its id, a JSON number: payment.recorded's payment, and a cash or
 * commission transaction's payment. A writer that learns the id only as the database gives it
 * (payments/inStore.ts: one statement) builds the events with a pending id and completes these.
 */
export const PAYMENT_ID_PATHS: Readonly<Partial<Record<EventTypeName, ReadonlyArray<readonly string[]>>>> = {
  'payment.recorded': [['payment', 'id']],
  'transaction.created': [['payment', 'id']],
};

/** `data` with `value` at `path` (copied along the path); the path must hold `expected`. */
function replacedAt(data: unknown, path: readonly string[], expected: unknown, value: unknown): unknown {
  const [name, ...rest] = path;
  const object = data as Record<string, unknown>;
  if (name === undefined) {
    if (data !== expected) throw new Error(`a payment id path holds ${JSON.stringify(data)}, not the pending id`);
    return value;
  }
  if (typeof data !== 'object' || data === null || !(name in object)) throw new Error(`no ${name} in an event's data`);
  return { ...object, [name]: replacedAt(object[name], rest, expected, value) };
}

/**
 * The events' data as JSON text, each with `marker` (a JSON string) where PAYMENT_ID_PATHS put the
 * payment's id, for events built with the payment id `pendingId`: the database puts the id in its place.
 * Null when the marker also stands elsewhere (a name containing it): the texts would be ambiguous.
 */
export function eventTextsAwaitingPaymentId(
  events: readonly NewEvent[],
  pendingId: string,
  marker: string,
): string[] | null {
  const markerText = JSON.stringify(marker);
  const texts: string[] = [];
  for (const event of events) {
    const paths = PAYMENT_ID_PATHS[event.type] ?? [];
    let data = event.data;
    for (const path of paths) data = replacedAt(data, path, Number(pendingId), marker);
    const text = JSON.stringify(data);
    if (text.split(markerText).length - 1 !== paths.length) return null;
    texts.push(text);
  }
  return texts;
}
