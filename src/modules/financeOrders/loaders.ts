import DataLoader from 'dataloader';
import type { DbOrTrx } from '../../db/knex.js';
import { withCatalogue } from '../devices/catalogue.js';
import type { createDeviceLoaders } from '../devices/loaders.js';
import { tenantCacheKey, tenantChildrenLoader, tenantKeyLoader } from '../tenancy.js';
import {
  type CustomerOrdersKey,
  financeOrdersAroundCustomers,
  financeOrdersByKeys,
  financeOrdersOfCarts,
  financeOrdersOfCustomers,
  financeOrdersOfDevices,
} from './queries.js';
import type { FinanceOrderParent } from './rows.js';
import { withAmounts } from './terms.js';

/** The orders Customer.financeOrder chooses from, each list newest first. */
interface CustomerOrders {
  ofCustomer: FinanceOrderParent[];
  /** The orders of the device the customer's lookup went through; empty when it went through none. */
  ofMatchedDevice: FinanceOrderParent[];
}

type DeviceLoaders = Pick<ReturnType<typeof createDeviceLoaders>, 'byKey'>;

function groupBy<Row>(rows: readonly Row[], keyOf: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/**
 * The loaders' orders are what the graph answers a FinanceOrder from: each with its amounts
 * (decisions.md 47), whoever reads it first.
 */
export function createFinanceOrderLoaders(db: DbOrTrx, deviceLoaders: DeviceLoaders) {
  /** A customer's orders, newest first. */
  const ofCustomer = tenantChildrenLoader(
    (customers) => financeOrdersOfCustomers(db, customers).then((rows) => rows.map(withAmounts)),
    (row) => row.customer_id,
  );
  /** A device's orders, newest first. */
  const ofDevice = tenantChildrenLoader(
    (devices) => financeOrdersOfDevices(db, devices).then((rows) => rows.map(withAmounts)),
    (row) => row.device_id,
  );
  return {
    byKey: tenantKeyLoader((keys) => financeOrdersByKeys(db, keys).then((rows) => rows.map(withAmounts))),
    ofCustomer,
    ofDevice,
    ofCart: tenantChildrenLoader(
      (carts) => financeOrdersOfCarts(db, carts).then((rows) => rows.map(withAmounts)),
      (row) => row.cart_id ?? '',
    ),
    /**
     * The orders Customer.financeOrder chooses from. They come in one statement with their devices and
     * every order of those devices, which prime ofCustomer, ofDevice and devices.byKey: the chosen
     * order's device and that device's standing then cost no further round trip.
     */
    aroundCustomer: new DataLoader<CustomerOrdersKey, CustomerOrders, string>(
      async (customers) => {
        const rows = await financeOrdersAroundCustomers(db, customers);
        const orders = rows.map(({ order }) => withAmounts(order));
        for (const { device } of rows)
          deviceLoaders.byKey.prime({ partnerId: device.partner_id, id: device.id }, withCatalogue(device));
        // The statement reads every order of each device it touches: these lists are complete, fit to prime.
        const ofEachDevice = groupBy(orders, (order) =>
          tenantCacheKey({ partnerId: order.partner_id, id: order.device_id }),
        );
        for (const ofThisDevice of ofEachDevice.values())
          ofDevice.prime({ partnerId: ofThisDevice[0]!.partner_id, id: ofThisDevice[0]!.device_id }, ofThisDevice);
        const ofEachCustomer = groupBy(orders, (order) =>
          tenantCacheKey({ partnerId: order.partner_id, id: order.customer_id }),
        );
        return customers.map((customer) => {
          const ofThisCustomer = ofEachCustomer.get(tenantCacheKey(customer)) ?? [];
          ofCustomer.prime({ partnerId: customer.partnerId, id: customer.id }, ofThisCustomer);
          if (!customer.matchedDeviceId) return { ofCustomer: ofThisCustomer, ofMatchedDevice: [] };
          const matchedDevice = { partnerId: customer.partnerId, id: customer.matchedDeviceId };
          const ofMatchedDevice = ofEachDevice.get(tenantCacheKey(matchedDevice)) ?? [];
          ofDevice.prime(matchedDevice, ofMatchedDevice);
          return { ofCustomer: ofThisCustomer, ofMatchedDevice };
        });
      },
      { cacheKeyFn: (key) => `${tenantCacheKey(key)}:${key.matchedDeviceId ?? ''}` },
    ),
  };
}
