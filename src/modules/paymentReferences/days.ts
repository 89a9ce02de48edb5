// STAND-IN for the repayment part's cheapestAmountFor and daysBoughtBy (the days rule's inverse, in
// financeOrders/terms.ts there): the coordinator keeps that version and points create.ts at it.
// decisions.md 5: with P paid and a monthly cost M (minor units), the days bought are
// floor(P * 30 / M); a amount a buys floor((P + a) * 30 / M) - floor(P * 30 / M) days.
import { daysCovered } from '../../money.js';
import { DAYS_PER_MONTH, type OrderTerms } from '../financeOrders/terms.js';

type DayTerms = Pick<OrderTerms, 'monthly_cost_minor' | 'total_paid_minor'>;

/** How many days `amountMinor` buys on the order as it stands. */
export function daysBoughtBy(order: DayTerms, amountMinor: bigint): number {
  const monthly = BigInt(order.monthly_cost_minor);
  const paid = BigInt(order.total_paid_minor);
  return Number(daysCovered(paid + amountMinor, monthly, DAYS_PER_MONTH) - daysCovered(paid, monthly, DAYS_PER_MONTH));
}

/**
 * The cheapest amount (minor units) that buys at least `days` days, not capped: the least a with
 * (P + a) * 30 >= (floor(P * 30 / M) + days) * M, that is ceil((floor(P * 30 / M) + days) * M / 30) - P.
 */
export function cheapestAmountFor(order: DayTerms, days: number): bigint {
  const monthly = BigInt(order.monthly_cost_minor);
  const paid = BigInt(order.total_paid_minor);
  const target = (daysCovered(paid, monthly, DAYS_PER_MONTH) + BigInt(days)) * monthly;
  const perMonth = BigInt(DAYS_PER_MONTH);
  return (target + perMonth - 1n) / perMonth - paid;
}
