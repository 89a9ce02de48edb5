/** A row of `partners`. Ids are int8, which the driver gives as strings (src/db/types.ts). */
export interface PartnerRow {
  id: string;
  name: string;
  commission_rate_bps: number;
  created_at: Date;
}
