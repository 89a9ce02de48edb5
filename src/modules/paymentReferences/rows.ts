import type { ConnectionPage, EdgeParent } from '../pages.js';

/**
 * What is stored of a reference's state: EXPIRED only by a sandbox clock reset that found it expired
 * (decisions.md 37); otherwise it is computed (referenceStatusOf).
 */
type StoredReferenceStatus = 'OPEN' | 'PAID' | 'CANCELLED' | 'EXPIRED';
type PaymentReferenceStatus = StoredReferenceStatus;

/** A row of `payment_references`. amount_minor is int8 minor units of `currency`, as a string. */
export interface PaymentReferenceRow {
  partner_id: string;
  id: string;
  code: string;
  finance_order_id: string;
  amount_minor: string;
  currency: string;
  days_paid: number;
  status: StoredReferenceStatus;
  expires_at: Date;
  created_at: Date;
  payment_id: string | null;
  paid_at: Date | null;
  cancelled_at: Date | null;
}

/**
 * The earliest expiresAt still open at `now`: the next whole second after `now`. A reference expires
 * at the whole second its expiresAt shows (decisions.md 37), so it has expired at `now` exactly when its
 * expiresAt is before this bound. The one statement of the rule: the status below reads it, and the
 * writes compare the column with it (Citus refuses `date_trunc` of a column in an update, decisions.md 51).
 */
export const openFromAt = (now: Date): Date => new Date(Math.floor(now.getTime() / 1000) * 1000 + 1000);

/** The status at `now` (the partner's time): an open reference whose expiresAt has come is EXPIRED. */
export function referenceStatusOf(
  reference: Pick<PaymentReferenceRow, 'status' | 'expires_at'>,
  now: Date,
): PaymentReferenceStatus {
  if (reference.status === 'OPEN' && reference.expires_at < openFromAt(now)) return 'EXPIRED';
  return reference.status;
}

export const PAYMENT_REFERENCE_CURSOR = 'paymentReferences';

/** A page of an order's references (FinanceOrder.paymentReferences), and one of its edges. */
export type PaymentReferenceConnectionParent = ConnectionPage<PaymentReferenceRow>;
export type PaymentReferenceEdgeParent = EdgeParent<PaymentReferenceRow>;
