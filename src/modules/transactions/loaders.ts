import type { DbOrTrx } from '../../db/knex.js';
import { tenantKeyLoader } from '../tenancy.js';
import { adjustmentsByKeys } from './queries.js';

export function createTransactionLoaders(db: DbOrTrx) {
  return {
    adjustmentByKey: tenantKeyLoader((keys) => adjustmentsByKeys(db, keys)),
  };
}
