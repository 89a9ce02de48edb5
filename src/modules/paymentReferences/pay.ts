// Paying a reference from a vendor's notification (decisions.md 17), inside the notification's
// transaction: the reference is locked and checked before the payment is recorded, and marked paid by
// one guarded write after it. Any refusal throws, so the transaction, payment and all, rolls back.
import type { DbOrTrx } from '../../db/knex.js';
import {
  amountMismatch,
  invalidPaymentAmount,
  paymentReferenceAlreadyPaid,
  paymentReferenceExpired,
  paymentReferenceNotFound,
} from '../../kernel/errors.js';
import { parsePaymentAmount } from '../../kernel/money.js';
import type { PartnerClocks } from '../partners/clock.js';
import { normaliseCode } from './code.js';
import { lockPaymentReference, markPaymentReferencePaid, paymentReferenceByCode } from './queries.js';
import { type PaymentReferenceRow, referenceStatusOf } from './rows.js';

/** Why a reference cannot take a payment at `now`, as the error to throw; null when it can. */
function refusalOf(reference: PaymentReferenceRow | undefined, given: string, now: Date): Error | null {
  if (!reference || reference.status === 'CANCELLED') return paymentReferenceNotFound(given);
  if (reference.status === 'PAID') return paymentReferenceAlreadyPaid(reference.code);
  if (referenceStatusOf(reference, now) === 'EXPIRED')
    return paymentReferenceExpired(reference.code, reference.expires_at);
  return null;
}

/**
 * The reference a notification quotes, locked for its transaction (concurrent notifications quoting
 * it take turns) and checked: it exists and is open at its partner's time (`clocks`), and the payment is
 * its amount in its currency, by value.
 */
export async function claimPaymentReference(
  trx: DbOrTrx,
  given: string,
  payment: { amount: string; currency: string },
  clocks: PartnerClocks,
): Promise<PaymentReferenceRow> {
  const code = normaliseCode(given);
  if (code === null) throw paymentReferenceNotFound(given);
  const reference = await lockPaymentReference(trx, code);
  // Its partner's time: known once the reference is read (an unknown one is refused whatever the time).
  const now = reference ? clocks.nowFor(reference.partner_id) : new Date();
  const refusal = refusalOf(reference, given, now);
  if (refusal) throw refusal;
  if (payment.currency !== reference!.currency) throw amountMismatch(code);
  const parsed = parsePaymentAmount(payment.amount, reference!.currency);
  if ('problem' in parsed) throw invalidPaymentAmount(parsed.problem);
  if (parsed.minor.toString() !== reference!.amount_minor) throw amountMismatch(code);
  return reference!;
}

/**
 * Marks the claimed reference paid by the payment just recorded. The write is guarded (open and not
 * expired at `now`), so the reference is paid once even if the lock above were ever lost; when it
 * writes nothing, the reference is read again and its refusal thrown, undoing the payment.
 */
export async function settlePaymentReference(
  trx: DbOrTrx,
  reference: PaymentReferenceRow,
  paymentId: string,
  now: Date,
): Promise<void> {
  if (await markPaymentReferencePaid(trx, reference, paymentId, now)) return;
  const current = await paymentReferenceByCode(trx, reference.code, reference.partner_id);
  throw refusalOf(current, reference.code, now) ?? paymentReferenceAlreadyPaid(reference.code);
}
