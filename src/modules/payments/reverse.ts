// A payment reversed inside its window (decisions.md 44), the one rule both doors use: the graph's
// reversePayment (operators, partner keys) and reverseVendorPayment (a vendor by its reference, which
// the REST door POST /payments/v1/reversal calls). In one transaction, the order's row locked first as
// a payment locks it, every refusal before anything is written: unknown (404), a replay or conflict of
// the caller's Idempotency-Key, the order closed, the payment already reversed, the window closed, a
// partner key on a vendor's payment. Then the reversal's one write (its row, the order's running
// total, the opposites of the payment's transactions), its events, and the order's new deadline on
// its lock timeline. The payment and what it wrote are never changed: the ledger only grows.
import { createHash } from 'node:crypto';
import type { Db, DbOrTrx } from '../../db/knex.js';
import {
  financeOrderClosed,
  forbidden,
  idempotencyConflict,
  invalidArgument,
  notFound,
  paymentAlreadyReversed,
  reversalWindowClosed,
} from '../../kernel/errors.js';
import { lockFinanceOrder } from '../financeOrders/queries.js';
import type { FinanceOrderForPayment } from '../financeOrders/rows.js';
import { orderStatusOf, standingOf } from '../financeOrders/terms.js';
import { violatesUnique } from '../inputs.js';
import type { PartnerClocks } from '../partners/clock.js';
import { settingsOfColumns } from '../partners/settings.js';
import { appendEventsWithTimeline, type TimelineChange } from '../timeline/schedule.js';
import { paymentReversedEvent, reversalTransactionEvents } from './events.js';
import { type PaymentNamed, paymentNamed, reversalOfKey, reversalOfPayment, writeReversal } from './reversalQueries.js';
import type { PaymentReversalParent, PaymentReversalRow, PaymentReversalSnapshot, PaymentRow } from './rows.js';

/** Who asks for the reversal: what it may reverse, and the scope its Idempotency-Key is kept under. */
export type Reverser =
  | { kind: 'operator'; operatorId: string; keyId: string }
  | { kind: 'partner'; partnerId: string; keyId: string }
  | { kind: 'vendor'; vendorId: string; keyId: string };

export interface ReversalRequest {
  reverser: Reverser;
  payment: PaymentNamed;
  /** 1 to 500 characters, kept with the reversal. */
  reason: string;
  /** Checked by the caller (idempotency.ts requireIdempotencyKey); null: none. */
  idempotencyKey: string | null;
}

const MAX_REASON_LENGTH = 500;

/** The reason is 1 to 500 characters (INVALID_ARGUMENT naming input.reason). */
export function checkReason(reason: string): string {
  if (reason.length < 1 || reason.length > MAX_REASON_LENGTH)
    throw invalidArgument('input.reason', `must be 1 to ${MAX_REASON_LENGTH} characters`);
  return reason;
}

/** The scope a caller's Idempotency-Key is kept under: the vendor, the partner of a partner key, the operator. */
export function idempotencyScopeOf(reverser: Reverser): string {
  if (reverser.kind === 'vendor') return `vendor:${reverser.vendorId}`;
  if (reverser.kind === 'partner') return `partner:${reverser.partnerId}`;
  return `operator:${reverser.operatorId}`;
}

/** What a repeat under the same key must match: the payment and the reason. */
export function reversalRequestHash(payment: Pick<PaymentRow, 'partner_id' | 'id'>, reason: string): string {
  const canonical = JSON.stringify({ payment: `${payment.partner_id}:${payment.id}`, reason });
  return `v1:${createHash('sha256').update(canonical).digest('hex')}`;
}

const toUnixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The graph's answer from a reversal's row (its stored first answer, and its own id). */
export function reversalParentOf(row: PaymentReversalRow, replayed: boolean): PaymentReversalParent {
  if (!row.response_body) throw new Error(`reversal ${row.id} holds no answer`);
  return { ...row.response_body, reversalId: row.id, replayed };
}

/** The refusals, in decisions.md 44's order, once the payment is found and its order locked. */
async function refuse(
  trx: DbOrTrx,
  reverser: Reverser,
  payment: PaymentRow,
  order: FinanceOrderForPayment,
  now: Date,
): Promise<void> {
  if (order.closed_at !== null && order.closed_reason !== null)
    throw financeOrderClosed(order.id, order.closed_reason, 'its payments cannot be reversed');
  const reversed = await reversalOfPayment(trx, payment.partner_id, payment.id);
  if (reversed) throw paymentAlreadyReversed(payment.id, reversed.id);
  if (now.getTime() >= payment.reversible_until.getTime())
    throw reversalWindowClosed(payment.id, payment.reversible_until);
  // A vendor's payment is its vendor's or an operator's to reverse.
  if (reverser.kind === 'partner' && payment.channel === 'vendor')
    throw forbidden(`payment ${payment.id} was made through a payment vendor: its vendor or an operator reverses it`);
}

/**
 * How the reversal moves the order: its total, what it owes, and its lockAt as they would be had the
 * payment never been made (section 5's day rule on the total that remains), at the partner's `now`.
 */
export function reversalFiguresOf(order: FinanceOrderForPayment, payment: PaymentRow, reason: string, now: Date) {
  const settings = settingsOfColumns(order);
  const totalPaidMinor = (BigInt(order.total_paid_minor) - BigInt(payment.amount_minor)).toString();
  const before = standingOf(order, now, settings);
  // A payoff's pending release goes with it (the write clears release_at once the order is not paid off).
  const orderAfter = { ...order, total_paid_minor: totalPaidMinor, release_at: null };
  const after = standingOf(orderAfter, now, settings);
  const snapshot: PaymentReversalSnapshot = {
    partnerId: payment.partner_id,
    paymentId: payment.id,
    amountMinor: payment.amount_minor,
    currency: payment.currency,
    reason,
    time: toUnixSeconds(now),
    remainingMinor: after.remainingMinor.toString(),
    lockAt: after.lockAt === null ? null : toUnixSeconds(after.lockAt),
    fullyPaid: after.fullyPaid,
  };
  const change: TimelineChange = {
    partnerId: order.partner_id,
    financeOrderId: order.id,
    before: { lockAt: before.fullyPaid ? null : before.lockAt },
    after: { lockAt: after.fullyPaid ? null : after.lockAt, fullyPaid: after.fullyPaid },
    now,
    settings,
  };
  const status = orderStatusOf(orderAfter, now, settings);
  return { snapshot, change, status: status === 'PAID_OFF' || status === 'LOCKED' ? status : 'ACTIVE' } as const;
}

/** The reversal inside its transaction: a replay's first answer, or the reversal made now. */
async function reverseIn(
  trx: DbOrTrx,
  request: ReversalRequest,
  clocks: PartnerClocks,
  seen: { payment?: PaymentRow },
): Promise<PaymentReversalParent> {
  const { reverser, reason } = request;
  const payment = await paymentNamed(trx, request.payment);
  if (!payment) {
    throw request.payment.by === 'id'
      ? notFound('payment', request.payment.id)
      : notFound('payment', request.payment.reference, 'reference');
  }
  seen.payment = payment;
  const requestHash = reversalRequestHash(payment, reason);
  const key =
    request.idempotencyKey === null
      ? null
      : {
          partnerId: payment.partner_id,
          scope: idempotencyScopeOf(reverser),
          key: request.idempotencyKey,
          requestHash,
        };
  if (key) {
    const first = await reversalOfKey(trx, key);
    if (first) {
      if (first.request_hash !== requestHash) throw idempotencyConflict('this Idempotency-Key', 'a new reversal');
      return reversalParentOf(first, true);
    }
  }
  const order = await lockFinanceOrder(trx, { partnerId: payment.partner_id, id: payment.finance_order_id });
  if (!order) throw new Error(`payment ${payment.id} names finance order ${payment.finance_order_id}, not found`);
  const now = clocks.nowFor(payment.partner_id);
  await refuse(trx, reverser, payment, order, now);
  const { snapshot, change, status } = reversalFiguresOf(order, payment, reason, now);
  const written = await writeReversal(trx, {
    payment,
    reason,
    reversedBy: reverser.kind,
    vendorId: reverser.kind === 'vendor' ? reverser.vendorId : null,
    apiKeyId: reverser.keyId,
    reversedAt: now,
    key,
    snapshot,
  });
  const reversed = paymentReversedEvent(written.reversal, payment, snapshot, {
    status,
    deviceTag: order.device_tag,
    deviceImei: order.device_imei,
  });
  const transactions = reversalTransactionEvents(payment, now, written.transactions);
  // The new deadline on the lock timeline: pending instants closed, the new lockAt's made (a lockAt
  // already past: the lock is due at once, or stays fired). A reversal never unlocks or releases.
  await appendEventsWithTimeline(trx, change, [reversed, ...transactions], new Set());
  return { ...snapshot, reversalId: written.reversal.id, replayed: false, payment };
}

/** Reverses a payment (decisions.md 44); the partner's time is its clock's (`clocks`, a sandbox clock outside production). */
export async function reversePayment(
  db: Db,
  request: ReversalRequest,
  clocks: PartnerClocks,
): Promise<PaymentReversalParent> {
  checkReason(request.reason);
  const seen: { payment?: PaymentRow } = {};
  try {
    return await db.transaction((trx) => reverseIn(trx, request, clocks, seen));
  } catch (error) {
    // The last guard, past the order's lock: a second reversal of the payment is refused by the
    // unique key, and answered as the refusal it is, never as a failure.
    if (violatesUnique(error, 'payment_reversals_one_per_payment') && seen.payment) {
      const first = await reversalOfPayment(db, seen.payment.partner_id, seen.payment.id);
      if (first) throw paymentAlreadyReversed(seen.payment.id, first.id);
    }
    throw error;
  }
}
