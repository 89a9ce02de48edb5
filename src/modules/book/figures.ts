// The book's figures as of a moment, from the ledger (decisions.md 45), in one SQL pass: no order is
// looped over in Node. Each order's paid amount as of the moment is its running total less what came
// after it (payments received after asOf, plus the reversals made after it, which the total had
// taken back): asking about now reads no ledger row at all, asking about a month ago a month of them.
// The per-order pass (perOrderSql) is shared by the figures, the ageing and the ageing's file.
import type { DbOrTrx } from '../../db/knex.js';
import { type SqlFragment, sql, sqlText } from '../../db/sqlFragment.js';
import { dayRuleColumnsOf, paidThroughSql } from '../financeOrders/paidThroughSql.js';
import { DAYS_PER_MONTH } from '../financeOrders/terms.js';
import type { PortfolioGroupBy, PortfolioSums } from './rows.js';

const DAY_MS = 86_400_000;
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
  /** The moment, in the partner's time. */
  asOf: Date;
  /** The partner's lockGraceHours now (settings keep no history). */
  graceHours: number;
}

/**
 * Every order of the partner sold by asOf, one row each (`per_order`), with: `grp`, `currency`,
 * `repayable`, `paid` and `paid_start` (as of asOf and of the period's start), `open`, `open_start`,
 * `not_closed`, `dpd`, `locked`, `due` (the instalments due by asOf), `monthly`, `fpd_eligible`,
 * `written_off` (the balance a WRITE_OFF in the period cleared, else 0), and the order's columns the
 * ageing's file shows. A WITH clause: the statement selects from per_order after it.
 */
export function perOrderSql(moment: BookMoment, groupBy: PortfolioGroupBy): SqlFragment {
  const { partnerId, asOf, graceHours } = moment;
  const periodStart = new Date(asOf.getTime() - WRITE_OFF_PERIOD_DAYS * DAY_MS);
  const paidThrough = paidThroughSql(dayRuleColumnsOf('s', 's.paid'));
  const model = groupBy === 'DEVICE_MODEL';
  return sql`with later_payments as (
      select finance_order_id,
        sum(amount_minor) filter (where received_at > ${asOf}::timestamptz) as after_as_of,
        sum(amount_minor) as after_start
      from payments where partner_id = ${partnerId} and received_at > ${periodStart}::timestamptz
      group by finance_order_id
    ), later_reversals as (
      select finance_order_id,
        sum(amount_minor) filter (where reversed_at > ${asOf}::timestamptz) as after_as_of,
        sum(amount_minor) as after_start
      from payment_reversals where partner_id = ${partnerId} and reversed_at > ${periodStart}::timestamptz
      group by finance_order_id
    ), sold as (
      select o.id, o.merchant_id, o.currency, o.ordered_at, o.monthly_cost_minor, o.months,
        o.closed_at, o.closed_reason, o.cleared_minor, ${sqlText(GROUP_KEYS[groupBy])} as grp,
        ${sqlText(model ? 'dm.name' : "''")} as device_model,
        o.monthly_cost_minor * o.months as repayable,
        o.total_paid_minor - coalesce(lp.after_as_of, 0) + coalesce(lr.after_as_of, 0) as paid,
        o.total_paid_minor - coalesce(lp.after_start, 0) + coalesce(lr.after_start, 0) as paid_start
      from finance_orders o
      left join later_payments lp on lp.finance_order_id = o.id
      left join later_reversals lr on lr.finance_order_id = o.id
      ${sqlText(
        model
          ? 'join devices d on d.partner_id = o.partner_id and d.id = o.device_id join device_models dm on dm.id = d.model_id'
          : '',
      )}
      where o.partner_id = ${partnerId} and o.ordered_at <= ${asOf}::timestamptz
    ), standing as (
      select s.*,
        ${paidThrough} as paid_through,
        (s.closed_at is null or s.closed_at > ${asOf}::timestamptz) as not_closed,
        (s.ordered_at <= ${periodStart}::timestamptz and (s.closed_at is null or s.closed_at > ${periodStart}::timestamptz)
          and s.paid_start < s.repayable) as open_start,
        least(s.months, floor(extract(epoch from (${asOf}::timestamptz - date_trunc('second', s.ordered_at)))
          / ${DAYS_PER_MONTH * 86_400})::int) * s.monthly_cost_minor as due,
        date_trunc('second', s.ordered_at) + interval '${sqlText(String(2 * DAYS_PER_MONTH))} days' <= ${asOf}::timestamptz
          as fpd_eligible
      from sold s
    ), per_order as (
      select t.*,
        t.not_closed and t.paid < t.repayable as open,
        greatest(0, floor(extract(epoch from (${asOf}::timestamptz - t.paid_through)) / 86400))::int as dpd,
        t.paid_through + ${graceHours} * interval '1 hour' <= ${asOf}::timestamptz as locked,
        case when t.closed_reason = 'WRITE_OFF' and t.closed_at > ${periodStart}::timestamptz
          and t.closed_at <= ${asOf}::timestamptz then t.cleared_minor else 0 end as written_off
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

/** The partner's sums as of the moment, a row per group and currency (none when nothing was sold by then). */
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
    from per_order
    group by grp, currency
    order by currency, grp`;
  const result = await db.raw<{ rows: SumsRow[] }>(statement.sql, [...statement.bindings]);
  return result.rows.map((row) => ({
    group: row.grp,
    currency: row.currency,
    asOf: moment.asOf,
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
