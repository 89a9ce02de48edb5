import type { Resolvers } from '../../__generated__/resolvers.js';

export const timelineResolvers: Resolvers = {
  // A Partner is only handed out after its checks (partners/resolvers.ts): whoever sees it sees its next lock.
  Partner: {
    nextLockAt: (partner, _args, ctx) =>
      ctx.reads.loaders.timeline.nextLockAt.load({
        partnerId: partner.id,
        now: ctx.partnerPolicies.nowFor(partner.id),
      }),
  },
};
