import type { DbOrTrx } from '../../db/knex.js';
import { tenantKeyLoader } from '../tenancy.js';
import { cartsByKeys } from './queries.js';

export function createCartLoaders(db: DbOrTrx) {
  return {
    byKey: tenantKeyLoader((keys) => cartsByKeys(db, keys)),
  };
}
