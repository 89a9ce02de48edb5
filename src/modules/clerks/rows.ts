/** A row of `clerks` (tenant table: partner_id is part of its key). */
export interface ClerkRow {
  partner_id: string;
  id: string;
  person_uuid: string;
  name: string;
  phone_number: string;
  email: string;
}
