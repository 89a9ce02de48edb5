import type { DbOrTrx } from '../../db/knex.js';
import { tenantKeyLoader } from '../tenancy.js';
import { customersByKeys } from './queries.js';

export function createCustomerLoaders(db: DbOrTrx) {
  return {
    byKey: tenantKeyLoader((keys) => customersByKeys(db, keys)),
  };
}
