/** A row of `merchants` (tenant table: partner_id is part of its key). */
export interface MerchantRow {
  partner_id: string;
  id: string;
  name: string;
  street: string;
  street2: string | null;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  phone_number: string;
}
