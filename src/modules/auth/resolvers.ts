import type { Resolvers } from '../../__generated__/resolvers.js';
import { AppError, invalidApiKey, invalidArgument } from '../../errors.js';
import { isDatabaseId } from '../../ids.js';
import { pageSizeOf } from '../../listSize.js';
import { operatorActor } from '../audit/record.js';
import { column } from '../columns.js';
import { requireId } from '../inputs.js';
import { createApiKeyFor, revokeApiKeyAs } from './admin.js';
import { authenticateCredential, requireOperator, requirePrincipal } from './principal.js';
import { listApiKeys } from './queries.js';
import type { ApiKeyKind } from './rows.js';
import { issueAccessToken } from './tokens.js';

const KEY_KINDS = { partner: 'PARTNER', retail: 'RETAIL', vendor: 'VENDOR', operator: 'OPERATOR' } as const;
const PRINCIPAL_KINDS = { partner: 'PARTNER', vendor: 'VENDOR', operator: 'OPERATOR' } as const;
const OWNER_FIELD = {
  partner: 'partnerId',
  retail: 'partnerId',
  vendor: 'paymentVendorId',
  operator: 'operatorId',
} as const;

export const authResolvers: Resolvers = {
  Query: {
    viewer: (_root, _args, ctx) => requirePrincipal(ctx),
    apiKeys: (_root, { partnerId, paymentVendorId, first }, ctx, info) => {
      requireOperator(ctx);
      const limit = pageSizeOf(info, first);
      if (
        (partnerId != null && !isDatabaseId(partnerId)) ||
        (paymentVendorId != null && !isDatabaseId(paymentVendorId))
      )
        return [];
      return listApiKeys(ctx.db, { partnerId: partnerId ?? undefined, vendorId: paymentVendorId ?? undefined }, limit);
    },
  },
  Mutation: {
    createAccessToken: async (_root, { apiKey }, ctx) => {
      const now = ctx.now();
      // The argument is a credential like a header's: the same checks and the same request limits.
      const { principal } = await authenticateCredential(
        { db: ctx.db, tokens: ctx.tokens, now, accounting: ctx.credentialLimits },
        { value: apiKey, expected: 'an API key', presentedAs: 'apiKey argument', keyOnly: true },
      );
      if (!principal) throw new AppError('INVALID_API_KEY', `the action is not authorized: ${invalidApiKey().message}`);
      // Partner and retail keys are used as they are; only vendors and operators trade keys for tokens.
      if (principal.kind !== 'vendor' && principal.kind !== 'operator') {
        throw new AppError(
          'INVALID_API_KEY',
          'the action is not authorized: partner and retail keys are used directly; only vendor and operator keys buy access tokens',
        );
      }
      const { token, claims } = issueAccessToken(ctx.tokens, principal.keyId, now);
      return {
        accessToken: token,
        tokenType: 'Bearer',
        expiresIn: claims.expiresAt - claims.issuedAt,
        expiresAt: claims.expiresAt,
      };
    },
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
        ctx.db,
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
      const row = await revokeApiKeyAs(ctx.db, requireId('API key', id), actor, ctx.now());
      ctx.logger.info({ apiKeyId: row.id, operatorKeyId: actor.keyId }, 'api key revoked');
      return row;
    },
  },
  Viewer: {
    kind: (principal) => PRINCIPAL_KINDS[principal.kind],
    keyKind: (principal) => KEY_KINDS[principal.keyKind],
    viaAccessToken: (principal) => principal.viaToken,
    partner: (principal, _args, ctx) =>
      principal.kind === 'partner' ? ctx.loaders.partners.byId.load(principal.partnerId) : null,
    paymentVendor: (principal, _args, ctx) =>
      principal.kind === 'vendor' ? ctx.loaders.paymentVendors.byId.load(principal.vendorId) : null,
  },
  ApiKey: {
    kind: (key) => KEY_KINDS[key.kind],
    displayPrefix: column('display_prefix'),
    partner: (key, _args, ctx) => (key.partner_id ? ctx.loaders.partners.byId.load(key.partner_id) : null),
    paymentVendor: (key, _args, ctx) => (key.vendor_id ? ctx.loaders.paymentVendors.byId.load(key.vendor_id) : null),
    operatorId: column('operator_id'),
    createdAt: column('created_at'),
    expiresAt: column('expires_at'),
    revokedAt: column('revoked_at'),
    active: (key, _args, ctx) =>
      key.revoked_at === null && (key.expires_at === null || key.expires_at.getTime() > ctx.now().getTime()),
  },
};
