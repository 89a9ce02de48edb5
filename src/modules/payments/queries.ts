import type { DbOrTrx } from '../../db/knex.js';
import { prepared } from '../../db/prepared.js';
import { type TenantKey, whereTenantKeys } from '../tenancy.js';
import type { TransactionType } from '../transactions/rows.js';
import type { PaymentRow } from './rows.js';

/** The columns of a PaymentRow (a transaction list selects them through its join too). */
export const COLUMNS = [
  'partner_id',
  'id',
  'finance_order_id',
  'channel',
  'amount_minor',
  'currency',
  'merchant_id',
  'clerk_id',
  'vendor_id',
  'vendor_reference',
  'received_at',
] as const;

export function paymentsByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<PaymentRow[]> {
  return whereTenantKeys(db<PaymentRow>('payments').select(...COLUMNS), ['partner_id', 'id'], keys);
}

/** The payments of several orders, oldest first (paymentHistory order). */
export function paymentsOfOrders(db: DbOrTrx, orders: readonly TenantKey[]): Promise<PaymentRow[]> {
  return whereTenantKeys(
    prepared(db<PaymentRow>('payments')).select(...COLUMNS),
    ['partner_id', 'finance_order_id'],
    orders,
  ).orderBy(['received_at', 'id']);
}

/**
 * The names of the store and the clerk taking an in-store payment when they are the partner's own
 * (null: not found), asked in one statement; the names go into the payment's transaction events.
 */
export async function merchantAndClerkFound(
  db: DbOrTrx,
  partnerId: string,
  ids: { merchantId: string; clerkId: string },
): Promise<{ merchant: string | null; clerk: string | null }> {
  const found = await prepared(db.queryBuilder()).first(
    db.raw('? as merchant', [db('merchants').select('name').where({ partner_id: partnerId, id: ids.merchantId })]),
    db.raw('? as clerk', [db('clerks').select('name').where({ partner_id: partnerId, id: ids.clerkId })]),
  );
  return { merchant: found.merchant ?? null, clerk: found.clerk ?? null };
}

/** A partner transaction a payment makes (in store: its cash, and its commission when there is one). */
export interface PaymentTransaction {
  type: Extract<TransactionType, 'cash' | 'commission'>;
  /** Signed from the partner's side: int8 minor units of the payment's currency, as a string. */
  amount_minor: string;
  clerk_id: string | null;
}

/**
 * Credits a payment to its order, which the caller has locked, in one statement: the order's running
 * total, the payment row, and its partner transactions (each takes the new payment's id, order,
 * merchant, currency and time). The schema's check refuses a running total past the repayable total;
 * if any part fails, none of it is written.
 */
export async function creditPayment(
  trx: DbOrTrx,
  row: Omit<PaymentRow, 'id'>,
  transactions: readonly PaymentTransaction[],
): Promise<{ payment: PaymentRow; totalPaidMinor: string }> {
  const [written] = await prepared(trx.queryBuilder())
    .with(
      'credited',
      trx('finance_orders')
        .where({ partner_id: row.partner_id, id: row.finance_order_id })
        .update({ total_paid_minor: trx.raw('total_paid_minor + ?::int8', [row.amount_minor]) })
        .returning('total_paid_minor'),
    )
    .with(
      'payment',
      trx('payments')
        .insert(row)
        .returning([...COLUMNS]),
    )
    .with(
      'ledger',
      trx.raw(
        `insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, finance_order_id, payment_id, clerk_id)
       select payment.partner_id, entry.type, entry.amount_minor, payment.currency, payment.received_at, payment.merchant_id,
              payment.finance_order_id, payment.id, entry.clerk_id
       from payment, jsonb_to_recordset(?::jsonb) as entry (type text, amount_minor int8, clerk_id int8)`,
        [JSON.stringify(transactions)],
      ),
    )
    .select('payment.*', 'credited.total_paid_minor')
    .from('payment')
    .crossJoin(trx.raw('credited'));
  const { total_paid_minor: totalPaidMinor, ...payment } = written as PaymentRow & { total_paid_minor: string };
  return { payment, totalPaidMinor };
}
