import type { Resolvers } from '../../__generated__/resolvers.js';
import { isDatabaseId } from '../../ids.js';
import { requirePartnerTenant } from '../auth/principal.js';

export const merchantResolvers: Resolvers = {
  Query: {
    merchants: (_root, _args, ctx) => ctx.loaders.merchants.byPartner.load(requirePartnerTenant(ctx)),
    merchant: (_root, { id }, ctx) => {
      const partnerId = requirePartnerTenant(ctx);
      return isDatabaseId(id) ? ctx.loaders.merchants.byKey.load({ partnerId, id }) : null;
    },
  },
  Merchant: {
    phoneNumber: (merchant) => merchant.phone_number,
    address: (merchant) => merchant,
  },
  Address: {
    postalCode: (merchant) => merchant.postal_code,
  },
};
