// A customer's current order (decisions.md 8), one rule for the customer lookup and a vendor's
// notification alike: found through a device (IMEI or tag), that device's newest order; otherwise the
// customer's newest open order, or their newest when every one is paid off.
import { type OrderTerms, standingOf } from './terms.js';

/** The current order, from orders listed newest first: the device's (if a lookup went through one), the customer's. */
export function currentOrderOf<T extends OrderTerms>(
  orders: { ofDevice?: readonly T[]; ofCustomer: readonly T[] },
  now: Date,
): T | undefined {
  const [ofDevice] = orders.ofDevice ?? [];
  if (ofDevice) return ofDevice;
  return orders.ofCustomer.find((order) => !standingOf(order, now).fullyPaid) ?? orders.ofCustomer[0];
}
