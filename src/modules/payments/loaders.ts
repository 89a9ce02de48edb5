import type { DbOrTrx } from '../../db/knex.js';
import { tenantChildrenLoader, tenantKeyLoader } from '../tenancy.js';
import { withAmount } from './amount.js';
import { paymentsByKeys, paymentsOfOrders } from './queries.js';
import { reversalsOfPayments } from './reversalQueries.js';

export function createPaymentLoaders(db: DbOrTrx) {
  return {
    // Each with its amount, as the graph answers a Payment (amount.ts).
    byKey: tenantKeyLoader((keys) => paymentsByKeys(db, keys).then((rows) => rows.map(withAmount))),
    /** An order's payments, oldest first. */
    ofOrder: tenantChildrenLoader(
      (orders) => paymentsOfOrders(db, orders).then((rows) => rows.map(withAmount)),
      (row) => row.finance_order_id,
    ),
    /** A payment's reversal (at most one), by the payment's key. */
    reversalOf: tenantChildrenLoader(
      (payments) => reversalsOfPayments(db, payments),
      (row) => row.payment_id,
    ),
  };
}
