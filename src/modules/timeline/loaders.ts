// Per-request loaders: each partner's next lock (an operator's list asks for several partners at once).
import DataLoader from 'dataloader';
import type { Db } from '../../db/knex.js';
import { nextLockAtOf, type PartnerAt } from './queries.js';

export function createTimelineLoaders(db: Db) {
  return {
    nextLockAt: new DataLoader<PartnerAt, Date | null, string>(
      async (partners) => {
        const found = await nextLockAtOf(db, partners);
        return partners.map((partner) => found.get(partner.partnerId) ?? null);
      },
      { cacheKeyFn: (partner) => partner.partnerId },
    ),
  };
}
