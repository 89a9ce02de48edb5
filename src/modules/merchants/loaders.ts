import type { DbOrTrx } from '../../db/knex.js';
import { tenantKeyLoader, tenantListLoader } from '../tenancy.js';
import { merchantsByKeys, merchantsOfPartners } from './queries.js';

export function createMerchantLoaders(db: DbOrTrx) {
  return {
    /** All merchants of a partner, ordered by id. */
    byPartner: tenantListLoader((partnerIds) => merchantsOfPartners(db, partnerIds)),
    /** One merchant of a partner, or null. */
    byKey: tenantKeyLoader((keys) => merchantsByKeys(db, keys)),
  };
}
