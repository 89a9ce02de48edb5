import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { operatorActor } from '../audit/record.js';
import { canSeePartner, requireOperator } from '../auth/principal.js';
import { column } from '../columns.js';
import { requireText } from '../inputs.js';
import { pageOf, slicePageById } from '../pages.js';
import { createPartner } from './create.js';
import { listPartners } from './queries.js';

export const partnerResolvers: Resolvers = {
  Query: {
    partner: (_root, { id }, ctx) => {
      if (!isDatabaseId(id) || !canSeePartner(ctx, id)) return null;
      return ctx.reads.loaders.partners.byId.load(id);
    },
    partners: (_root, { first, after }, ctx, info) => {
      requireOperator(ctx);
      return listPartners(ctx.reads.db, pageOf(pageSizeOf(info, first), after));
    },
  },
  Mutation: {
    createPartner: (_root, { input }, ctx) => {
      requireOperator(ctx);
      const rate = input.commissionRateBasisPoints;
      if (!Number.isInteger(rate) || rate < 0 || rate > 10_000) {
        throw invalidArgument('input.commissionRateBasisPoints', 'must be a whole number from 0 to 10000 (500 = 5%)');
      }
      const name = requireText('input.name', input.name);
      return createPartner(ctx.primary, operatorActor(ctx), { name, commissionRateBasisPoints: rate });
    },
  },
  // A Partner object is only ever handed out after the checks above, so its fields need none.
  Partner: {
    commissionRateBasisPoints: column('commission_rate_bps'),
    // Several partners' stores and staff in one statement (operators' lists), each list then paged.
    merchants: async (partner, { first, after }, ctx, info) =>
      slicePageById(
        await ctx.reads.loaders.merchants.byPartner.load(partner.id),
        pageOf(pageSizeOf(info, first), after),
      ),
    clerks: async (partner, { first, after }, ctx, info) =>
      slicePageById(await ctx.reads.loaders.clerks.byPartner.load(partner.id), pageOf(pageSizeOf(info, first), after)),
    createdAt: column('created_at'),
    settings: (partner, _args, ctx) => ctx.partnerPolicies.settingsFor(partner.id),
    sandboxClock: (partner, _args, ctx) => ctx.partnerPolicies.sandboxClockOf(partner.id),
  },
  PartnerSettings: {
    lockReminderDays: (settings) => [...settings.lockReminderDays],
    repaymentDays: (settings) => [...settings.repaymentDays],
  },
};
