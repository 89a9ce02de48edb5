/** The terms a cart proposes and a finance order fixes: int8 minor units of `currency`, as strings. */
export interface FinanceTermsColumns {
  currency: string;
  purchase_minor: string;
  down_payment_minor: string;
  price_pre_tax_minor: string;
  monthly_cost_minor: string;
  weekly_cost_minor: string;
  months: number;
}

/** A row of `finance_orders`. */
export interface FinanceOrderRow extends FinanceTermsColumns {
  partner_id: string;
  id: string;
  customer_id: string;
  device_id: string;
  merchant_id: string;
  clerk_id: string;
  cart_id: string | null;
  total_paid_minor: string;
  ordered_at: Date;
}

/** An order as a payment reads it (locked): with its partner's commission rate and its device's tag. */
export interface FinanceOrderForPayment extends FinanceOrderRow {
  commission_rate_bps: number;
  device_tag: string;
}

export interface PaymentOptionParent {
  type: 'FULL' | 'MONTH' | 'WEEK';
  amountMinor: bigint;
  currency: string;
}

export interface InstallmentParent {
  number: number;
  dueAt: Date;
  amountMinor: bigint;
  paidMinor: bigint;
  status: 'PAID' | 'OVERDUE' | 'UPCOMING';
  currency: string;
}
