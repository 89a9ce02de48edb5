// A finance order as lookup-customer's `financeOrder` object (docs/legacy-contract.md#lookup-customer): one
// mapper for the REST door (from the graph's FinanceOrder) and the finance_order.* events (from the
// order's figures).
import { integer, number } from './json.js';

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
    id: integer(order.id),
    monthlyCost: number(order.monthlyCost),
    months: order.months,
    pricePreTax: number(order.pricePreTax),
    purchaseAmount: number(order.purchaseAmount),
    remainingBalance: number(order.remainingBalance),
    time: order.time,
    weeklyCost: number(order.weeklyCost),
  };
}
