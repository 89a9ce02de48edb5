// The operators' changes of a partner's policy: its settings and its sandbox clock (decisions.md 15).
// Each applies the committed policy to this instance at once; the others hear it from Postgres.
import type { Resolvers } from '../../__generated__/resolvers.js';
import type { Context } from '../../pipeline/context.js';
import { operatorActor } from '../audit/record.js';
import { requireId } from '../inputs.js';
import { requireSandbox } from '../partners/clock.js';
import { resetSandboxClock, setSandboxClock, updatePartnerSettings } from './changes.js';

/** The partner's sandbox clock once its policy is applied here; a reset one shows real time. */
function sandboxClockAfter(ctx: Context, partnerId: string) {
  const realNow = ctx.now();
  return ctx.partnerPolicies.sandboxClockOf(partnerId) ?? { partnerId, now: realNow, realNow };
}

export const partnerPolicyResolvers: Resolvers = {
  Mutation: {
    updatePartnerSettings: async (_root, { input }, ctx) => {
      const actor = operatorActor(ctx);
      const { partnerId, ...change } = input;
      const { after } = await updatePartnerSettings(ctx.primary, actor, requireId('partner', partnerId), change);
      ctx.partnerPolicies.apply(after);
      return (await ctx.reads.loaders.partners.byId.load(partnerId))!;
    },
    setSandboxClock: async (_root, { input }, ctx) => {
      const actor = operatorActor(ctx);
      requireSandbox(ctx.production);
      const partnerId = requireId('partner', input.partnerId);
      ctx.partnerPolicies.apply(
        await setSandboxClock(ctx.primary, actor, partnerId, new Date(input.now * 1000), ctx.now),
      );
      return sandboxClockAfter(ctx, partnerId);
    },
    resetSandboxClock: async (_root, { partnerId }, ctx) => {
      const actor = operatorActor(ctx);
      requireSandbox(ctx.production);
      const id = requireId('partner', partnerId);
      ctx.partnerPolicies.apply(await resetSandboxClock(ctx.primary, actor, id, ctx.now));
      return sandboxClockAfter(ctx, id);
    },
  },
};
