// The AGEING and PORTFOLIO_HISTORY files (docs/decisions.md 45, docs/integrating.md#report-files): the
// open orders as of a moment with their buckets (book/ageing.ts), and the stored daily snapshots with
// their ratios computed as the graph computes them (book/ratios.ts), page by page.
import type { DbOrTrx } from '../../db/knex.js';
import { ageingOrdersPage } from '../book/ageing.js';
import { formatRatio } from '../book/ratios.js';
import type { PortfolioSnapshotRow } from '../book/rows.js';
import { isoTime, majorUnitsOf, text } from './csv.js';
import type { ReportSource } from './sources.js';

export const AGEING_COLUMNS = [
  'financeOrderId',
  'merchantId',
  'deviceModel',
  'orderedAt',
  'paidThrough',
  'daysPastDue',
  'bucket',
  'outstanding',
  'currency',
] as const;

export const HISTORY_COLUMNS = [
  'day',
  'currency',
  'asOf',
  'openOrders',
  'outstanding',
  'par30',
  'par60',
  'par90',
  'collectionRate',
  'firstPaymentDefaultRate',
  'lockedShare',
  'writtenOff',
  'writeOffRatio',
] as const;

const PAGE = 1000;

export function ageingSource(db: DbOrTrx, partnerId: string, asOf: Date, graceHours: number): ReportSource {
  return {
    header: AGEING_COLUMNS,
    async *pages() {
      let after: string | null = null;
      for (;;) {
        const orders = await ageingOrdersPage(db, partnerId, asOf, graceHours, after, PAGE);
        if (orders.length === 0) return;
        yield orders.map((order) => [
          order.financeOrderId,
          order.merchantId,
          text(order.deviceModel),
          isoTime(order.orderedAt),
          isoTime(order.paidThrough),
          order.daysPastDue,
          order.bucket,
          majorUnitsOf(order.outstandingMinor, order.currency),
          order.currency,
        ]);
        if (orders.length < PAGE) return;
        after = orders[orders.length - 1]!.financeOrderId;
      }
    },
  };
}

type SnapshotRecord = Omit<PortfolioSnapshotRow, 'partner_id'>;

/** A page of the partner's snapshots from day `from` to day `to` (YYYY-MM-DD, inclusive), by day then currency. */
function snapshotsPage(
  db: DbOrTrx,
  partnerId: string,
  from: string,
  to: string,
  after: { day: string; currency: string } | null,
): Promise<SnapshotRecord[]> {
  const query = db('portfolio_snapshots')
    .select(
      db.raw("to_char(day, 'YYYY-MM-DD') as day"),
      db.raw('trim(currency) as currency'),
      'as_of',
      'open_orders',
      'outstanding_minor',
      'par30_minor',
      'par60_minor',
      'par90_minor',
      'locked_orders',
      'collected_minor',
      'due_minor',
      'first_payment_defaulted',
      'first_payment_eligible',
      'written_off_minor',
      'period_start_outstanding_minor',
    )
    .where('partner_id', partnerId)
    .whereRaw('day between ?::date and ?::date', [from, to])
    .orderBy(['day', 'currency'])
    .limit(PAGE);
  if (after) query.whereRaw('(day, currency) > (?::date, ?)', [after.day, after.currency]);
  return query as Promise<SnapshotRecord[]>;
}

const big = (value: string | number) => BigInt(value);

export function historySource(db: DbOrTrx, partnerId: string, start: Date, end: Date): ReportSource {
  const from = start.toISOString().slice(0, 10);
  const to = end.toISOString().slice(0, 10);
  return {
    header: HISTORY_COLUMNS,
    async *pages() {
      let after: { day: string; currency: string } | null = null;
      for (;;) {
        const snapshots = await snapshotsPage(db, partnerId, from, to, after);
        if (snapshots.length === 0) return;
        yield snapshots.map((s) => {
          const outstanding = big(s.outstanding_minor);
          const writtenOff = big(s.written_off_minor);
          return [
            s.day,
            s.currency,
            isoTime(s.as_of),
            s.open_orders,
            majorUnitsOf(outstanding, s.currency),
            formatRatio(big(s.par30_minor), outstanding),
            formatRatio(big(s.par60_minor), outstanding),
            formatRatio(big(s.par90_minor), outstanding),
            formatRatio(big(s.collected_minor), big(s.due_minor)),
            formatRatio(BigInt(s.first_payment_defaulted), BigInt(s.first_payment_eligible)),
            formatRatio(BigInt(s.locked_orders), BigInt(s.open_orders)),
            majorUnitsOf(writtenOff, s.currency),
            // Over the mean of two outstandings: 2 × written off ÷ their sum, exactly.
            formatRatio(2n * writtenOff, big(s.period_start_outstanding_minor) + outstanding),
          ];
        });
        if (snapshots.length < PAGE) return;
        const last = snapshots[snapshots.length - 1]!;
        after = { day: last.day, currency: last.currency };
      }
    },
  };
}
