// A finance order in the legacy contract's terms (src/contract/): its figures as the domain computes
// them, for the finance_order.* events and a finance transaction's transaction.created.
import type { LegacyFinanceOrderSource } from '../../contract/financeOrder.js';
import { legacyFinanceOrder } from '../../contract/financeOrder.js';
import type { LegacyOrderFigures } from '../../contract/transaction.js';
import { formatAmount } from '../../kernel/money.js';
import type { NewEvent } from '../events/rows.js';
import type { FinanceOrderRow } from './rows.js';
import { financeTermsFields, standingOf } from './terms.js';

/** The order's figures as a finance transaction shows them. */
export function legacyOrderFiguresOf(order: FinanceOrderRow): LegacyOrderFigures {
  const terms = financeTermsFields;
  return {
    id: order.id,
    purchaseAmount: terms.purchaseAmount(order),
    financeAmount: terms.financeAmount(order),
    downPayment: terms.downPayment(order),
    pricePreTax: terms.pricePreTax(order),
    monthlyCost: terms.monthlyCost(order),
    weeklyCost: terms.weeklyCost(order),
    months: order.months,
  };
}

/** An order's row as lookup-customer's financeOrder reads it, its balance as it stands at `now`. */
function legacyFinanceOrderSourceOf(order: FinanceOrderRow, now: Date): LegacyFinanceOrderSource {
  const terms = financeTermsFields;
  return {
    id: order.id,
    currency: order.currency,
    downPayment: terms.downPayment(order),
    financeAmount: terms.financeAmount(order),
    monthlyCost: terms.monthlyCost(order),
    months: order.months,
    pricePreTax: terms.pricePreTax(order),
    purchaseAmount: terms.purchaseAmount(order),
    remainingBalance: formatAmount(standingOf(order, now).remainingMinor, order.currency),
    time: Math.floor(order.ordered_at.getTime() / 1000),
    weeklyCost: terms.weeklyCost(order),
  };
}

/** finance_order.created or finance_order.paid_off: the order as lookup-customer answers it at `now`. */
export function financeOrderEvent(
  type: 'finance_order.created' | 'finance_order.paid_off',
  order: FinanceOrderRow,
  now: Date,
): NewEvent {
  return { type, occurredAt: now, data: legacyFinanceOrder(legacyFinanceOrderSourceOf(order, now)) };
}
