import type { DbOrTrx } from '../../db/knex.js';
import { tenantKeyLoader, tenantListLoader } from '../tenancy.js';
import { clerksByKeys, clerksOfPartners } from './queries.js';

export function createClerkLoaders(db: DbOrTrx) {
  return {
    /** All clerks of a partner, ordered by id. */
    byPartner: tenantListLoader((partnerIds) => clerksOfPartners(db, partnerIds)),
    /** One clerk of a partner, or null. */
    byKey: tenantKeyLoader((keys) => clerksByKeys(db, keys)),
  };
}
