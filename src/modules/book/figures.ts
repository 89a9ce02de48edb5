// The book's figures as of a moment, from the ledger (decisions.md 45), in one SQL pass: no order is
// looped over in Node. Each order's paid amount as of the moment is its running total less what came
// after it (payments received after asOf, plus the reversals made after it, which the total had
// taken back). The ledger is read from the start of writeOffRatio's period (30 days before asOf), the
// other moment whose paid amounts are needed: asking about now reads a month of payments along
// payments_partner_received, asking about a year ago a year and a month of them.
// The per-order pass (perOrderSql) is shared by the figures, the ageing and the ageing's file.
import type { DbOrTrx } from '../../db/knex.js';
import { type SqlFragment, sql, sqlText } from '../../db/sqlFragment.js';
import { dayRuleColumnsOf, paidThroughSql } from '../financeOrders/paidThroughSql.js';
import { DAYS_PER_MONTH } from '../financeOrders/terms.js';
import type { PortfolioGroupBy, PortfolioSums } from './rows.js';

const DAY_MS = 86_400_000;
const DAY_SECONDS = 86_400;
/** writtenOff's period, and the start of writeOffRatio's average: the 30 days to asOf. */
export const WRITE_OFF_PERIOD_DAYS = 30;

/** The group of an order (`o` the order, `dm` its device's model), as SQL text of the code. */
const GROUP_KEYS: Readonly<Record<PortfolioGroupBy, string>> = {
  NONE: "'all'",
  MERCHANT: 'o.merchant_id::text',
  DEVICE_MODEL: 'dm.name',
  COHORT_MONTH: "to_char(o.ordered_at at time zone 'UTC', 'YYYY-MM')",
};

export interface BookMoment {
  partnerId: string;
  /** The moment, in the partner's time: the figures are as of its whole second (asOfSecondOf). */
  asOf: Date;
  /** The partner's lockGraceHours now (settings keep no history). */
  graceHours: number;
}

/**
 * The second the figures are as of: the graph's times are whole seconds, so "as of s" takes every
 * sale, payment, reversal and close whose time shows s or earlier (those of s's later milliseconds
 * too). Asked again with the second an answer showed, the figures are the same; asked now, they are
 * the ledger as it stands.
 */
export const asOfSecondOf = (asOf: Date): Date => new Date(Math.floor(asOf.getTime() / 1000) * 1000);

/**
 * Every order of the partner sold by asOf, one row each (`per_order`), with: `grp`, `currency`,
 * `repayable`, `paid` and `paid_start` (as of asOf and of the period's start, int8), `open`,
 * `open_start`, `not_closed`, `paid_through`, `dpd`, `locked`, `due` (the instalments due by asOf),
 * `monthly_cost_minor`, `fpd_eligible`, `written_off` (the balance a WRITE_OFF in the period cleared,
 * else 0), and the order's columns the ageing's file shows. A WITH clause: the statement selects from
 * per_order after it. `afterOrderId` keeps only the orders after that id (the ageing file's pages,
 * which then read only what is left to write); the figures take every order.
 */
export function perOrderSql(
  moment: BookMoment,
  groupBy: PortfolioGroupBy,
  afterOrderId: string | null = null,
): SqlFragment {
  const { partnerId, graceHours } = moment;
  // asOf's second; `next` the first instant after it (a row at or after it came after asOf); the
  // period's start 30 days before, alike. The day rule's instants (paid-through, lockAt, the
  // instalments) are whole seconds, so they are compared with the second itself.
  const asOf = asOfSecondOf(moment.asOf);
  const next = new Date(asOf.getTime() + 1000);
  const periodNext = new Date(next.getTime() - WRITE_OFF_PERIOD_DAYS * DAY_MS);
  const paidThrough = paidThroughSql(dayRuleColumnsOf('s', 's.paid'));
  const model = groupBy === 'DEVICE_MODEL';
  const ledgerAfter = afterOrderId === null ? sqlText('') : sql` and finance_order_id > ${afterOrderId}::int8`;
  const ordersAfter = afterOrderId === null ? sqlText('') : sql` and o.id > ${afterOrderId}::int8`;
  // Sums of int8 are numeric in Postgres: paid is cast back to int8, so the day rule's division truncates.
  return sql`with later_payments as (
      select finance_order_id,
        sum(amount_minor) filter (where received_at >= ${next}::timestamptz) as after_as_of,
        sum(amount_minor) as after_start
      from payments where partner_id = ${partnerId} and received_at >= ${periodNext}::timestamptz${ledgerAfter}
      group by finance_order_id
    ), later_reversals as (
      select finance_order_id,
        sum(amount_minor) filter (where reversed_at >= ${next}::timestamptz) as after_as_of,
        sum(amount_minor) as after_start
      from payment_reversals where partner_id = ${partnerId} and reversed_at >= ${periodNext}::timestamptz${ledgerAfter}
      group by finance_order_id
    ), sold as (
      select o.id, o.merchant_id, o.currency, o.ordered_at, o.monthly_cost_minor, o.months,
        o.closed_at, o.closed_reason, o.cleared_minor, ${sqlText(GROUP_KEYS[groupBy])} as grp,
        ${sqlText(model ? 'dm.name' : "''")} as device_model,
        o.monthly_cost_minor * o.months as repayable,
        (o.total_paid_minor - coalesce(lp.after_as_of, 0) + coalesce(lr.after_as_of, 0))::int8 as paid,
        (o.total_paid_minor - coalesce(lp.after_start, 0) + coalesce(lr.after_start, 0))::int8 as paid_start
      from finance_orders o
      left join later_payments lp on lp.finance_order_id = o.id
      left join later_reversals lr on lr.finance_order_id = o.id
      ${sqlText(
        model
          ? 'join devices d on d.partner_id = o.partner_id and d.id = o.device_id join device_models dm on dm.id = d.model_id'
          : '',
      )}
      where o.partner_id = ${partnerId} and o.ordered_at < ${next}::timestamptz${ordersAfter}
    ), standing as (
      select s.*,
        ${paidThrough} as paid_through,
        (s.closed_at is null or s.closed_at >= ${next}::timestamptz) as not_closed,
        (s.ordered_at < ${periodNext}::timestamptz and (s.closed_at is null or s.closed_at >= ${periodNext}::timestamptz)
          and s.paid_start < s.repayable) as open_start,
        least(s.months, floor(extract(epoch from (${asOf}::timestamptz - date_trunc('second', s.ordered_at)))
          / ${sqlText(String(DAYS_PER_MONTH * DAY_SECONDS))})::int) * s.monthly_cost_minor as due,
        -- The first instalment due at least 30 days before asOf: sale + 60 days of 86,400 s (no time zone moves it).
        date_trunc('second', s.ordered_at) + ${sqlText(String(2 * DAYS_PER_MONTH * DAY_SECONDS))} * interval '1 second'
          <= ${asOf}::timestamptz as fpd_eligible
      from sold s
    ), per_order as (
      select t.*,
        t.not_closed and t.paid < t.repayable as open,
        greatest(0, floor(extract(epoch from (${asOf}::timestamptz - t.paid_through)) / ${sqlText(String(DAY_SECONDS))}))::int as dpd,
        t.paid_through + ${graceHours}::int * interval '1 hour' <= ${asOf}::timestamptz as locked,
        case when t.closed_reason = 'WRITE_OFF' and t.closed_at >= ${periodNext}::timestamptz
          and t.closed_at < ${next}::timestamptz then t.cleared_minor else 0 end as written_off
      from standing t
    )`;
}

interface SumsRow {
  grp: string;
  currency: string;
  open_orders: number;
  outstanding: string;
  par30: string;
  par60: string;
  par90: string;
  locked_orders: number;
  collected: string;
  due: string;
  fpd_defaulted: number;
  fpd_eligible: number;
  written_off: string;
  period_start_outstanding: string;
}

/** The partner's sums as of the moment's second, a row per group and currency (none when nothing was sold by then). */
export async function portfolioSums(
  db: DbOrTrx,
  moment: BookMoment,
  groupBy: PortfolioGroupBy,
): Promise<PortfolioSums[]> {
  const statement = sql`${perOrderSql(moment, groupBy)}
    select grp, currency,
      count(*) filter (where open)::int as open_orders,
      coalesce(sum(repayable - paid) filter (where open), 0)::text as outstanding,
      coalesce(sum(repayable - paid) filter (where open and dpd > 30), 0)::text as par30,
      coalesce(sum(repayable - paid) filter (where open and dpd > 60), 0)::text as par60,
      coalesce(sum(repayable - paid) filter (where open and dpd > 90), 0)::text as par90,
      count(*) filter (where open and locked)::int as locked_orders,
      coalesce(sum(least(paid, due)) filter (where not_closed), 0)::text as collected,
      coalesce(sum(due) filter (where not_closed), 0)::text as due,
      count(*) filter (where fpd_eligible and paid < monthly_cost_minor)::int as fpd_defaulted,
      count(*) filter (where fpd_eligible)::int as fpd_eligible,
      coalesce(sum(written_off), 0)::text as written_off,
      coalesce(sum(repayable - paid_start) filter (where open_start), 0)::text as period_start_outstanding
    -- OFFSET 0 keeps the planner from pulling each order's values up into every aggregate that reads
    -- them (dpd read three times, open nine): each is computed once per order.
    from (select * from per_order offset 0) as per_order
    group by grp, currency
    order by currency, grp`;
  const result = await db.raw<{ rows: SumsRow[] }>(statement.sql, [...statement.bindings]);
  return result.rows.map((row) => ({
    group: row.grp,
    currency: row.currency,
    asOf: asOfSecondOf(moment.asOf),
    openOrders: row.open_orders,
    outstandingMinor: BigInt(row.outstanding),
    par30Minor: BigInt(row.par30),
    par60Minor: BigInt(row.par60),
    par90Minor: BigInt(row.par90),
    lockedOrders: row.locked_orders,
    collectedMinor: BigInt(row.collected),
    dueMinor: BigInt(row.due),
    firstPaymentDefaulted: row.fpd_defaulted,
    firstPaymentEligible: row.fpd_eligible,
    writtenOffMinor: BigInt(row.written_off),
    periodStartOutstandingMinor: BigInt(row.period_start_outstanding),
  }));
}
