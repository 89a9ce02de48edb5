/** A row of `payment_vendors`. */
export interface PaymentVendorRow {
  id: string;
  name: string;
  display_name: string;
  request_schema: Record<string, unknown>;
  enabled: boolean;
  created_at: Date;
}
