// A finance order as lookup-customer's `financeOrder` object (interface.md 2.5): one mapper for the
// REST shim (from the graph's FinanceOrder) and the finance_order.* events (from the order's row).
import { decimalToJsonNumber, formatAmount } from '../../money.js';
import type { FinanceOrderRow } from './rows.js';
import { financeTermsFields, standingOf } from './terms.js';

const number = (decimal: string): number => decimalToJsonNumber(decimal);

/** What the mapper reads: the LookupCustomer operation's financeOrder (decimals as text). */
export interface LegacyFinanceOrderSource {
  id: string;
  currency: string;
  downPayment: string;
  financeAmount: string;
  monthlyCost: string;
  months: number;
  pricePreTax: string;
  purchaseAmount: string;
  remainingBalance: string;
  /** Unix seconds. */
  time: number;
  weeklyCost: string;
}

export function legacyFinanceOrder(order: LegacyFinanceOrderSource) {
  return {
    currency: order.currency,
    downPayment: number(order.downPayment),
    financeAmount: number(order.financeAmount),
    id: Number(order.id),
    monthlyCost: number(order.monthlyCost),
    months: order.months,
    pricePreTax: number(order.pricePreTax),
    purchaseAmount: number(order.purchaseAmount),
    remainingBalance: number(order.remainingBalance),
    time: order.time,
    weeklyCost: number(order.weeklyCost),
  };
}

/** An order's row as the mapper's source, its balance as it stands at `now`. */
export function legacyFinanceOrderSourceOf(order: FinanceOrderRow, now: Date): LegacyFinanceOrderSource {
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
