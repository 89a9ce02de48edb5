// A page of a partner's open orders as of a moment, each with its days past due and bucket
// (docs/decisions.md 45): what an AGEING report writes. Paid as of asOf is the running total less the
// payments received after asOf plus the reversals made after it; paid-through by section 5's day rule.
// (A minimal version for report runs, one statement a page; the book's per-order pass replaces it.)
import type { DbOrTrx } from '../../db/knex.js';
import { sql } from '../../db/sqlFragment.js';
import { paidThroughSql } from '../financeOrders/paidThroughSql.js';
import type { AgeingBucketName } from './rows.js';

export interface AgeingOrderRow {
  financeOrderId: string;
  merchantId: string;
  deviceModel: string;
  orderedAt: Date;
  paidThrough: Date;
  daysPastDue: number;
  bucket: AgeingBucketName;
  outstandingMinor: bigint;
  currency: string;
}

/** The bucket of a number of days past due. */
export function bucketOf(daysPastDue: number): AgeingBucketName {
  if (daysPastDue <= 0) return 'CURRENT';
  if (daysPastDue <= 30) return 'DPD_1_30';
  if (daysPastDue <= 60) return 'DPD_31_60';
  if (daysPastDue <= 90) return 'DPD_61_90';
  if (daysPastDue <= 180) return 'DPD_91_180';
  return 'DPD_OVER_180';
}

/**
 * Up to `limit` of the partner's orders open at `asOf` (sold by then, not closed by then, not paid off
 * then), after finance order id `after`, by id. The grace moves lockAt only, not days past due.
 */
export async function ageingOrdersPage(
  db: DbOrTrx,
  partnerId: string,
  asOf: Date,
  _graceHours: number,
  after: string | null,
  limit: number,
): Promise<AgeingOrderRow[]> {
  const paidThrough = paidThroughSql({
    orderedAt: 'o.ordered_at',
    totalPaid: 'o.paid',
    monthlyCost: 'o.monthly_cost_minor',
  });
  const query = sql`with orders as (
      select f.partner_id, f.id, f.merchant_id, f.device_id, f.currency, f.ordered_at, f.monthly_cost_minor,
        f.monthly_cost_minor * f.months as repayable,
        f.total_paid_minor
          - coalesce((select sum(p.amount_minor) from payments p
              where p.partner_id = f.partner_id and p.finance_order_id = f.id and p.received_at > ${asOf}::timestamptz), 0)
          + coalesce((select sum(r.amount_minor) from payment_reversals r
              where r.partner_id = f.partner_id and r.finance_order_id = f.id and r.reversed_at > ${asOf}::timestamptz), 0)
          as paid
      from finance_orders f
      where f.partner_id = ${partnerId} and f.ordered_at <= ${asOf}::timestamptz
        and (f.closed_at is null or f.closed_at > ${asOf}::timestamptz)
        and (${after}::int8 is null or f.id > ${after}::int8)
      order by f.id)
    select o.id, o.merchant_id, o.currency, o.ordered_at, o.repayable - o.paid as outstanding,
      ${paidThrough} as paid_through, dm.name as device_model
    from orders o
    join devices d on d.partner_id = o.partner_id and d.id = o.device_id
    join device_models dm on dm.id = d.model_id
    where o.paid < o.repayable
    order by o.id
    limit ${limit}`;
  const { rows } = (await db.raw(query.sql, query.bindings)) as { rows: Array<Record<string, unknown>> };
  return rows.map((row) => {
    const through = row.paid_through as Date;
    const daysPastDue = Math.max(0, Math.floor((asOf.getTime() - through.getTime()) / 86_400_000));
    return {
      financeOrderId: String(row.id),
      merchantId: String(row.merchant_id),
      deviceModel: String(row.device_model),
      orderedAt: row.ordered_at as Date,
      paidThrough: through,
      daysPastDue,
      bucket: bucketOf(daysPastDue),
      outstandingMinor: BigInt(row.outstanding as string | number),
      currency: String(row.currency).trim(),
    };
  });
}
