// Creating and cancelling a payment reference (decisions.md 17). The amount is checked like a
// payment's when the reference is made, so a vendor is never sent to collect what the order cannot take.
import type { Db, DbOrTrx } from '../../db/knex.js';
import {
  amountExceedsBalance,
  invalidArgument,
  invalidPaymentAmount,
  paymentReferenceAlreadyPaid,
  paymentReferenceNotFound,
} from '../../kernel/errors.js';
import { formatMoney, isMoreThan, minMoney, money, parsePaymentAmount } from '../../kernel/money.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { cheapestAmountFor, daysBoughtBy } from '../financeOrders/repayment.js';
import type { FinanceOrderRow } from '../financeOrders/rows.js';
import { assertOpen, remainingBalanceOf } from '../financeOrders/terms.js';
import { newCode, normaliseCode } from './code.js';
import {
  cancelOpenPaymentReference,
  insertPaymentReference,
  type NewPaymentReference,
  paymentReferenceByCode,
} from './queries.js';
import type { PaymentReferenceRow } from './rows.js';

const DEFAULT_EXPIRY_HOURS = 72;
const MAX_EXPIRY_HOURS = 720;
/** An order has at most 120 months of 30 days. */
const MAX_DAYS_PAID = 3600;
/** Codes drawn before giving up: with 2^40 codes, a second collision in a row means something else is wrong. */
const CODE_DRAWS = 5;

const HOUR_MS = 3_600_000;

interface PaymentReferenceAsked {
  amount?: string | null;
  daysPaid?: number | null;
  expiresInHours?: number | null;
}

/** The amount (minor units) a reference asks for: the amount given, or the cheapest that buys daysPaid, capped at the balance. */
function amountAsked(order: FinanceOrderRow, asked: PaymentReferenceAsked): bigint {
  const hasAmount = asked.amount != null;
  const hasDays = asked.daysPaid != null;
  if (hasAmount === hasDays) throw invalidArgument('input', 'must give exactly one of amount and daysPaid');
  const balance = remainingBalanceOf(order);
  if (hasDays) {
    const days = asked.daysPaid!;
    if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS_PAID)
      throw invalidArgument('daysPaid', `must be 1 to ${MAX_DAYS_PAID}`);
    if (balance.minor <= 0n) throw invalidPaymentAmount('the finance order is fully paid: nothing remains to pay');
    return minMoney(money(cheapestAmountFor(order, days), order.currency), balance).minor;
  }
  const parsed = parsePaymentAmount(asked.amount!, order.currency);
  if ('problem' in parsed) throw invalidPaymentAmount(parsed.problem);
  const amount = money(parsed.minor, order.currency);
  if (isMoreThan(amount, balance))
    throw amountExceedsBalance(formatMoney(amount), formatMoney(balance), order.currency);
  return amount.minor;
}

function expiryHours(asked: PaymentReferenceAsked): number {
  const hours = asked.expiresInHours ?? DEFAULT_EXPIRY_HOURS;
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_EXPIRY_HOURS)
    throw invalidArgument('expiresInHours', `must be 1 to ${MAX_EXPIRY_HOURS}`);
  return hours;
}

/** Writes the reference, drawing another code while the one drawn is taken. */
async function insertWithNewCode(db: DbOrTrx, row: Omit<NewPaymentReference, 'code'>): Promise<PaymentReferenceRow> {
  for (let draw = 1; draw <= CODE_DRAWS; draw++) {
    const written = await insertPaymentReference(db, { ...row, code: newCode() });
    if (written) return written;
  }
  throw new Error(`${CODE_DRAWS} payment reference codes drawn in a row were all taken`);
}

/**
 * Makes a reference on `order` (found within the caller's reach) at `now`, the partner's time: its
 * code's directory entry and its row in one transaction (more on a code collision). An operator's
 * (actor given) is audited in that transaction.
 */
export function createPaymentReference(
  db: Db,
  order: FinanceOrderRow,
  asked: PaymentReferenceAsked,
  now: Date,
  operator: AuditActor | null,
): Promise<PaymentReferenceRow> {
  // A closed order takes no payment, so no code is made to collect one (decisions.md 44).
  assertOpen(order);
  const amountMinor = amountAsked(order, asked);
  const hours = expiryHours(asked);
  const row = {
    partner_id: order.partner_id,
    finance_order_id: order.id,
    amount_minor: amountMinor.toString(),
    currency: order.currency,
    days_paid: daysBoughtBy(order, amountMinor),
    expires_at: new Date(now.getTime() + hours * HOUR_MS),
    created_at: now,
  };
  if (!operator) return db.transaction((trx) => insertWithNewCode(trx, row));
  return audited(
    db,
    operator,
    (trx) => insertWithNewCode(trx, row),
    (reference) => ({
      action: 'payment_reference.create',
      subjectKind: 'payment_reference',
      subjectId: reference.id,
      partnerId: reference.partner_id,
      details: {
        code: reference.code,
        financeOrderId: reference.finance_order_id,
        amountMinor: reference.amount_minor,
      },
    }),
  );
}

/**
 * Cancels an open (or expired) reference of the partner (any partner's for null). Cancelling a
 * cancelled one answers it again; a paid one is PAYMENT_REFERENCE_ALREADY_PAID; an unknown one, or
 * another partner's, PAYMENT_REFERENCE_NOT_FOUND.
 */
export async function cancelPaymentReference(
  db: Db,
  code: string,
  partnerId: string | null,
  now: Date,
  operator: AuditActor | null,
): Promise<PaymentReferenceRow> {
  const normalised = normaliseCode(code);
  if (normalised === null) throw paymentReferenceNotFound(code);
  const cancel = async (trx: DbOrTrx) => {
    const cancelled = await cancelOpenPaymentReference(trx, normalised, partnerId, now);
    if (cancelled) return { reference: cancelled, changed: true };
    const current = await paymentReferenceByCode(trx, normalised, partnerId);
    if (!current) throw paymentReferenceNotFound(code);
    if (current.status === 'PAID') throw paymentReferenceAlreadyPaid(current.code);
    return { reference: current, changed: false };
  };
  if (!operator) return (await cancel(db)).reference;
  const { reference } = await audited(db, operator, cancel, (outcome) => ({
    action: 'payment_reference.cancel',
    subjectKind: 'payment_reference',
    subjectId: outcome.reference.id,
    partnerId: outcome.reference.partner_id,
    // An answer again for a reference cancelled before changes nothing, and says so.
    details: { code: outcome.reference.code, changed: outcome.changed },
  }));
  return reference;
}
