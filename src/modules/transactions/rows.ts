export type TransactionType = 'finance' | 'cash' | 'commission' | 'adjustment';

/** A row of `transactions`: signed amount from the partner's side, int8 minor units as a string. */
export interface TransactionRow {
  partner_id: string;
  id: string;
  type: TransactionType;
  amount_minor: string;
  currency: string;
  occurred_at: Date;
  merchant_id: string;
  finance_order_id: string | null;
  payment_id: string | null;
  clerk_id: string | null;
  adjustment_id: string | null;
}

/** A transaction as listed: with the exact time for its cursor (microseconds since the epoch). */
export type ListedTransactionRow = TransactionRow & { occurred_at_us: string };

/** A row of `adjustments`. */
export interface AdjustmentRow {
  partner_id: string;
  id: string;
  kind: 'payment' | 'commission';
  amount_minor: string;
  currency: string;
  notes: string;
  merchant_id: string;
  finance_order_id: string | null;
  operator_id: string | null;
  created_at: Date;
}

export interface TransactionConnectionParent {
  rows: ListedTransactionRow[];
  hasNextPage: boolean;
}
