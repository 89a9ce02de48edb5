// Reading and writing payment references: plain functions taking db | trx.
import type { DbOrTrx } from '../../db/knex.js';
import { claimPaymentReferenceCode, ownerOfPaymentReferenceCode } from '../directories.js';
import type { TenantKey } from '../tenancy.js';
import { openFromAt, type PaymentReferenceRow } from './rows.js';

const COLUMNS = [
  'partner_id',
  'id',
  'code',
  'finance_order_id',
  'amount_minor',
  'currency',
  'days_paid',
  'status',
  'expires_at',
  'created_at',
  'payment_id',
  'paid_at',
  'cancelled_at',
] as const;

export type NewPaymentReference = Omit<
  PaymentReferenceRow,
  'id' | 'status' | 'payment_id' | 'paid_at' | 'cancelled_at'
>;

/**
 * Inserts a reference in the caller's transaction, its code claimed first in the global directory
 * (decisions.md 48); undefined when any partner holds the code already (the caller draws another).
 */
export async function insertPaymentReference(
  trx: DbOrTrx,
  row: NewPaymentReference,
): Promise<PaymentReferenceRow | undefined> {
  if (!(await claimPaymentReferenceCode(trx, row.code, row.partner_id))) return undefined;
  const [written] = await trx<PaymentReferenceRow>('payment_references')
    .insert(row)
    .returning([...COLUMNS]);
  return written as PaymentReferenceRow;
}

/**
 * A reference by code: within one partner, or any partner's when partnerId is null (operators), whose
 * partner the global directory names first, so the read pins it either way.
 */
export async function paymentReferenceByCode(
  db: DbOrTrx,
  code: string,
  partnerId: string | null,
): Promise<PaymentReferenceRow | undefined> {
  const owner = partnerId ?? (await ownerOfPaymentReferenceCode(db, code));
  if (owner === undefined) return undefined;
  return db<PaymentReferenceRow>('payment_references')
    .select(...COLUMNS)
    .where({ partner_id: owner, code })
    .first();
}

/**
 * A reference by code, its row locked for the caller's transaction (a notification paying it):
 * concurrent notifications quoting one code take turns, on any number of instances. A notification
 * names no partner: the global directory names it, then the lock pins it.
 */
export async function lockPaymentReference(trx: DbOrTrx, code: string): Promise<PaymentReferenceRow | undefined> {
  const owner = await ownerOfPaymentReferenceCode(trx, code);
  if (owner === undefined) return undefined;
  return trx<PaymentReferenceRow>('payment_references')
    .select(...COLUMNS)
    .where({ partner_id: owner, code })
    .forUpdate()
    .first();
}

/**
 * Marks an open, unexpired reference paid by `paymentId`, in the payment's transaction: the one write
 * that makes a reference paid, so it is paid once whatever ran before it. Zero rows: it was not open
 * and unexpired at `now` (the caller re-reads to say why).
 */
export async function markPaymentReferencePaid(
  trx: DbOrTrx,
  reference: Pick<PaymentReferenceRow, 'partner_id' | 'code'>,
  paymentId: string,
  now: Date,
): Promise<boolean> {
  const updated = await trx('payment_references')
    .where({ partner_id: reference.partner_id, code: reference.code, status: 'OPEN' })
    .where('expires_at', '>=', openFromAt(now))
    .update({ status: 'PAID', payment_id: paymentId, paid_at: now });
  return updated === 1;
}

/**
 * Stores EXPIRED on the partner's open references expired at `partnerNow`, its time: a sandbox clock
 * reset keeps expired what the partner saw expired (decisions.md 37). One statement.
 */
export function expireReferencesAt(db: DbOrTrx, partnerId: string, partnerNow: Date): Promise<number> {
  return db('payment_references')
    .where({ partner_id: partnerId, status: 'OPEN' })
    .where('expires_at', '<', openFromAt(partnerNow))
    .update({ status: 'EXPIRED' });
}

/** Cancels an open (or stored expired) reference of the partner (any partner's for null); undefined when none was. */
export async function cancelOpenPaymentReference(
  db: DbOrTrx,
  code: string,
  partnerId: string | null,
  now: Date,
): Promise<PaymentReferenceRow | undefined> {
  const owner = partnerId ?? (await ownerOfPaymentReferenceCode(db, code));
  if (owner === undefined) return undefined;
  const [row] = await db<PaymentReferenceRow>('payment_references')
    .where({ partner_id: owner, code })
    .whereIn('status', ['OPEN', 'EXPIRED'])
    .update({ status: 'CANCELLED', cancelled_at: now })
    .returning([...COLUMNS]);
  return row as PaymentReferenceRow | undefined;
}

/** `limit` references of an order in id order, after id `after`. */
export function paymentReferencesOfOrder(
  db: DbOrTrx,
  order: TenantKey,
  after: string | undefined,
  limit: number,
): Promise<PaymentReferenceRow[]> {
  const query = db<PaymentReferenceRow>('payment_references')
    .select(...COLUMNS)
    .where({ partner_id: order.partnerId, finance_order_id: order.id });
  if (after !== undefined) query.where('id', '>', after);
  return query.orderBy('id').limit(limit);
}

/** Whether the order has a reference at or before id `after` (hasPreviousPage). */
export async function paymentReferencesPrecede(db: DbOrTrx, order: TenantKey, after: string): Promise<boolean> {
  const row = await db('payment_references')
    .where({ partner_id: order.partnerId, finance_order_id: order.id })
    .where('id', '<=', after)
    .first('id');
  return row !== undefined;
}
