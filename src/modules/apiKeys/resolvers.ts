// Operators managing API keys through the graph: listing, creating and revoking them (admin.ts holds
// the rules and writes the audit record), and the ApiKey type.
import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { operatorActor } from '../audit/record.js';
import { isActiveKey } from '../auth/activeKey.js';
import { requireOperator } from '../auth/principal.js';
import { listApiKeys } from '../auth/queries.js';
import { type ApiKeyKind, GRAPH_KEY_KINDS } from '../auth/rows.js';
import { column } from '../columns.js';
import { requireId } from '../inputs.js';
import { createApiKeyFor, revokeApiKeyAs } from './admin.js';

const OWNER_FIELD = {
  partner: 'partnerId',
  retail: 'partnerId',
  vendor: 'paymentVendorId',
  operator: 'operatorId',
} as const;

export const apiKeyResolvers: Resolvers = {
  Query: {
    apiKeys: (_root, { partnerId, paymentVendorId, first }, ctx, info) => {
      requireOperator(ctx);
      const limit = pageSizeOf(info, first);
      if (
        (partnerId != null && !isDatabaseId(partnerId)) ||
        (paymentVendorId != null && !isDatabaseId(paymentVendorId))
      )
        return [];
      return listApiKeys(
        ctx.reads.db,
        { partnerId: partnerId ?? undefined, vendorId: paymentVendorId ?? undefined },
        limit,
      );
    },
  },
  Mutation: {
    createApiKey: async (_root, { input }, ctx) => {
      const actor = operatorActor(ctx);
      const kind = input.kind.toLowerCase() as ApiKeyKind;
      const ownerField = OWNER_FIELD[kind];
      const ownerId = input[ownerField];
      if (!ownerId) throw invalidArgument(`input.${ownerField}`, `is required for a ${input.kind} key`);
      for (const other of Object.values(OWNER_FIELD)) {
        if (other !== ownerField && input[other])
          throw invalidArgument(`input.${other}`, `must not be given for a ${input.kind} key`);
      }
      requireId(ownerField.replace(/Id$/, ''), ownerId);
      const { row, secret } = await createApiKeyFor(
        ctx.primary,
        {
          kind,
          ownerId,
          label: input.label,
          expiresAt: input.expiresAt != null ? new Date(input.expiresAt * 1000) : null,
        },
        actor,
        ctx.now(),
      );
      ctx.logger.info({ apiKeyId: row.id, kind, operatorKeyId: actor.keyId }, 'api key created');
      return { apiKey: row, secret };
    },
    revokeApiKey: async (_root, { id }, ctx) => {
      const actor = operatorActor(ctx);
      const row = await revokeApiKeyAs(ctx.primary, requireId('API key', id), actor, ctx.now());
      ctx.logger.info({ apiKeyId: row.id, operatorKeyId: actor.keyId }, 'api key revoked');
      return row;
    },
  },
  ApiKey: {
    kind: (key) => GRAPH_KEY_KINDS[key.kind],
    displayPrefix: column('display_prefix'),
    partner: (key, _args, ctx) => (key.partner_id ? ctx.reads.loaders.partners.byId.load(key.partner_id) : null),
    paymentVendor: (key, _args, ctx) =>
      key.vendor_id ? ctx.reads.loaders.paymentVendors.byId.load(key.vendor_id) : null,
    operatorId: column('operator_id'),
    createdAt: column('created_at'),
    expiresAt: column('expires_at'),
    revokedAt: column('revoked_at'),
    active: (key, _args, ctx) => isActiveKey(key, ctx.now()),
  },
};
