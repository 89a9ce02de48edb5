import type { Resolvers } from '../../__generated__/resolvers.js';
import { isDatabaseId } from '../../ids.js';
import { canSeePartner, requireOperator } from '../auth/principal.js';
import { listPartners } from './queries.js';

export const partnerResolvers: Resolvers = {
  Query: {
    partner: (_root, { id }, ctx) => {
      if (!isDatabaseId(id) || !canSeePartner(ctx, id)) return null;
      return ctx.loaders.partners.byId.load(id);
    },
    partners: (_root, _args, ctx) => {
      requireOperator(ctx);
      return listPartners(ctx.db);
    },
  },
  // A Partner object is only ever handed out after the checks above, so its fields need none.
  Partner: {
    merchants: (partner, _args, ctx) => ctx.loaders.merchants.byPartner.load(partner.id),
    clerks: (partner, _args, ctx) => ctx.loaders.clerks.byPartner.load(partner.id),
  },
};
