import DataLoader from 'dataloader';
import type { DbOrTrx } from '../../db/knex.js';
import { partnersByIds } from './queries.js';
import type { PartnerRow } from './rows.js';

export function createPartnerLoaders(db: DbOrTrx) {
  return {
    byId: new DataLoader<string, PartnerRow | null>(async (ids) => {
      const rows = await partnersByIds(db, ids);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
