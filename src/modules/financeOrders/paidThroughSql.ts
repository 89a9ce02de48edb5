// The day rule of terms.ts (decisions.md 5) in SQL, written once: the days a total paid buys, the
// paid-through time they make, and the total that buys a number of days. Every statement that reads
// or writes an order's paid-through takes it from here (queries.ts orderStatusSql, the lock timeline's
// instants, the in-store payment's read, the fixtures' event payloads); paidThroughSql.test.ts holds it
// to terms.ts standingOf and repayment.ts, which say the same in TypeScript.
import { type SqlFragment, sql, sqlText } from '../../db/sqlFragment.js';
import { DAYS_PER_MONTH } from './terms.js';

/** The order's columns the rule reads, as SQL on its row (`o.ordered_at`, ...): text of the code, never a value. */
export interface DayRuleColumns {
  orderedAt: string;
  totalPaid: string;
  monthlyCost: string;
}

/** The columns of the order aliased `alias`; `totalPaid` another total than its running one (its total up to a payment). */
export const dayRuleColumnsOf = (alias: string, totalPaid = `${alias}.total_paid_minor`): DayRuleColumns => ({
  orderedAt: `${alias}.ordered_at`,
  totalPaid,
  monthlyCost: `${alias}.monthly_cost_minor`,
});

const DAYS = sqlText(String(DAYS_PER_MONTH));

/** floor(total paid × 30 / monthly cost): int8 division truncates, the floor for a total paid that is never negative. */
export const daysPaidSql = (order: DayRuleColumns): SqlFragment =>
  sql`${sqlText(order.totalPaid)} * ${DAYS} / ${sqlText(order.monthlyCost)}`;

/**
 * Paid-through: the sale's whole second (terms.ts saleSecondOf) + 30 days + the days paid, a day
 * 86,400 seconds, as terms.ts counts it (no time zone or daylight saving moves it, decisions.md 37).
 */
export const paidThroughSql = (order: DayRuleColumns): SqlFragment =>
  sql`date_trunc('second', ${sqlText(order.orderedAt)}) + (${DAYS} + ${daysPaidSql(order)}) * interval '86400 seconds'`;

/**
 * The least total paid that buys `days` more days than the total paid has (`days` SQL on the row):
 * ceil((days paid + days) × monthly cost / 30), so an amount that makes it is what
 * repayment.ts cheapestAmountFor prices.
 */
export const totalBuyingDaysSql = (order: DayRuleColumns, days: SqlFragment): SqlFragment =>
  sql`((${daysPaidSql(order)} + ${days}) * ${sqlText(order.monthlyCost)} + ${sqlText(String(DAYS_PER_MONTH - 1))}) / ${DAYS}`;
