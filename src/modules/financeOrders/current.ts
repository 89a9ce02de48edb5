// A customer's current order (decisions.md 8), one rule for the customer lookup and a vendor's
// notification alike: found through a device (IMEI or tag), that device's newest order; otherwise the
// customer's newest open order, or their newest when every one is paid off or closed.
import { type OrderTerms, standingOf } from './terms.js';

/** Still being repaid: neither paid off nor closed (a closed order is passed over as a paid-off one is, decisions.md 44). */
const isOpen = (order: OrderTerms, now: Date): boolean =>
  (order.closed_at ?? null) === null && !standingOf(order, now).fullyPaid;

/** The current order, from orders listed newest first: the device's (if a lookup went through one), the customer's. */
export function currentOrderOf<T extends OrderTerms>(
  orders: { ofDevice?: readonly T[]; ofCustomer: readonly T[] },
  now: Date,
): T | undefined {
  const [ofDevice] = orders.ofDevice ?? [];
  if (ofDevice) return ofDevice;
  return orders.ofCustomer.find((order) => isOpen(order, now)) ?? orders.ofCustomer[0];
}
