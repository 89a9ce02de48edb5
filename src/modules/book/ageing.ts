// The ageing of the book (decisions.md 45): open orders by days past due, from the same per-order pass
// as the figures (figures.ts perOrderSql), so its buckets sum to their openOrders and outstanding.
import type { DbOrTrx } from '../../db/knex.js';
import { sql, sqlText } from '../../db/sqlFragment.js';
import { asOfSecondOf, type BookMoment, perOrderSql } from './figures.js';
import type { AgeingBucketName, PortfolioAgeingParent } from './rows.js';

/** The buckets, CURRENT first: each its upper bound of days past due (null: none). */
export const AGEING_BUCKETS: ReadonlyArray<{ bucket: AgeingBucketName; upTo: number | null }> = [
  { bucket: 'CURRENT', upTo: 0 },
  { bucket: 'DPD_1_30', upTo: 30 },
  { bucket: 'DPD_31_60', upTo: 60 },
  { bucket: 'DPD_61_90', upTo: 90 },
  { bucket: 'DPD_91_180', upTo: 180 },
  { bucket: 'DPD_OVER_180', upTo: null },
];

/** An order's bucket in SQL, from its `dpd`: the first whose bound holds it. */
const BUCKET_SQL = sqlText(
  `case ${AGEING_BUCKETS.filter((b) => b.upTo !== null)
    .map((b) => `when dpd <= ${b.upTo} then '${b.bucket}'`)
    .join(' ')} else 'DPD_OVER_180' end`,
);

/** The partner's ageing as of the moment, one entry per currency of the orders sold by then. */
export async function portfolioAgeing(db: DbOrTrx, moment: BookMoment): Promise<PortfolioAgeingParent[]> {
  const statement = sql`${perOrderSql(moment, 'NONE')}
    select currency, ${BUCKET_SQL} as bucket, count(*) filter (where open)::int as orders,
      coalesce(sum(repayable - paid) filter (where open), 0)::text as outstanding
    from (select * from per_order offset 0) as per_order group by currency, bucket order by currency`;
  const result = await db.raw<{
    rows: Array<{ currency: string; bucket: AgeingBucketName; orders: number; outstanding: string }>;
  }>(statement.sql, [...statement.bindings]);
  const currencies = [...new Set(result.rows.map((row) => row.currency))];
  return currencies.map((currency) => {
    const mine = result.rows.filter((row) => row.currency === currency);
    const buckets = AGEING_BUCKETS.map(({ bucket }) => {
      const row = mine.find((candidate) => candidate.bucket === bucket);
      return { bucket, currency, orders: row?.orders ?? 0, outstandingMinor: BigInt(row?.outstanding ?? '0') };
    });
    return {
      currency,
      asOf: asOfSecondOf(moment.asOf),
      buckets,
      orders: buckets.reduce((sum, b) => sum + b.orders, 0),
      outstandingMinor: buckets.reduce((sum, b) => sum + b.outstandingMinor, 0n),
    };
  });
}

/** An open order as the ageing's file writes it. */
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

/**
 * A page of the open orders as of the moment, in id order after `after` (an order id; null: from the
 * first). The orders and the ledger are read from `after` on, so a file's pages together read the
 * partner's orders once, not once a page.
 */
export async function ageingOrdersPage(
  db: DbOrTrx,
  partnerId: string,
  asOf: Date,
  graceHours: number,
  after: string | null,
  limit: number,
): Promise<AgeingOrderRow[]> {
  const statement = sql`${perOrderSql({ partnerId, asOf, graceHours }, 'DEVICE_MODEL', after)}
    select id::text as order_id, merchant_id::text, device_model, ordered_at, paid_through, dpd,
      ${BUCKET_SQL} as bucket, (repayable - paid)::text as outstanding, currency
    -- By the int8 id: the text it is answered as would put 1001 before 997, and the next page's cursor wrong.
    from per_order where open order by per_order.id limit ${limit}`;
  const result = await db.raw<{
    rows: Array<{
      order_id: string;
      merchant_id: string;
      device_model: string;
      ordered_at: Date;
      paid_through: Date;
      dpd: number;
      bucket: AgeingBucketName;
      outstanding: string;
      currency: string;
    }>;
  }>(statement.sql, [...statement.bindings]);
  return result.rows.map((row) => ({
    financeOrderId: row.order_id,
    merchantId: row.merchant_id,
    deviceModel: row.device_model,
    orderedAt: row.ordered_at,
    paidThrough: row.paid_through,
    daysPastDue: row.dpd,
    bucket: row.bucket,
    outstandingMinor: BigInt(row.outstanding),
    currency: row.currency,
  }));
}
