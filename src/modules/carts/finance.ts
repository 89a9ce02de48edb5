// Financing a cart: in one transaction the cart is locked, the device checked and given to the cart's
// customer, the finance order written with the partner's finance transaction (+financeAmount), and
// the operator's audit record. Every refusal happens before anything is written.
import type { Db } from '../../db/knex.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { assignDeviceToCustomer, devicesByKeys } from '../devices/queries.js';
import { appendEvents } from '../events/queries.js';
import { financeOrderEvent } from '../financeOrders/events.js';
import { financeOrdersOfCarts, financeOrdersOfDevices, insertFinanceOrder } from '../financeOrders/queries.js';
import type { FinanceOrderRow } from '../financeOrders/rows.js';
import { financeAmountOf, lockAtOf, standingOf } from '../financeOrders/terms.js';
import { partnerSettingsOf } from '../partners/settings.js';
import { rescheduleOrder } from '../timeline/schedule.js';
import { transactionCreatedEvents } from '../transactions/events.js';
import { insertTransactions } from '../transactions/queries.js';
import { lockCartByTag } from './queries.js';

interface FinanceCartRequest {
  partnerId: string;
  cartTag: string;
  deviceId: string;
}

export async function financeCart(
  db: Db,
  actor: AuditActor,
  request: FinanceCartRequest,
  now: Date,
): Promise<FinanceOrderRow> {
  const { partnerId, cartTag, deviceId } = request;
  return audited(
    db,
    actor,
    async (trx) => {
      const cart = await lockCartByTag(trx, partnerId, cartTag);
      if (!cart) throw notFound('cart', cartTag);
      const [financed] = await financeOrdersOfCarts(trx, [{ partnerId, id: cart.id }]);
      if (financed) throw invalidArgument('input.cartTag', `was already financed as finance order ${financed.id}`);
      const [device] = await devicesByKeys(trx, [{ partnerId, id: deviceId }]);
      if (!device) throw notFound('device', deviceId);
      if (device.model_id !== cart.device_model_id)
        throw invalidArgument('input.deviceId', "is not of the cart's device model");
      if (device.customer_id !== null && device.customer_id !== cart.customer_id) {
        throw invalidArgument('input.deviceId', "is held by another customer than the cart's");
      }
      const [current] = await financeOrdersOfDevices(trx, [{ partnerId, id: deviceId }]);
      // A written-off device is never sold again; a returned one is back in stock (decisions.md 44).
      if (current?.closed_reason === 'WRITE_OFF')
        throw invalidArgument('input.deviceId', `was written off under finance order ${current.id}`);
      if (current && current.closed_reason === null && !standingOf(current, now).fullyPaid) {
        throw invalidArgument('input.deviceId', `is still being repaid under finance order ${current.id}`);
      }
      if (device.customer_id === null) await assignDeviceToCustomer(trx, { partnerId, id: deviceId }, cart.customer_id);
      const order = await insertFinanceOrder(trx, {
        partner_id: partnerId,
        customer_id: cart.customer_id,
        device_id: deviceId,
        merchant_id: cart.merchant_id,
        clerk_id: cart.clerk_id,
        cart_id: cart.id,
        currency: cart.currency,
        purchase_minor: cart.purchase_minor,
        down_payment_minor: cart.down_payment_minor,
        price_pre_tax_minor: cart.price_pre_tax_minor,
        monthly_cost_minor: cart.monthly_cost_minor,
        weekly_cost_minor: cart.weekly_cost_minor,
        months: cart.months,
        ordered_at: now,
        release_at: null,
        closed_at: null,
        closed_reason: null,
        closed_note: null,
        cleared_minor: '0',
      });
      // The partner's ledger: the financed sale, +financeAmount.
      const [transaction] = await insertTransactions(trx, [
        {
          partner_id: partnerId,
          type: 'finance',
          amount_minor: financeAmountOf(cart).minor.toString(),
          currency: cart.currency,
          occurred_at: now,
          merchant_id: cart.merchant_id,
          clerk_id: cart.clerk_id,
          finance_order_id: order.id,
          payment_id: null,
          adjustment_id: null,
        },
      ]);
      const created = await transactionCreatedEvents(trx, partnerId, { column: 'id', values: [transaction!.id] });
      await appendEvents(trx, partnerId, [financeOrderEvent('finance_order.created', order, now), ...created]);
      // Its lock timeline: the reminders and the lock of its first deadline.
      const settings = await partnerSettingsOf(trx, partnerId);
      await rescheduleOrder(trx, {
        partnerId,
        financeOrderId: order.id,
        before: { lockAt: null },
        after: { lockAt: lockAtOf(standingOf(order, now).paidThrough, settings), fullyPaid: false },
        now,
        settings,
      });
      return order;
    },
    (order) => ({
      action: 'cart.finance',
      subjectKind: 'finance_order',
      subjectId: order.id,
      partnerId,
      details: { cartTag, deviceId },
    }),
  );
}
