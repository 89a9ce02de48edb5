// What a payment vendor may tell a customer before taking cash (GET /payments/v1/repayment-options,
// Query.deviceRepayment): the order a notification naming the device would pay (notification.ts
// orderFor's rule for a device tag), and its repayment at its partner's time. Refused with the codes
// the notification would answer (decisions.md 16).
import type { Db } from '../../db/knex.js';
import { currencyMismatch, notFound, nothingToPay } from '../../kernel/errors.js';
import { formatMoney } from '../../kernel/money.js';
import { findDevice } from '../devices/queries.js';
import { currentOrderOf } from '../financeOrders/current.js';
import { financeOrdersOfDevices } from '../financeOrders/queries.js';
import { type RepaymentParent, repaymentOf } from '../financeOrders/repayment.js';
import { assertOpen, lockAtOf, remainingBalanceOf, standingOf } from '../financeOrders/terms.js';
import type { PartnerClocks } from '../partners/clock.js';
import { partnerSettingsOf } from '../partners/settings.js';

/** A DeviceRepayment as the graph resolves it. */
export interface DeviceRepaymentParent {
  deviceTag: string;
  financeOrderId: string;
  currency: string;
  lockAt: Date;
  repayment: RepaymentParent;
}

/**
 * The repayment of the device's current order. Read from the primary, as the notification reads: an
 * option quoted from a replica behind it could be an amount the order no longer takes.
 */
export async function deviceRepaymentOf(
  db: Db,
  asked: { deviceTag: string; currency: string | null },
  clocks: PartnerClocks,
): Promise<DeviceRepaymentParent> {
  const { deviceTag, currency } = asked;
  const device = await findDevice(db, 'tag', deviceTag, null);
  if (!device) throw notFound('device', deviceTag, 'deviceTag');
  const ofDevice = await financeOrdersOfDevices(db, [{ partnerId: device.partner_id, id: device.id }]);
  const now = clocks.nowFor(device.partner_id);
  const order = currentOrderOf({ ofDevice, ofCustomer: [] }, now);
  if (!order) throw notFound('finance order for the device', deviceTag, 'deviceTag');
  // In the notification's order: the order open, the currency, then what the amount meets (here, any amount).
  assertOpen(order);
  if (currency !== null && currency !== order.currency) throw currencyMismatch(currency, order.currency);
  const remaining = remainingBalanceOf(order);
  if (remaining.minor <= 0n) throw nothingToPay(`finance order ${order.id}`, formatMoney(remaining), order.currency);
  const settings = await partnerSettingsOf(db, order.partner_id);
  return {
    deviceTag: device.tag,
    financeOrderId: order.id,
    currency: order.currency,
    lockAt: lockAtOf(standingOf(order, now).paidThrough, settings),
    repayment: { ...repaymentOf(order, now, settings), order },
  };
}
