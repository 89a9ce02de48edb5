import type { DbOrTrx } from '../../db/knex.js';
import { limitToPage, type Page } from '../pages.js';
import { type TenantKey, whereTenantKeys } from '../tenancy.js';
import type { ClerkRow } from './rows.js';

/** The columns of a ClerkRow (a transaction list selects them through its join too). */
export const COLUMNS = ['partner_id', 'id', 'person_uuid', 'name', 'phone_number', 'email'] as const;

/** The clerks of several partners, ordered by partner, then id. */
export function clerksOfPartners(db: DbOrTrx, partnerIds: readonly string[]): Promise<ClerkRow[]> {
  return db<ClerkRow>('clerks')
    .select(...COLUMNS)
    .whereIn('partner_id', partnerIds)
    .orderBy(['partner_id', 'id']);
}

/** One page of a partner's clerks, ordered by id. */
export function clerksOfPartner(db: DbOrTrx, partnerId: string, page: Page): Promise<ClerkRow[]> {
  return limitToPage(
    db<ClerkRow>('clerks')
      .select(...COLUMNS)
      .where('partner_id', partnerId),
    page,
  );
}

/** Clerks by (partner, id): a clerk is only ever found within its own partner. */
export function clerksByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<ClerkRow[]> {
  return whereTenantKeys(db<ClerkRow>('clerks').select(...COLUMNS), ['partner_id', 'id'], keys);
}

export async function insertClerk(db: DbOrTrx, row: Omit<ClerkRow, 'id'>): Promise<ClerkRow> {
  const [inserted] = await db<ClerkRow>('clerks')
    .insert(row)
    .returning([...COLUMNS]);
  return inserted as ClerkRow;
}
