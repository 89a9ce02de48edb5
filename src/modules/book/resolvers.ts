// The graph's book (decisions.md 45): the figures and the ageing of a partner as of a moment. The
// checks are access.ts's, the SQL figures.ts's and ageing.ts's; the fields shape their sums: money
// through money.ts, every ratio through ratios.ts. PortfolioMetrics' fields serve every parent of
// that type (a history's points too): they read only the PortfolioSums they are given.
import type { Resolvers } from '../../__generated__/resolvers.js';
import { formatAmount } from '../../kernel/money.js';
import { bookMomentOf, readableBookPartner } from './access.js';
import { portfolioAgeing } from './ageing.js';
import { portfolioSums } from './figures.js';
import { portfolioRatiosOf } from './ratios.js';

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
    par30: (sums) => portfolioRatiosOf(sums).par30,
    par60: (sums) => portfolioRatiosOf(sums).par60,
    par90: (sums) => portfolioRatiosOf(sums).par90,
    collectionRate: (sums) => portfolioRatiosOf(sums).collectionRate,
    firstPaymentDefaultRate: (sums) => portfolioRatiosOf(sums).firstPaymentDefaultRate,
    lockedShare: (sums) => portfolioRatiosOf(sums).lockedShare,
    writtenOff: (sums) => formatAmount(sums.writtenOffMinor, sums.currency),
    writeOffRatio: (sums) => portfolioRatiosOf(sums).writeOffRatio,
  },
  PortfolioAgeing: {
    outstanding: (ageing) => formatAmount(ageing.outstandingMinor, ageing.currency),
  },
  PortfolioAgeingBucket: {
    outstanding: (bucket) => formatAmount(bucket.outstandingMinor, bucket.currency),
  },
};
