// A payment's amount as the graph answers it: formatted once, as its row is read, so the executor
// reads Payment.amount as a column instead of calling a resolver per payment (decisions.md 47).
import type { ComputedField } from '../../db/joinedRows.js';
import { formatAmountOrError } from '../../kernel/money.js';
import type { PaymentParent, PaymentRow } from './rows.js';

/**
 * The amount of a row of amount_minor and currency, as a field a row reader makes (a listing's, for
 * the payment it joins, and for a listed transaction's own amount). An amount formatAmount refuses
 * (a currency it does not know) is kept as its error, which both executors answer as a resolver's
 * throw: that field fails, not its row.
 */
export const AMOUNT_FROM_MINOR: ComputedField = {
  name: 'amount',
  from: ['amount_minor', 'currency'],
  compute: formatAmountOrError,
};

/** A payment's row with its amount, as the graph answers a Payment from it. */
export function withAmount(row: PaymentRow): PaymentParent {
  return { ...row, amount: formatAmountOrError(row.amount_minor, row.currency) };
}
