import type { DbOrTrx } from '../../db/knex.js';
import { tenantChildrenLoader, tenantKeyLoader } from '../tenancy.js';
import { financeOrdersByKeys, financeOrdersOfCarts, financeOrdersOfCustomers, financeOrdersOfDevices } from './queries.js';

export function createFinanceOrderLoaders(db: DbOrTrx) {
  return {
    byKey: tenantKeyLoader((keys) => financeOrdersByKeys(db, keys)),
    /** A customer's orders, newest first. */
    ofCustomer: tenantChildrenLoader((customers) => financeOrdersOfCustomers(db, customers), (row) => row.customer_id),
    /** A device's orders, newest first. */
    ofDevice: tenantChildrenLoader((devices) => financeOrdersOfDevices(db, devices), (row) => row.device_id),
    ofCart: tenantChildrenLoader((carts) => financeOrdersOfCarts(db, carts), (row) => row.cart_id ?? ''),
  };
}
