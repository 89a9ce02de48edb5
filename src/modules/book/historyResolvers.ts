// The book's history in the graph (decisions.md 45): portfolioHistory answers the stored daily
// snapshots; each point's metrics are PortfolioSums, shaped into money and ratios by the
// PortfolioMetrics field resolvers, as portfolioMetrics' rows are.
import type { Resolvers } from '../../__generated__/resolvers.js';
import { forbidden, notFound } from '../../kernel/errors.js';
import type { Context } from '../../pipeline/context.js';
import { requirePrincipal } from '../auth/principal.js';
import { requireId } from '../inputs.js';
import { historyDays, historyPointOf, snapshotsBetween } from './snapshots.js';

/**
 * The partner whose book the caller asks for: a partner key its own (another: FORBIDDEN), an operator
 * any that exists (RESOURCE_NOT_FOUND otherwise); retail and vendor keys FORBIDDEN.
 */
export async function bookPartner(ctx: Context, partnerId: string): Promise<string> {
  const principal = requirePrincipal(ctx);
  if (principal.kind === 'operator') {
    requireId('partner', partnerId);
    if (!(await ctx.reads.loaders.partners.byId.load(partnerId))) throw notFound('partner', partnerId);
    return partnerId;
  }
  if (principal.kind === 'partner' && principal.keyKind === 'partner') {
    if (partnerId !== principal.partnerId) throw forbidden("a partner key reads its own partner's book only");
    return partnerId;
  }
  throw forbidden(`the book is read with a partner key or an operator key; a ${principal.keyKind} key cannot read it`);
}

export const portfolioHistoryResolvers: Resolvers = {
  Query: {
    portfolioHistory: async (_root, { partnerId, from, to, interval }, ctx) => {
      const partner = await bookPartner(ctx, partnerId);
      const days = historyDays(from, to, interval ?? 'DAY');
      return (await snapshotsBetween(ctx.reads.db, partner, days)).map(historyPointOf);
    },
  },
};
