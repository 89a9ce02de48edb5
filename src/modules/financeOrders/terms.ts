// The rules of a finance order (decisions.md 5): balance, paid-through time, secure status, payment
// options and the instalment schedule, computed from the order's terms and its total paid. All
// arithmetic goes through money.ts; each figure has one function here, used wherever it is needed.
import { financeOrderClosed } from '../../kernel/errors.js';
import {
  daysCovered,
  formatAmount,
  formatAmountOrError,
  formatMoney,
  type Money,
  minMinor,
  minMoney,
  money,
  multiplyMoney,
  subtractMoney,
  textOrError,
} from '../../kernel/money.js';
import { DEFAULT_PARTNER_SETTINGS, type PartnerSettings } from '../partners/settings.js';
import type { FinanceOrderAmounts, FinanceOrderRow, FinanceOrderStatus, FinanceTermsColumns } from './rows.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** A month of the contract, in days: instalment n is due at time + 30 * n days. */
export const DAYS_PER_MONTH = 30;

/** The columns of the day rule: the terms and the total paid. */
const DAY_RULE_COLUMNS = [
  'currency',
  'monthly_cost_minor',
  'weekly_cost_minor',
  'months',
  'total_paid_minor',
  'ordered_at',
] as const;

/** The columns of the corrections (decisions.md 44): a payoff completing, an order closed and what it cleared. */
const CORRECTION_COLUMNS = ['release_at', 'closed_at', 'closed_reason', 'cleared_minor'] as const;

/** The columns an order's standing, schedule and options are computed from: what a listing selects for them (linkColumns.ts). */
export const ORDER_TERMS_COLUMNS = [...DAY_RULE_COLUMNS, ...CORRECTION_COLUMNS] as const;

/**
 * An order as its standing reads it. The corrections' columns may be absent (an order built in
 * memory, a payment's figures): absent is open, never closed, released at once when paid off.
 */
export type OrderTerms = Pick<FinanceOrderRow, (typeof DAY_RULE_COLUMNS)[number]> &
  Partial<Pick<FinanceOrderRow, (typeof CORRECTION_COLUMNS)[number]>>;

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
  /**
   * When the device locks, or locked (Device.validThrough, the legacy validThrough): lockAt while
   * something remains to pay; releaseAt while a payoff completes; the lock or the close, whichever came
   * first, once closed; paid-through + grace, kept, once released (decisions.md 44).
   */
  validThrough: Date;
  /** Paid off, its release waiting for the payoff's reversal window: the moment it comes; null otherwise. */
  releaseAt: Date | null;
  /** Why the order was closed; null while open. */
  closedReason: FinanceOrderRow['closed_reason'];
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

/**
 * remainingBalance = repayableTotal - the total paid (the order's running `total_paid_minor`) - what a
 * close cleared (0 while open; the whole rest once closed, decisions.md 44).
 */
export function remainingBalanceOf(
  order: Pick<OrderTerms, 'currency' | 'monthly_cost_minor' | 'months' | 'total_paid_minor' | 'cleared_minor'>,
): Money {
  const owed = subtractMoney(repayableTotalOf(order), money(order.total_paid_minor, order.currency));
  return subtractMoney(owed, money(order.cleared_minor ?? '0', order.currency));
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
  const closedAt = order.closed_at ?? null;
  const fullyPaid = closedAt === null && remainingMinor <= 0n;
  const days = BigInt(DAYS_PER_MONTH) + daysCovered(totalPaidMinor, monthly, DAYS_PER_MONTH);
  const paidThrough = new Date(saleSecondOf(order) + Number(days) * DAY_MS);
  const deadline = lockAtOf(paidThrough, settings);
  const base = {
    repayableMinor: repayableTotalOf(order).minor,
    totalPaidMinor,
    remainingMinor,
    fullyPaid,
    paidThrough,
  };
  const closedReason = order.closed_reason ?? null;
  if (closedAt !== null) {
    // Closed: locked for good (a returned device until a new order finances it), since the lock or the close.
    const locked = new Date(Math.min(deadline.getTime(), closedAt.getTime()));
    const closed = { lockAt: locked, nextPayment: null, validThrough: locked, releaseAt: null, closedReason };
    return { ...base, ...closed, secureStatus: 'LOCKED' };
  }
  if (fullyPaid) {
    // Completing until the payoff's window closes: still secured, released from releaseAt on.
    const releaseAt = order.release_at ?? null;
    const completing = releaseAt !== null && releaseAt.getTime() > now.getTime();
    return {
      ...base,
      lockAt: null,
      nextPayment: null,
      validThrough: completing ? releaseAt : deadline,
      releaseAt,
      closedReason,
      secureStatus: completing ? 'ACTIVE_AND_SECURED' : 'RELEASED',
    };
  }
  return {
    ...base,
    lockAt: deadline,
    nextPayment: deadline,
    validThrough: deadline,
    releaseAt: null,
    closedReason,
    secureStatus: deadline.getTime() > now.getTime() ? 'ACTIVE_AND_SECURED' : 'LOCKED',
  };
}

/** The order's status at `now` (queries.ts orderStatusSql says the same in SQL, for filtering). */
export function orderStatusOf(
  order: OrderTerms,
  now: Date,
  settings: Pick<PartnerSettings, 'lockGraceHours'> = DEFAULT_PARTNER_SETTINGS,
): FinanceOrderStatus {
  const standing = standingOf(order, now, settings);
  if (standing.closedReason !== null) return standing.closedReason === 'WRITE_OFF' ? 'WRITTEN_OFF' : 'RETURNED';
  if (standing.fullyPaid) return 'PAID_OFF';
  return standing.secureStatus === 'LOCKED' ? 'LOCKED' : 'ACTIVE';
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

/** FINANCE_ORDER_CLOSED for an order written off or returned: it takes no payment, whoever brings it (decisions.md 44). */
export function assertOpen(order: Pick<FinanceOrderRow, 'id' | 'closed_reason'>): void {
  if (order.closed_reason !== null) throw financeOrderClosed(order.id, order.closed_reason, 'it takes no payment');
}

/** The Decimal fields of the terms: a cart's resolvers and an event's figures (an order's own are ORDER_AMOUNTS). */
export const financeTermsFields = {
  purchaseAmount: (terms: FinanceTermsColumns) => formatAmount(terms.purchase_minor, terms.currency),
  downPayment: (terms: FinanceTermsColumns) => formatAmount(terms.down_payment_minor, terms.currency),
  financeAmount: (terms: FinanceTermsColumns) => formatMoney(financeAmountOf(terms)),
  pricePreTax: (terms: FinanceTermsColumns) => formatAmount(terms.price_pre_tax_minor, terms.currency),
  monthlyCost: (terms: FinanceTermsColumns) => formatAmount(terms.monthly_cost_minor, terms.currency),
  weeklyCost: (terms: FinanceTermsColumns) => formatAmount(terms.weekly_cost_minor, terms.currency),
};

/** The finance amount's text, or the error making it raised (textOrError). */
function financeAmountOrError(purchaseMinor: string, downPaymentMinor: string, currency: string): string | Error {
  return textOrError(() =>
    formatMoney(financeAmountOf({ purchase_minor: purchaseMinor, down_payment_minor: downPaymentMinor, currency })),
  );
}

/**
 * An order's amounts (FinanceOrderAmounts), each a field of its row made from the row's columns as the
 * row is read: by withAmounts, and by a listing's row reader for the order it joins (those whose
 * columns the request reads). One list, so the two cannot differ.
 */
export const ORDER_AMOUNTS = [
  { name: 'purchase_amount', from: ['purchase_minor', 'currency'], compute: formatAmountOrError },
  { name: 'down_payment_amount', from: ['down_payment_minor', 'currency'], compute: formatAmountOrError },
  {
    name: 'finance_amount',
    from: ['purchase_minor', 'down_payment_minor', 'currency'],
    compute: financeAmountOrError,
  },
  { name: 'price_pre_tax_amount', from: ['price_pre_tax_minor', 'currency'], compute: formatAmountOrError },
  { name: 'monthly_cost_amount', from: ['monthly_cost_minor', 'currency'], compute: formatAmountOrError },
  { name: 'weekly_cost_amount', from: ['weekly_cost_minor', 'currency'], compute: formatAmountOrError },
] as const satisfies ReadonlyArray<{
  name: keyof FinanceOrderAmounts;
  from: ReadonlyArray<keyof FinanceTermsColumns>;
  compute: (...columns: string[]) => string | Error;
}>;

/** An order's row with its amounts, as the graph answers a FinanceOrder from it (decisions.md 47). */
export function withAmounts<Row extends FinanceTermsColumns>(row: Row): Row & FinanceOrderAmounts {
  const amounts: Partial<Record<keyof FinanceOrderAmounts, string | Error>> = {};
  for (const { name, from, compute } of ORDER_AMOUNTS) {
    amounts[name] = (compute as (...columns: string[]) => string | Error)(...from.map((column) => String(row[column])));
  }
  return { ...row, ...(amounts as FinanceOrderAmounts) };
}
