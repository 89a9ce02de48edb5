// The reads and writes of a payment's reversal (decisions.md 44), as plain functions on `db | trx`:
// the payment as each caller names it, the reversal a payment already has, the reversal a caller's
// Idempotency-Key already made, and the one write of a reversal (its row, the order's running total,
// the opposites of the payment's transactions).
import type { DbOrTrx } from '../../db/knex.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { type TenantKey, tenantKeyArrays, whereTenantKeys } from '../tenancy.js';
import type { PaymentTransactionSource } from './events.js';
import { COLUMNS as PAYMENT_COLUMNS } from './queries.js';
import type { PaymentReversalRow, PaymentReversalSnapshot, PaymentRow, ReversedBy } from './rows.js';

const REVERSAL_COLUMNS = [
  'partner_id',
  'id',
  'payment_id',
  'finance_order_id',
  'amount_minor',
  'currency',
  'reason',
  'reversed_by',
  'vendor_id',
  'api_key_id',
  'reversed_at',
  'idempotency_scope',
  'idempotency_key',
  'request_hash',
  'response_body',
] as const;

/** How a caller names the payment it reverses: by id (an operator in any partner, a partner key in its own), or a vendor by its reference. */
export type PaymentNamed =
  | { by: 'id'; partnerId: string | null; id: string }
  | { by: 'vendorReference'; vendorId: string; reference: string };

/** The payment named, or undefined (unknown, or another partner's or vendor's: alike). */
export async function paymentNamed(db: DbOrTrx, named: PaymentNamed): Promise<PaymentRow | undefined> {
  if (named.by === 'vendorReference') {
    // The vendor's reference names its payment through the notification's record (its primary key).
    return db<PaymentRow>('vendor_notifications as n')
      .join('payments as p', (on) => on.on('p.partner_id', 'n.partner_id').andOn('p.id', 'n.payment_id'))
      .select(...PAYMENT_COLUMNS.map((column) => `p.${column}`))
      .where({ 'n.vendor_id': named.vendorId, 'n.reference': named.reference })
      .first();
  }
  if (!isDatabaseId(named.id)) return undefined;
  const query = db<PaymentRow>('payments')
    .select(...PAYMENT_COLUMNS)
    .where({ id: named.id });
  return (named.partnerId === null ? query : query.where({ partner_id: named.partnerId })).first();
}

/** A payment's reversal, if it has one. */
export function reversalOfPayment(
  db: DbOrTrx,
  partnerId: string,
  paymentId: string,
): Promise<PaymentReversalRow | undefined> {
  return db<PaymentReversalRow>('payment_reversals')
    .select(...REVERSAL_COLUMNS)
    .where({ partner_id: partnerId, payment_id: paymentId })
    .first();
}

/** The reversals of several payments (the loader's read). */
export function reversalsOfPayments(db: DbOrTrx, payments: readonly TenantKey[]): Promise<PaymentReversalRow[]> {
  return whereTenantKeys(
    db<PaymentReversalRow>('payment_reversals').select(...REVERSAL_COLUMNS),
    ['partner_id', 'payment_id'],
    tenantKeyArrays(payments),
  );
}

/**
 * The reversal a caller's Idempotency-Key made, if any, after taking the key's turn: of two requests
 * with one key at once, the second waits here until the first commits, then finds its reversal.
 */
export async function reversalOfKey(
  trx: DbOrTrx,
  key: { partnerId: string; scope: string; key: string },
): Promise<PaymentReversalRow | undefined> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
    `reversal-key:${key.partnerId}:${key.scope}:${key.key}`,
  ]);
  return trx<PaymentReversalRow>('payment_reversals')
    .select(...REVERSAL_COLUMNS)
    .where({ partner_id: key.partnerId, idempotency_scope: key.scope, idempotency_key: key.key })
    .first();
}

/** A reversal as the one write writes it. */
export interface ReversalWrite {
  payment: PaymentRow;
  reason: string;
  reversedBy: ReversedBy;
  vendorId: string | null;
  apiKeyId: string | null;
  /** The partner's time. */
  reversedAt: Date;
  key: { scope: string; key: string; requestHash: string } | null;
  /** The answer, kept for replays. */
  snapshot: PaymentReversalSnapshot;
}

/** What the write wrote: the reversal's row, the order's new running total, the transactions it made (with their store and clerk). */
export interface ReversalWritten {
  reversal: PaymentReversalRow;
  totalPaidMinor: string;
  transactions: PaymentTransactionSource[];
}

/**
 * One statement, inside the caller's transaction with the order locked: the reversal's row (the
 * unique (partner_id, payment_id) refuses a second one, failing the whole statement), the order's
 * running total less the payment's amount (a payoff's pending release cleared once the order is no
 * longer paid off), and for each of the payment's own transactions (in store: its cash, its
 * commission) its opposite, at the reversal's time, tied to it. No row the payment wrote is changed.
 * The store and clerk are read by the partner bound as a value: Citus refuses them joined by the
 * inserted rows' partner (decisions.md 51).
 */
export async function writeReversal(trx: DbOrTrx, write: ReversalWrite): Promise<ReversalWritten> {
  const { payment, key } = write;
  const { rows } = (await trx.raw(
    `with reversal as (
       insert into payment_reversals (partner_id, payment_id, finance_order_id, amount_minor, currency, reason, reversed_by,
         vendor_id, api_key_id, reversed_at, idempotency_scope, idempotency_key, request_hash, response_body)
       values (?::int8, ?::int8, ?::int8, ?::int8, ?, ?, ?, ?::int8, ?::int8, ?::timestamptz, ?, ?, ?, ?::jsonb)
       returning ${REVERSAL_COLUMNS.join(', ')}),
     debited as (
       update finance_orders o set total_paid_minor = o.total_paid_minor - reversal.amount_minor,
         release_at = case when o.total_paid_minor - reversal.amount_minor < o.monthly_cost_minor * o.months then null else o.release_at end
       from reversal where o.partner_id = reversal.partner_id and o.id = reversal.finance_order_id
       returning o.total_paid_minor),
     answered as (
       insert into transactions (partner_id, type, amount_minor, currency, occurred_at, merchant_id, finance_order_id, payment_id, clerk_id, reversal_id)
       select t.partner_id, t.type, -t.amount_minor, t.currency, reversal.reversed_at, t.merchant_id, t.finance_order_id, t.payment_id, t.clerk_id, reversal.id
       from transactions t cross join reversal
       where t.partner_id = reversal.partner_id and t.payment_id = reversal.payment_id and t.reversal_id is null
       returning id, partner_id, type, amount_minor, merchant_id, clerk_id)
     select reversal.*, (select total_paid_minor::text from debited) as total_paid_minor,
       (select coalesce(json_agg(json_build_object('type', a.type, 'amount_minor', a.amount_minor::text,
          'merchant', json_build_object('id', m.id::text, 'name', m.name),
          'clerk', case when a.type = 'cash' then json_build_object('id', c.id::text, 'name', c.name) end) order by a.id), '[]')
        from answered a
        join merchants m on m.partner_id = ?::int8 and m.id = a.merchant_id
        left join clerks c on c.partner_id = ?::int8 and c.id = a.clerk_id) as transactions
     from reversal`,
    [
      payment.partner_id,
      payment.id,
      payment.finance_order_id,
      payment.amount_minor,
      payment.currency,
      write.reason,
      write.reversedBy,
      write.vendorId,
      write.apiKeyId,
      write.reversedAt.toISOString(),
      key?.scope ?? null,
      key?.key ?? null,
      key?.requestHash ?? null,
      JSON.stringify(write.snapshot),
      payment.partner_id,
      payment.partner_id,
    ],
  )) as {
    rows: Array<PaymentReversalRow & { total_paid_minor: string; transactions: PaymentTransactionSource[] | string }>;
  };
  const [row] = rows;
  if (!row) throw new Error(`the reversal of payment ${payment.id} wrote no row`);
  const { total_paid_minor: totalPaidMinor, transactions, ...reversal } = row;
  // json as the driver gives it: parsed (pg), or text (a driver that leaves json alone).
  return {
    reversal,
    totalPaidMinor,
    transactions: typeof transactions === 'string' ? JSON.parse(transactions) : transactions,
  };
}
