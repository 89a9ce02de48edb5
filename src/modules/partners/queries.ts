import type { DbOrTrx } from '../../db/knex.js';
import { limitToPage, type Page } from '../pages.js';
import type { PartnerRow } from './rows.js';

const COLUMNS = ['id', 'name', 'commission_rate_bps', 'created_at'] as const;

/** Partners by id, in no particular order; ids with no partner are simply absent. */
export function partnersByIds(db: DbOrTrx, ids: readonly string[]): Promise<PartnerRow[]> {
  return db<PartnerRow>('partners')
    .select(...COLUMNS)
    .whereIn('id', ids);
}

/** One page of the partners, ordered by id. */
export function listPartners(db: DbOrTrx, page: Page): Promise<PartnerRow[]> {
  return limitToPage(db<PartnerRow>('partners').select(...COLUMNS), page);
}

export async function insertPartner(
  db: DbOrTrx,
  row: Pick<PartnerRow, 'name' | 'commission_rate_bps'>,
): Promise<PartnerRow> {
  const [inserted] = await db<PartnerRow>('partners')
    .insert(row)
    .returning([...COLUMNS]);
  return inserted as PartnerRow;
}

/** Whether a partner exists (operator mutations name partners by id). */
export async function partnerExists(db: DbOrTrx, id: string): Promise<boolean> {
  return Boolean(await db('partners').where({ id }).first('id'));
}
