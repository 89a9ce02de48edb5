import type { DbOrTrx } from '../../db/knex.js';
import { tenantChildrenLoader, tenantKeyLoader } from '../tenancy.js';
import { paymentsByKeys, paymentsOfOrders } from './queries.js';

export function createPaymentLoaders(db: DbOrTrx) {
  return {
    byKey: tenantKeyLoader((keys) => paymentsByKeys(db, keys)),
    /** An order's payments, oldest first. */
    ofOrder: tenantChildrenLoader(
      (orders) => paymentsOfOrders(db, orders),
      (row) => row.finance_order_id,
    ),
  };
}
