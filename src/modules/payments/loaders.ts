import type { DbOrTrx } from '../../db/knex.js';
import { tenantChildrenLoader, tenantKeyLoader } from '../tenancy.js';
import { paymentsByKeys, paymentsOfOrders } from './queries.js';
import { reversalsOfPayments } from './reversalQueries.js';

export function createPaymentLoaders(db: DbOrTrx) {
  return {
    byKey: tenantKeyLoader((keys) => paymentsByKeys(db, keys)),
    /** An order's payments, oldest first. */
    ofOrder: tenantChildrenLoader(
      (orders) => paymentsOfOrders(db, orders),
      (row) => row.finance_order_id,
    ),
    /** A payment's reversal (at most one), by the payment's key. */
    reversalOf: tenantChildrenLoader(
      (payments) => reversalsOfPayments(db, payments),
      (row) => row.payment_id,
    ),
  };
}
