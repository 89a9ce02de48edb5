// The graph's book (decisions.md 45): the figures and the ageing of a partner as of a moment. The
// checks are access.ts's, the SQL figures.ts's and ageing.ts's; the fields shape their sums: money
// through money.ts, every ratio through ratios.ts. PortfolioMetrics' fields serve every parent of
// that type (a history's points too): they read only the PortfolioSums they are given.
import type { Resolvers } from '../../__generated__/resolvers.js';
import { formatAmount } from '../../kernel/money.js';
import { bookMomentOf, readableBookPartner } from './access.js';
import { portfolioAgeing } from './ageing.js';
import { portfolioSums } from './figures.js';
import { formatRatio } from './ratios.js';

export const bookResolvers: Resolvers = {
  Query: {
    portfolioMetrics: async (_root, { partnerId, asOf, groupBy }, ctx) => {
      const partner = await readableBookPartner(ctx, partnerId);
      return portfolioSums(ctx.reads.db, bookMomentOf(ctx, partner, asOf), groupBy ?? 'NONE');
    },
    portfolioAgeing: async (_root, { partnerId, asOf }, ctx) => {
      const partner = await readableBookPartner(ctx, partnerId);
      return portfolioAgeing(ctx.reads.db, bookMomentOf(ctx, partner, asOf));
    },
  },
  PortfolioMetrics: {
    outstanding: (sums) => formatAmount(sums.outstandingMinor, sums.currency),
    par30: (sums) => formatRatio(sums.par30Minor, sums.outstandingMinor),
    par60: (sums) => formatRatio(sums.par60Minor, sums.outstandingMinor),
    par90: (sums) => formatRatio(sums.par90Minor, sums.outstandingMinor),
    collectionRate: (sums) => formatRatio(sums.collectedMinor, sums.dueMinor),
    firstPaymentDefaultRate: (sums) => formatRatio(sums.firstPaymentDefaulted, sums.firstPaymentEligible),
    lockedShare: (sums) => formatRatio(sums.lockedOrders, sums.openOrders),
    writtenOff: (sums) => formatAmount(sums.writtenOffMinor, sums.currency),
    // writtenOff ÷ ((start + end) / 2), as writtenOff × 2 ÷ (start + end): exact integers throughout.
    writeOffRatio: (sums) =>
      formatRatio(sums.writtenOffMinor * 2n, sums.periodStartOutstandingMinor + sums.outstandingMinor),
  },
  PortfolioAgeing: {
    outstanding: (ageing) => formatAmount(ageing.outstandingMinor, ageing.currency),
  },
  PortfolioAgeingBucket: {
    outstanding: (bucket) => formatAmount(bucket.outstandingMinor, bucket.currency),
  },
};
