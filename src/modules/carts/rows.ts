import type { FinanceTermsColumns } from '../financeOrders/rows.js';

/** The longest cart tag a cart may have; the door refuses longer ones in a lookup. */
export const CART_TAG_MAX_LENGTH = 64;

/** A row of `carts`. */
export interface CartRow extends FinanceTermsColumns {
  partner_id: string;
  id: string;
  cart_tag: string;
  customer_id: string;
  merchant_id: string;
  clerk_id: string;
  device_model_id: string;
  device_description: string | null;
  created_at: Date;
}
