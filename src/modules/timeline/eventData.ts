// The device events' data (docs/decisions.md 18): what every one carries, the device and its order as
// they stand, and each one's own fields. Amounts are decimal strings and times Unix seconds, as the
// graph answers them.
import { amountForDays, formatAmount, formatMoney, minMinor } from '../../kernel/money.js';
import type { NewEvent } from '../events/rows.js';
import { DAYS_PER_MONTH, type OrderTerms, remainingBalanceOf } from '../financeOrders/terms.js';

/** An order as its device events tell of it: its terms, and its device. */
export interface TimelineOrder extends OrderTerms {
  id: string;
  device_tag: string;
  device_imei: string | null;
}

const unixSeconds = (at: Date | null) => (at === null ? null : Math.floor(at.getTime() / 1000));

/**
 * The least amount that moves lockAt by a day under the order's day rule, capped at the balance: the
 * repayment's minimumPaymentAmount while the partner takes flexible amounts (decisions.md 16).
 */
function minimumPaymentAmountOf(order: OrderTerms): string {
  const oneDay = amountForDays(BigInt(order.total_paid_minor), BigInt(order.monthly_cost_minor), DAYS_PER_MONTH, 1n);
  return formatAmount(minMinor(oneDay, remainingBalanceOf(order).minor), order.currency);
}

/** What every device event carries: the device, and the order with its balance and lockAt (null once paid). */
function deviceData(order: TimelineOrder, lockAt: Date | null) {
  return {
    device: { tag: order.device_tag, imei: order.device_imei },
    financeOrder: {
      id: order.id,
      remainingBalance: formatMoney(remainingBalanceOf(order)),
      currency: order.currency,
      lockAt: unixSeconds(lockAt),
    },
  };
}

/** device.lock_upcoming, `daysLeft` days before `lockAt`, at that instant. */
export function lockUpcomingEvent(order: TimelineOrder, lockAt: Date, daysLeft: number, dueAt: Date): NewEvent {
  return {
    type: 'device.lock_upcoming',
    occurredAt: dueAt,
    data: {
      ...deviceData(order, lockAt),
      daysLeft,
      lockAt: unixSeconds(lockAt),
      minimumPaymentAmount: minimumPaymentAmountOf(order),
    },
  };
}

/** device.locked, at lockAt. */
export function lockedEvent(order: TimelineOrder, lockAt: Date): NewEvent {
  return {
    type: 'device.locked',
    occurredAt: lockAt,
    data: { ...deviceData(order, lockAt), reason: 'PAYMENT_OVERDUE' },
  };
}

/** device.unlocked, by the payment (at `now`) that moved lockAt to `lockAt`; `order` stands as after it. */
export function unlockedEvent(order: TimelineOrder, lockAt: Date, now: Date): NewEvent {
  return { type: 'device.unlocked', occurredAt: now, data: deviceData(order, lockAt) };
}

/** device.released, by the payment (at `now`) that paid the order off, or at its releaseAt once the payoff's window closed. */
export function releasedEvent(order: TimelineOrder, now: Date): NewEvent {
  return { type: 'device.released', occurredAt: now, data: deviceData(order, null) };
}
