import type { DbOrTrx } from '../../db/knex.js';
import { globalIdLoader } from '../tenancy.js';
import { paymentVendorsByIds } from './queries.js';

export function createPaymentVendorLoaders(db: DbOrTrx) {
  return {
    byId: globalIdLoader((ids) => paymentVendorsByIds(db, ids)),
  };
}
