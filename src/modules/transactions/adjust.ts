// An operator's correction of a partner's ledger: in one transaction the adjustment, its signed
// `adjustment` transaction and the audit record. The store (and the order, when one is named) must be
// the partner's own, and the order's currency the adjustment's; every refusal comes before a write.
import type { Db, DbOrTrx } from '../../db/knex.js';
import { currencyMismatch, notFound } from '../../kernel/errors.js';
import type { Money } from '../../kernel/money.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { appendEvents } from '../events/queries.js';
import type { NewEvent } from '../events/rows.js';
import { financeOrdersByKeys } from '../financeOrders/queries.js';
import { merchantsByKeys } from '../merchants/queries.js';
import { transactionCreatedEvents } from './events.js';
import { insertAdjustment, insertTransactions } from './queries.js';
import type { AdjustmentRow } from './rows.js';

export interface AdjustmentRequest {
  partnerId: string;
  merchantId: string;
  financeOrderId: string | null;
  kind: AdjustmentRow['kind'];
  /** Signed, never zero. */
  amount: Money;
  /** The amount as the operator wrote it, kept in the trail. */
  amountAsGiven: string;
  notes: string;
  operatorId: string;
}

/**
 * An adjustment and its signed `adjustment` transaction at the adjustment's time, in the caller's
 * transaction; answers the transaction's transaction.created events for the caller to append (an
 * operator's correction alone, or a close beside its own event: orderClosing/close.ts).
 */
export async function writeAdjustment(
  trx: DbOrTrx,
  row: Omit<AdjustmentRow, 'id'>,
): Promise<{ adjustment: AdjustmentRow; events: NewEvent[] }> {
  const adjustment = await insertAdjustment(trx, row);
  const [transaction] = await insertTransactions(trx, [
    {
      partner_id: row.partner_id,
      type: 'adjustment',
      amount_minor: row.amount_minor,
      currency: row.currency,
      occurred_at: row.created_at,
      merchant_id: row.merchant_id,
      finance_order_id: row.finance_order_id,
      payment_id: null,
      clerk_id: null,
      adjustment_id: adjustment.id,
    },
  ]);
  const events = await transactionCreatedEvents(trx, row.partner_id, { column: 'id', values: [transaction!.id] });
  return { adjustment, events };
}

export async function createAdjustment(
  db: Db,
  actor: AuditActor,
  request: AdjustmentRequest,
  now: Date,
): Promise<AdjustmentRow> {
  const { partnerId, merchantId, financeOrderId, amount, notes } = request;
  return audited(
    db,
    actor,
    async (trx) => {
      if (!(await merchantsByKeys(trx, [{ partnerId, id: merchantId }]))[0]) throw notFound('merchant', merchantId);
      if (financeOrderId) {
        const [order] = await financeOrdersByKeys(trx, [{ partnerId, id: financeOrderId }]);
        if (!order) throw notFound('finance order', financeOrderId);
        if (order.currency !== amount.currency) throw currencyMismatch(amount.currency, order.currency);
      }
      const { adjustment, events } = await writeAdjustment(trx, {
        partner_id: partnerId,
        kind: request.kind,
        amount_minor: amount.minor.toString(),
        currency: amount.currency,
        notes,
        merchant_id: merchantId,
        finance_order_id: financeOrderId,
        operator_id: request.operatorId,
        created_at: now,
      });
      await appendEvents(trx, partnerId, events);
      return adjustment;
    },
    (adjustment) => ({
      action: 'adjustment.create',
      subjectKind: 'adjustment',
      subjectId: adjustment.id,
      partnerId,
      details: {
        kind: adjustment.kind,
        amount: request.amountAsGiven,
        currency: amount.currency,
        notes,
        merchantId,
        financeOrderId,
      },
    }),
  );
}
