import type { LegacyReceiptSource } from '../../contract/payment.js';

/** A row of `payments`. amount_minor is int8 minor units of `currency`, as a string. */
export interface PaymentRow {
  partner_id: string;
  id: string;
  finance_order_id: string;
  channel: 'in_store' | 'vendor';
  amount_minor: string;
  currency: string;
  merchant_id: string | null;
  clerk_id: string | null;
  vendor_id: string | null;
  vendor_reference: string | null;
  received_at: Date;
  /** Until when it may be reversed: received_at + its partner's reversal window then (decisions.md 44). */
  reversible_until: Date;
}

/**
 * A payment as the graph answers it: its row with its amount formatted as the row was read
 * (withAmount in amount.ts; decisions.md 47), or the error formatting it raised.
 */
export type PaymentParent = PaymentRow & { amount: string | Error };

/**
 * What a payment did, as it stood right after it was recorded: the answer to the request, kept for
 * replays (idempotency keys, vendor references), so a replay answers exactly what the first did.
 */
export interface PaymentReceiptSnapshot extends LegacyReceiptSource {
  partnerId: string;
  /** The offline unlock code (decisions.md 21); null or absent: none (no device credential, or stored before codes). */
  unlockCode?: string | null;
}

/** A receipt as the graph answers it; `payment` is the row when this request recorded it (never stored). */
export type PaymentReceiptParent = PaymentReceiptSnapshot & { replayed: boolean; payment?: PaymentRow };

export interface PaymentNotificationParent {
  message: string;
  receipt: PaymentReceiptParent;
}

/** What a payment reads of a stored Idempotency-Key (a row of `idempotency_keys`). */
export interface IdempotencyRecord {
  request_hash: string;
  response_body: PaymentReceiptSnapshot;
  expires_at: Date;
}

/** Who reversed a payment (decisions.md 44). */
export type ReversedBy = 'vendor' | 'partner' | 'operator';

/**
 * What a reversal answered, as it stood right after it: kept on its row (`response_body`), so a
 * replay of its Idempotency-Key answers exactly the first answer. The reversal's id is its row's.
 */
export interface PaymentReversalSnapshot {
  partnerId: string;
  paymentId: string;
  amountMinor: string;
  currency: string;
  reason: string;
  /** Unix seconds, the partner's time. */
  time: number;
  remainingMinor: string;
  /** Unix seconds; null while the order is still fully paid. */
  lockAt: number | null;
  fullyPaid: boolean;
}

/** A row of `payment_reversals`. amount_minor is int8 minor units of `currency`, as a string. */
export interface PaymentReversalRow {
  partner_id: string;
  id: string;
  payment_id: string;
  finance_order_id: string;
  amount_minor: string;
  currency: string;
  reason: string;
  reversed_by: ReversedBy;
  vendor_id: string | null;
  api_key_id: string | null;
  reversed_at: Date;
  idempotency_scope: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  response_body: PaymentReversalSnapshot | null;
}

/** A reversal as the graph answers it; `payment` is the row when this request reversed it (never stored). */
export type PaymentReversalParent = PaymentReversalSnapshot & {
  reversalId: string;
  replayed: boolean;
  payment?: PaymentRow;
};
