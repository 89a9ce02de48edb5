// The book's history in the graph (decisions.md 45): portfolioHistory answers the stored daily
// snapshots, after the same check as portfolioMetrics (access.ts); each point's metrics are
// PortfolioSums, shaped into money and ratios by the PortfolioMetrics field resolvers (resolvers.ts),
// as portfolioMetrics' rows are.
import type { Resolvers } from '../../__generated__/resolvers.js';
import { readableBookPartner } from './access.js';
import { historyDays, historyPointOf, snapshotsBetween } from './snapshots.js';

export const portfolioHistoryResolvers: Resolvers = {
  Query: {
    portfolioHistory: async (_root, { partnerId, from, to, interval }, ctx) => {
      const partner = await readableBookPartner(ctx, partnerId);
      const days = historyDays(from, to, interval ?? 'DAY');
      return (await snapshotsBetween(ctx.reads.db, partner, days)).map(historyPointOf);
    },
  },
};
