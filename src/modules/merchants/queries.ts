import type { DbOrTrx } from '../../db/knex.js';
import { limitToPage, type Page } from '../pages.js';
import { type TenantKey, whereTenantKeys } from '../tenancy.js';
import type { MerchantRow } from './rows.js';

/** The columns of a MerchantRow (a transaction list selects them through its join too). */
export const COLUMNS = [
  'partner_id',
  'id',
  'name',
  'street',
  'street2',
  'city',
  'state',
  'postal_code',
  'country',
  'phone_number',
] as const;

/** The merchants of several partners, ordered by partner, then id. */
export function merchantsOfPartners(db: DbOrTrx, partnerIds: readonly string[]): Promise<MerchantRow[]> {
  return db<MerchantRow>('merchants')
    .select(...COLUMNS)
    .whereIn('partner_id', partnerIds)
    .orderBy(['partner_id', 'id']);
}

/** One page of a partner's merchants, ordered by id. */
export function merchantsOfPartner(db: DbOrTrx, partnerId: string, page: Page): Promise<MerchantRow[]> {
  return limitToPage(
    db<MerchantRow>('merchants')
      .select(...COLUMNS)
      .where('partner_id', partnerId),
    page,
  );
}

/** Merchants by (partner, id): a merchant is only ever found within its own partner. */
export function merchantsByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<MerchantRow[]> {
  return whereTenantKeys(db<MerchantRow>('merchants').select(...COLUMNS), ['partner_id', 'id'], keys);
}

export async function insertMerchant(db: DbOrTrx, row: Omit<MerchantRow, 'id'>): Promise<MerchantRow> {
  const [inserted] = await db<MerchantRow>('merchants')
    .insert(row)
    .returning([...COLUMNS]);
  return inserted as MerchantRow;
}
