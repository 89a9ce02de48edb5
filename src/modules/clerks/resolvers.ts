import type { Resolvers } from '../../__generated__/resolvers.js';
import { isDatabaseId } from '../../ids.js';
import { requirePartnerTenant } from '../auth/principal.js';

export const clerkResolvers: Resolvers = {
  Query: {
    clerks: (_root, _args, ctx) => ctx.loaders.clerks.byPartner.load(requirePartnerTenant(ctx)),
    clerk: (_root, { id }, ctx) => {
      const partnerId = requirePartnerTenant(ctx);
      return isDatabaseId(id) ? ctx.loaders.clerks.byKey.load({ partnerId, id }) : null;
    },
  },
  Clerk: {
    personUuid: (clerk) => clerk.person_uuid,
    phoneNumber: (clerk) => clerk.phone_number,
  },
};
