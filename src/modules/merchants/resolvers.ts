import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { operatorActor } from '../audit/record.js';
import { requireOperator, requirePartnerTenant } from '../auth/principal.js';
import { column } from '../columns.js';
import { optionalText, requireText } from '../inputs.js';
import { pageOf } from '../pages.js';
import { requireExistingPartner } from '../partners/guards.js';
import { createMerchant } from './create.js';
import { merchantsOfPartner } from './queries.js';

export const merchantResolvers: Resolvers = {
  Query: {
    merchants: (_root, { first, after }, ctx, info) =>
      merchantsOfPartner(ctx.reads.db, requirePartnerTenant(ctx), pageOf(pageSizeOf(info, first), after)),
    merchant: (_root, { id }, ctx) => {
      const partnerId = requirePartnerTenant(ctx);
      return isDatabaseId(id) ? ctx.reads.loaders.merchants.byKey.load({ partnerId, id }) : null;
    },
  },
  Mutation: {
    createMerchant: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.primary, input.partnerId);
      const country = input.address.country.trim().toUpperCase();
      if (!/^[A-Z]{2}$/.test(country))
        throw invalidArgument('input.address.country', 'must be an ISO 3166-1 alpha-2 code such as US');
      const row = {
        partner_id: partnerId,
        name: requireText('input.name', input.name),
        street: requireText('input.address.street', input.address.street),
        street2: optionalText('input.address.street2', input.address.street2),
        city: requireText('input.address.city', input.address.city),
        state: requireText('input.address.state', input.address.state),
        postal_code: input.address.postalCode?.trim() ?? '',
        country,
        phone_number: requireText('input.phoneNumber', input.phoneNumber, 32),
      };
      return createMerchant(ctx.primary, operatorActor(ctx), row);
    },
  },
  Merchant: {
    phoneNumber: column('phone_number'),
    address: (merchant) => merchant,
  },
  Address: {
    postalCode: column('postal_code'),
  },
};
