/** A row of `finance_orders`. Money columns are int8 minor units of `currency`, as strings. */
export interface FinanceOrderRow {
  partner_id: string;
  id: string;
  customer_id: string;
  device_id: string;
  merchant_id: string;
  clerk_id: string;
  cart_id: string | null;
  currency: string;
  purchase_minor: string;
  down_payment_minor: string;
  price_pre_tax_minor: string;
  monthly_cost_minor: string;
  weekly_cost_minor: string;
  months: number;
  total_paid_minor: string;
  ordered_at: Date;
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
