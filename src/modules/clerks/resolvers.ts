import { randomUUID } from 'node:crypto';
import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { operatorActor } from '../audit/record.js';
import { requireOperator, requirePartnerTenant } from '../auth/principal.js';
import { column } from '../columns.js';
import { requireText } from '../inputs.js';
import { pageOf } from '../pages.js';
import { requireExistingPartner } from '../partners/guards.js';
import { createClerk } from './create.js';
import { clerksOfPartner } from './queries.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const clerkResolvers: Resolvers = {
  Query: {
    clerks: (_root, { first, after }, ctx, info) =>
      clerksOfPartner(ctx.reads.db, requirePartnerTenant(ctx), pageOf(pageSizeOf(info, first), after)),
    clerk: (_root, { id }, ctx) => {
      const partnerId = requirePartnerTenant(ctx);
      return isDatabaseId(id) ? ctx.reads.loaders.clerks.byKey.load({ partnerId, id }) : null;
    },
  },
  Mutation: {
    createClerk: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.primary, input.partnerId);
      const personUuid = input.personUuid ?? randomUUID();
      if (!UUID.test(personUuid)) throw invalidArgument('input.personUuid', 'must be a UUID');
      const row = {
        partner_id: partnerId,
        person_uuid: personUuid.toLowerCase(),
        name: requireText('input.name', input.name),
        phone_number: requireText('input.phoneNumber', input.phoneNumber, 32),
        email: requireText('input.email', input.email),
      };
      return createClerk(ctx.primary, operatorActor(ctx), row);
    },
  },
  Clerk: {
    personUuid: column('person_uuid'),
    phoneNumber: column('phone_number'),
  },
};
