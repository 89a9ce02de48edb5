import type { ConnectionPage, EdgeParent } from '../pages.js';

/** A row of `customers`. email, address and national_id are personal data (see Customer in the SDL). */
export interface CustomerRow {
  partner_id: string;
  id: string;
  name: string;
  phone_number: string;
  email: string | null;
  address: string | null;
  national_id: string | null;
  /** When the customer was registered: read by a listing and by key, not by a lookup (Customer.createdAt loads it then). */
  created_at?: Date;
}

/** A customer as a lookup found it: the order the locator pointed at travels with the row. */
export type CustomerParent = CustomerRow & { matched_device_id?: string | null };

/** A page of customers as the graph answers it. */
export type CustomerConnectionParent = ConnectionPage<CustomerRow>;

/** An edge of a CustomerConnection. */
export type CustomerEdgeParent = EdgeParent<CustomerRow>;
