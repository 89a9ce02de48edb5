// Closing an order (decisions.md 44): an operator writes it off, or closes it on its device's return.
// In one transaction, the order's row locked first (as a payment locks it, so a payment and a close
// take turns and the second sees the first): the refusals, then the order closed with what it cleared,
// the clearing adjustment and its transaction, the lock timeline stopped, a returned device back in
// stock with its credential ended, the events, and the audit record. Every refusal comes before a write.
import type { Db, DbOrTrx } from '../../db/knex.js';
import { financeOrderClosed, financeOrderPaidOff, notFound } from '../../kernel/errors.js';
import { formatMoney, money } from '../../kernel/money.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { revokeCredential } from '../deviceDoor/revocation.js';
import { appendEvents } from '../events/queries.js';
import type { NewEvent } from '../events/rows.js';
import { COLUMNS, lockFinanceOrder } from '../financeOrders/queries.js';
import type { FinanceOrderCloseReason, FinanceOrderForPayment, FinanceOrderRow } from '../financeOrders/rows.js';
import { remainingBalanceOf } from '../financeOrders/terms.js';
import { writeAdjustment } from '../transactions/adjust.js';
import type { AdjustmentRow } from '../transactions/rows.js';

export interface CloseRequest {
  partnerId: string;
  financeOrderId: string;
  reason: FinanceOrderCloseReason;
  /** 1 to 500 characters, checked by the caller. */
  note: string;
  operatorId: string;
}

interface Closed {
  order: FinanceOrderRow;
  adjustment: AdjustmentRow;
  /** A returned device's live credential was ended (null: written off, the device untouched). */
  credentialEnded: boolean | null;
}

/** The adjustment's note: it names the order, as PayJoy's data does for reversed finances. */
const clearingNote = (request: CloseRequest): string =>
  request.reason === 'WRITE_OFF'
    ? `write-off of financeOrder ${request.financeOrderId}: ${request.note}`
    : `device returned for financeOrder ${request.financeOrderId}: ${request.note}`;

/** The order closed at `now` with the balance it cleared (one statement). */
async function markClosed(trx: DbOrTrx, request: CloseRequest, clearedMinor: bigint, now: Date) {
  const [row] = await trx<FinanceOrderRow>('finance_orders')
    .where({ partner_id: request.partnerId, id: request.financeOrderId })
    .update({
      closed_at: now,
      closed_reason: request.reason,
      closed_note: request.note,
      cleared_minor: clearedMinor.toString(),
    })
    .returning([...COLUMNS]);
  return row as FinanceOrderRow;
}

/** Its pending instants cancelled: no reminder, lock or release after the close. A fired lock stays fired. */
async function stopTimeline(trx: DbOrTrx, order: Pick<FinanceOrderRow, 'partner_id' | 'id'>): Promise<void> {
  await trx('lock_timeline')
    .where({ partner_id: order.partner_id, finance_order_id: order.id, state: 'pending' })
    .update({ state: 'cancelled' });
}

/** The device back in the partner's stock: no longer the customer's, its live credential ended (an agent answered 401 enrols again). */
async function returnDevice(trx: DbOrTrx, order: FinanceOrderForPayment, now: Date): Promise<boolean> {
  await trx('devices').where({ partner_id: order.partner_id, id: order.device_id }).update({ customer_id: null });
  return revokeCredential(trx, { partnerId: order.partner_id, deviceId: order.device_id }, now);
}

/** finance_order.written_off or finance_order.returned, in the graph's dialect (openapiWebhooks.ts FinanceOrderClosedData). */
function closedEvent(order: FinanceOrderRow, device: { tag: string; imei: string | null }, adjustment: AdjustmentRow) {
  return {
    type: order.closed_reason === 'WRITE_OFF' ? 'finance_order.written_off' : 'finance_order.returned',
    occurredAt: order.closed_at!,
    data: {
      financeOrder: {
        id: order.id,
        status: order.closed_reason === 'WRITE_OFF' ? 'WRITTEN_OFF' : 'RETURNED',
        closedAt: Math.floor(order.closed_at!.getTime() / 1000),
        closedReason: order.closed_reason,
        note: order.closed_note,
        clearedAmount: formatMoney(money(order.cleared_minor, order.currency)),
        currency: order.currency,
      },
      adjustment: { id: adjustment.id },
      device,
    },
  } satisfies NewEvent;
}

/** Closes the order at `now` (the partner's time) as `actor`, audited; answers the order as closed. */
export async function closeFinanceOrder(
  db: Db,
  actor: AuditActor,
  request: CloseRequest,
  now: Date,
): Promise<FinanceOrderRow> {
  const { partnerId, financeOrderId } = request;
  const { order } = await audited<Closed>(
    db,
    actor,
    async (trx) => {
      const locked = await lockFinanceOrder(trx, { partnerId, id: financeOrderId });
      if (!locked) throw notFound('finance order', financeOrderId);
      if (locked.closed_reason !== null)
        throw financeOrderClosed(locked.id, locked.closed_reason, 'it cannot be closed again');
      // Paid off, completing included (release_at set): nothing remains to clear.
      const balance = remainingBalanceOf(locked);
      if (balance.minor <= 0n) throw financeOrderPaidOff(locked.id);
      const order = await markClosed(trx, request, balance.minor, now);
      // The balance cleared in the ledger: minus it, the sign a payment's cash has, on the order's store.
      const { adjustment, events: created } = await writeAdjustment(trx, {
        partner_id: partnerId,
        kind: 'payment',
        amount_minor: (-balance.minor).toString(),
        currency: order.currency,
        notes: clearingNote(request),
        merchant_id: order.merchant_id,
        finance_order_id: order.id,
        operator_id: request.operatorId,
        created_at: now,
      });
      await stopTimeline(trx, order);
      const credentialEnded = request.reason === 'DEVICE_RETURNED' ? await returnDevice(trx, locked, now) : null;
      const device = { tag: locked.device_tag, imei: locked.device_imei ?? null };
      await appendEvents(trx, partnerId, [closedEvent(order, device, adjustment), ...created]);
      return { order, adjustment, credentialEnded };
    },
    ({ order, adjustment, credentialEnded }) => ({
      action: 'finance_order.close',
      subjectKind: 'finance_order',
      subjectId: order.id,
      partnerId,
      details: {
        reason: order.closed_reason,
        note: order.closed_note,
        cleared: formatMoney(money(order.cleared_minor, order.currency)),
        currency: order.currency,
        adjustmentId: adjustment.id,
        ...(credentialEnded === null ? {} : { credentialEnded }),
      },
    }),
  );
  return order;
}
