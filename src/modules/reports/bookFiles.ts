// The AGEING and PORTFOLIO_HISTORY files (docs/decisions.md 45, docs/integrating.md#report-files): the
// open orders as of a moment with their buckets (book/ageing.ts), and the stored daily snapshots with
// their ratios computed as the graph computes them (book/ratios.ts), page by page.
import type { DbOrTrx } from '../../db/knex.js';
import { ageingOrdersPage } from '../book/ageing.js';
import { portfolioRatiosOf } from '../book/ratios.js';
import { historyPointOf, snapshotsPage } from '../book/snapshots.js';
import { isoTime, majorUnitsOf, text } from './csv.js';
import type { ReportSource } from './rows.js';

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

export function historySource(db: DbOrTrx, partnerId: string, start: Date, end: Date): ReportSource {
  const from = start.toISOString().slice(0, 10);
  const to = end.toISOString().slice(0, 10);
  return {
    header: HISTORY_COLUMNS,
    async *pages() {
      let after: { day: string; currency: string } | null = null;
      for (;;) {
        const snapshots = await snapshotsPage(db, partnerId, from, to, after, PAGE);
        if (snapshots.length === 0) return;
        yield snapshots.map((row) => {
          const { metrics } = historyPointOf(row);
          const ratios = portfolioRatiosOf(metrics);
          return [
            row.day,
            metrics.currency,
            isoTime(metrics.asOf),
            metrics.openOrders,
            majorUnitsOf(metrics.outstandingMinor, metrics.currency),
            ratios.par30,
            ratios.par60,
            ratios.par90,
            ratios.collectionRate,
            ratios.firstPaymentDefaultRate,
            ratios.lockedShare,
            majorUnitsOf(metrics.writtenOffMinor, metrics.currency),
            ratios.writeOffRatio,
          ];
        });
        if (snapshots.length < PAGE) return;
        const last = snapshots[snapshots.length - 1]!;
        after = { day: last.day, currency: last.currency };
      }
    },
  };
}
