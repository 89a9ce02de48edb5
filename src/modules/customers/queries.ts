import type { DbOrTrx } from '../../db/knex.js';
import { whereTenantKeys, type TenantKey } from '../tenancy.js';
import type { CustomerRow } from './rows.js';

const COLUMNS = ['partner_id', 'id', 'name', 'phone_number', 'email', 'address', 'national_id'] as const;

export function customersByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<CustomerRow[]> {
  return whereTenantKeys(db<CustomerRow>('customers').select(...COLUMNS), ['partner_id', 'id'], keys);
}

/** Customers with this phone number: within one partner, or across all when partnerId is null. */
export function customersByPhone(db: DbOrTrx, phone: string, partnerId: string | null): Promise<CustomerRow[]> {
  const query = db<CustomerRow>('customers').select(...COLUMNS).where({ phone_number: phone }).orderBy(['partner_id', 'id']);
  return partnerId === null ? query : query.where({ partner_id: partnerId });
}

/** Customers with this id: within one partner, or across all when partnerId is null. */
export function customersById(db: DbOrTrx, id: string, partnerId: string | null): Promise<CustomerRow[]> {
  const query = db<CustomerRow>('customers').select(...COLUMNS).where({ id });
  return partnerId === null ? query : query.where({ partner_id: partnerId });
}

export async function insertCustomer(db: DbOrTrx, row: Omit<CustomerRow, 'id'>): Promise<CustomerRow> {
  const [inserted] = await db<CustomerRow>('customers').insert(row).returning([...COLUMNS]);
  return inserted as CustomerRow;
}
