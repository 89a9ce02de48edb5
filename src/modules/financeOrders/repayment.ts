// What a payment buys on a finance order, in days of use (decisions.md 16): the days an amount buys
// under the order's day rule (terms.ts standingOf), the cheapest amount buying a number of days, and
// the repayment a customer is offered (one option per entry of the partner's repaymentDays, the full
// payoff, the minimum). Pure: the order's terms and its total paid in, exact minor units out.
import { addMoney, amountForDays, daysAddedBy, minMinor, money } from '../../kernel/money.js';
import type { PartnerSettings } from '../partners/settings.js';
import { DAYS_PER_MONTH, lockAtOf, type OrderTerms, remainingBalanceOf, standingOf } from './terms.js';

/** What the day rule reads of an order: its monthly cost and its total paid. */
type DayTerms = Pick<OrderTerms, 'monthly_cost_minor' | 'total_paid_minor'>;

interface RepaymentOptionValue {
  /** What the amount buys by the day rule (never the entry of repaymentDays it was priced for). */
  daysPaid: number;
  amountMinor: bigint;
  /** The order's lockAt once the amount is paid. */
  lockAt: Date;
}

interface RepaymentValue {
  currency: string;
  minimumPaymentMinor: bigint;
  fullPayoffMinor: bigint;
  flexibleAmountEnabled: boolean;
  /** Sorted by amount, one per distinct amount; none once fully paid. */
  options: RepaymentOptionValue[];
}

/** The whole days `amountMinor` buys on top of what the order has paid: floor((P+a)30/M) - floor(P30/M). */
export function daysBoughtBy(order: DayTerms, amountMinor: bigint): number {
  const days = daysAddedBy(
    BigInt(order.total_paid_minor),
    amountMinor,
    BigInt(order.monthly_cost_minor),
    DAYS_PER_MONTH,
  );
  return Number(days);
}

/** The least amount buying at least `days` days on the order, uncapped (the caller caps it at the balance). */
export function cheapestAmountFor(order: DayTerms, days: number): bigint {
  return amountForDays(BigInt(order.total_paid_minor), BigInt(order.monthly_cost_minor), DAYS_PER_MONTH, BigInt(days));
}

/** The amounts of the options: each entry's cheapest amount capped at the balance, distinct, ascending. */
function optionAmounts(order: OrderTerms, remainingMinor: bigint, repaymentDays: readonly number[]): bigint[] {
  const amounts = new Set<bigint>();
  for (const days of repaymentDays) {
    // An entry of no days prices nothing: it would offer no amount at all.
    if (days > 0) amounts.add(minMinor(cheapestAmountFor(order, days), remainingMinor));
  }
  return [...amounts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The order's lockAt once `amountMinor` is paid: the paid-through of the new total, plus the grace. */
function lockAtAfter(order: OrderTerms, amountMinor: bigint, now: Date, settings: PartnerSettings): Date {
  const totalPaid = addMoney(money(order.total_paid_minor, order.currency), money(amountMinor, order.currency));
  return lockAtOf(standingOf({ ...order, total_paid_minor: totalPaid.minor.toString() }, now).paidThrough, settings);
}

/** What the customer can pay now and what each option buys (decisions.md 16). */
export function repaymentOf(order: OrderTerms, now: Date, settings: PartnerSettings): RepaymentValue {
  const remainingMinor = remainingBalanceOf(order).minor;
  const flexibleAmountEnabled = settings.flexibleAmountEnabled;
  if (remainingMinor <= 0n) {
    return {
      currency: order.currency,
      minimumPaymentMinor: 0n,
      fullPayoffMinor: 0n,
      flexibleAmountEnabled,
      options: [],
    };
  }
  const options = optionAmounts(order, remainingMinor, settings.repaymentDays).map((amountMinor) => ({
    daysPaid: daysBoughtBy(order, amountMinor),
    amountMinor,
    lockAt: lockAtAfter(order, amountMinor, now, settings),
  }));
  // With flexible amounts, the least that moves the lock (one day); without, the least accepted.
  const minimumPaymentMinor = flexibleAmountEnabled
    ? minMinor(cheapestAmountFor(order, 1), remainingMinor)
    : (options[0]?.amountMinor ?? remainingMinor);
  return {
    currency: order.currency,
    minimumPaymentMinor,
    fullPayoffMinor: remainingMinor,
    flexibleAmountEnabled,
    options,
  };
}

/** The amounts a partner without flexible amounts takes: the options' amounts, then the full payoff (once). */
export function acceptedAmountsOf(order: OrderTerms, repaymentDays: readonly number[]): bigint[] {
  const remainingMinor = remainingBalanceOf(order).minor;
  if (remainingMinor <= 0n) return [];
  const amounts = optionAmounts(order, remainingMinor, repaymentDays);
  return amounts.includes(remainingMinor) ? amounts : [...amounts, remainingMinor];
}

/**
 * Whether a payment of `amountMinor` may be taken under the partner's settings: any amount with
 * flexible amounts; without, only an option's amount or the full payoff. payments/queries.ts
 * inStoreFactsSql says the same in SQL (it draws no payment id for an amount this refuses).
 */
export function isAmountAnOption(
  order: OrderTerms,
  amountMinor: bigint,
  settings: Pick<PartnerSettings, 'repaymentDays' | 'flexibleAmountEnabled'>,
): boolean {
  return settings.flexibleAmountEnabled || acceptedAmountsOf(order, settings.repaymentDays).includes(amountMinor);
}

/** A Repayment as the graph resolves it: the figures, and the order daysBoughtBy prices against. */
export interface RepaymentParent extends RepaymentValue {
  order: OrderTerms;
}

/** A RepaymentOption as the graph resolves it: with the order's currency. */
export interface RepaymentOptionParent extends RepaymentOptionValue {
  currency: string;
}
