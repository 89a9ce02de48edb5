// The changes of a partner's policy: its settings (operators) and its sandbox clock (operators, and a
// partner key its own partner's: decisions.md 15 and 46). Each applies the committed policy to this
// instance at once; the others hear it from Postgres.
import type { Resolvers } from '../../__generated__/resolvers.js';
import { forbidden } from '../../kernel/errors.js';
import type { Context } from '../../pipeline/context.js';
import { callerActor, operatorActor } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { requirePartnerTenant, requirePrincipal } from '../auth/principal.js';
import { requireId } from '../inputs.js';
import { requireSandbox } from '../partners/clock.js';
import { resetSandboxClock, setSandboxClock, updatePartnerSettings } from './changes.js';

/** The partner's sandbox clock once its policy is applied here; a reset one shows real time. */
function sandboxClockAfter(ctx: Context, partnerId: string) {
  const realNow = ctx.now();
  return ctx.partnerPolicies.sandboxClockOf(partnerId) ?? { partnerId, now: realNow, realNow };
}

/**
 * Who moves partner `partnerId`'s sandbox clock, as the trail names them: an operator any partner's, a
 * partner key its own partner's only; retail and vendor keys none (FORBIDDEN).
 */
function clockMover(ctx: Context, partnerId: string): AuditActor {
  if (requirePrincipal(ctx).kind === 'operator') return operatorActor(ctx);
  const own = requirePartnerTenant(ctx, ['partner']);
  if (partnerId !== own) throw forbidden("a partner key moves only its own partner's sandbox clock");
  return callerActor(ctx);
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
      const actor = clockMover(ctx, input.partnerId);
      requireSandbox(ctx.production);
      const partnerId = requireId('partner', input.partnerId);
      ctx.partnerPolicies.apply(
        await setSandboxClock(ctx.primary, actor, partnerId, new Date(input.now * 1000), ctx.now),
      );
      return sandboxClockAfter(ctx, partnerId);
    },
    resetSandboxClock: async (_root, { partnerId }, ctx) => {
      const actor = clockMover(ctx, partnerId);
      requireSandbox(ctx.production);
      const id = requireId('partner', partnerId);
      ctx.partnerPolicies.apply(await resetSandboxClock(ctx.primary, actor, id, ctx.now));
      return sandboxClockAfter(ctx, id);
    },
  },
};
