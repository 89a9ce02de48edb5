// The rules of a finance order (decisions.md 5): balance, paid-through time, secure status, payment
// options and the instalment schedule, computed from the order's terms and its total paid. All
// arithmetic goes through money.ts; each figure has one function here, used wherever it is needed.
import {
  daysCovered,
  formatAmount,
  formatMoney,
  type Money,
  minMinor,
  minMoney,
  money,
  multiplyMoney,
  subtractMoney,
} from '../../kernel/money.js';
import { DEFAULT_PARTNER_SETTINGS, type PartnerSettings } from '../partners/settings.js';
import type { FinanceOrderRow, FinanceOrderStatus, FinanceTermsColumns } from './rows.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** A month of the contract, in days: instalment n is due at time + 30 * n days. */
export const DAYS_PER_MONTH = 30;

/** The columns an order's standing, schedule and options are computed from: what a listing selects for them (linkColumns.ts). */
export const ORDER_TERMS_COLUMNS = [
  'currency',
  'monthly_cost_minor',
  'weekly_cost_minor',
  'months',
  'total_paid_minor',
  'ordered_at',
] as const;

export type OrderTerms = Pick<FinanceOrderRow, (typeof ORDER_TERMS_COLUMNS)[number]>;

type SecureStatus = 'ACTIVE_AND_SECURED' | 'LOCKED' | 'RELEASED';

export interface Standing {
  repayableMinor: bigint;
  totalPaidMinor: bigint;
  remainingMinor: bigint;
  fullyPaid: boolean;
  paidThrough: Date;
  /** When the device locks unless a payment arrives: paid-through + the partner's grace; null once fully paid. */
  lockAt: Date | null;
  /** The legacy name of lockAt (decisions.md 15). */
  nextPayment: Date | null;
  secureStatus: SecureStatus;
}

/** financeAmount = purchaseAmount - downPayment: what a financed sale puts on the partner's ledger. */
export function financeAmountOf(
  terms: Pick<FinanceTermsColumns, 'currency' | 'purchase_minor' | 'down_payment_minor'>,
): Money {
  return subtractMoney(money(terms.purchase_minor, terms.currency), money(terms.down_payment_minor, terms.currency));
}

/** repayableTotal = monthlyCost * months (the finance charge included). */
export function repayableTotalOf(order: Pick<OrderTerms, 'currency' | 'monthly_cost_minor' | 'months'>): Money {
  return multiplyMoney(money(order.monthly_cost_minor, order.currency), order.months);
}

/** remainingBalance = repayableTotal - the total paid (the order's running `total_paid_minor`). */
export function remainingBalanceOf(
  order: Pick<OrderTerms, 'currency' | 'monthly_cost_minor' | 'months' | 'total_paid_minor'>,
): Money {
  return subtractMoney(repayableTotalOf(order), money(order.total_paid_minor, order.currency));
}

/**
 * The moment an order's days count from: the whole second of its sale, the second its time shows, so
 * its paid-through, lockAt and schedule are whole seconds and what is shown is when it happens
 * (decisions.md 37; paidThroughSql.ts cuts it the same way in SQL).
 */
const saleSecondOf = (order: Pick<OrderTerms, 'ordered_at'>): number =>
  Math.floor(order.ordered_at.getTime() / 1000) * 1000;

/** The moment a device paid through `paidThrough` locks: paid-through + the partner's grace (decisions.md 15). */
export function lockAtOf(paidThrough: Date, settings: Pick<PartnerSettings, 'lockGraceHours'>): Date {
  return new Date(paidThrough.getTime() + settings.lockGraceHours * HOUR_MS);
}

/** Where an order stands at `now` (the partner's time), given the total paid so far and the partner's settings. */
export function standingOf(
  order: OrderTerms,
  now: Date,
  settings: Pick<PartnerSettings, 'lockGraceHours'> = DEFAULT_PARTNER_SETTINGS,
): Standing {
  const monthly = BigInt(order.monthly_cost_minor);
  const totalPaidMinor = BigInt(order.total_paid_minor);
  const remainingMinor = remainingBalanceOf(order).minor;
  const fullyPaid = remainingMinor <= 0n;
  const days = BigInt(DAYS_PER_MONTH) + daysCovered(totalPaidMinor, monthly, DAYS_PER_MONTH);
  const paidThrough = new Date(saleSecondOf(order) + Number(days) * DAY_MS);
  const lockAt = fullyPaid ? null : lockAtOf(paidThrough, settings);
  return {
    repayableMinor: repayableTotalOf(order).minor,
    totalPaidMinor,
    remainingMinor,
    fullyPaid,
    paidThrough,
    lockAt,
    nextPayment: lockAt,
    secureStatus: lockAt === null ? 'RELEASED' : lockAt.getTime() > now.getTime() ? 'ACTIVE_AND_SECURED' : 'LOCKED',
  };
}

const ORDER_STATUS: Record<SecureStatus, FinanceOrderStatus> = {
  ACTIVE_AND_SECURED: 'ACTIVE',
  LOCKED: 'LOCKED',
  RELEASED: 'PAID_OFF',
};

/** The order's status at `now` (queries.ts orderStatusSql says the same in SQL, for filtering). */
export function orderStatusOf(
  order: OrderTerms,
  now: Date,
  settings: Pick<PartnerSettings, 'lockGraceHours'> = DEFAULT_PARTNER_SETTINGS,
): FinanceOrderStatus {
  return ORDER_STATUS[standingOf(order, now, settings).secureStatus];
}

type PaymentOptionType = 'FULL' | 'MONTH' | 'WEEK';

/** full = the balance, month = min(monthly, balance), week = min(weekly, balance); none once paid. */
export function paymentOptionsOf(order: OrderTerms): Array<{ type: PaymentOptionType; amountMinor: bigint }> {
  const remaining = remainingBalanceOf(order);
  if (remaining.minor <= 0n) return [];
  return [
    { type: 'FULL', amountMinor: remaining.minor },
    { type: 'MONTH', amountMinor: minMoney(money(order.monthly_cost_minor, order.currency), remaining).minor },
    { type: 'WEEK', amountMinor: minMoney(money(order.weekly_cost_minor, order.currency), remaining).minor },
  ];
}

type InstallmentStatus = 'PAID' | 'OVERDUE' | 'UPCOMING';

/** Instalment n (1..months) is monthlyCost due at time + 30n days; payments cover them in order. */
export function scheduleOf(order: OrderTerms, now: Date) {
  const monthly = BigInt(order.monthly_cost_minor);
  let unallocated = BigInt(order.total_paid_minor);
  return Array.from({ length: order.months }, (_, index) => {
    const number = index + 1;
    const paidMinor = minMinor(monthly, unallocated > 0n ? unallocated : 0n);
    unallocated -= paidMinor;
    const dueAt = new Date(saleSecondOf(order) + number * DAYS_PER_MONTH * DAY_MS);
    const status: InstallmentStatus =
      paidMinor === monthly ? 'PAID' : dueAt.getTime() <= now.getTime() ? 'OVERDUE' : 'UPCOMING';
    return { number, dueAt, amountMinor: monthly, paidMinor, status };
  });
}

/** The Decimal fields of the terms, shared by Cart and FinanceOrder. */
export const financeTermsFields = {
  purchaseAmount: (terms: FinanceTermsColumns) => formatAmount(terms.purchase_minor, terms.currency),
  downPayment: (terms: FinanceTermsColumns) => formatAmount(terms.down_payment_minor, terms.currency),
  financeAmount: (terms: FinanceTermsColumns) => formatMoney(financeAmountOf(terms)),
  pricePreTax: (terms: FinanceTermsColumns) => formatAmount(terms.price_pre_tax_minor, terms.currency),
  monthlyCost: (terms: FinanceTermsColumns) => formatAmount(terms.monthly_cost_minor, terms.currency),
  weeklyCost: (terms: FinanceTermsColumns) => formatAmount(terms.weekly_cost_minor, terms.currency),
};
