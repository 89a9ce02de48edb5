/** A row of `carts`. Money columns are int8 minor units of `currency`, as strings. */
export interface CartRow {
  partner_id: string;
  id: string;
  cart_tag: string;
  customer_id: string;
  merchant_id: string;
  clerk_id: string;
  device_model_id: string;
  device_description: string | null;
  currency: string;
  purchase_minor: string;
  down_payment_minor: string;
  price_pre_tax_minor: string;
  monthly_cost_minor: string;
  weekly_cost_minor: string;
  months: number;
  created_at: Date;
}
