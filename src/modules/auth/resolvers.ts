import type { Resolvers } from '../../__generated__/resolvers.js';
import { AppError, invalidApiKey, invalidArgument, notFound } from '../../errors.js';
import { isDatabaseId } from '../../ids.js';
import { requireId } from '../inputs.js';
import { displayPrefix, generateApiKey, hashApiKey } from './keys.js';
import { requireOperator, requirePrincipal } from './principal.js';
import { findActiveApiKey, insertApiKey, listApiKeys, revokeApiKey } from './queries.js';
import type { ApiKeyKind } from './rows.js';
import { issueAccessToken } from './tokens.js';

const KEY_KINDS = { partner: 'PARTNER', retail: 'RETAIL', vendor: 'VENDOR', operator: 'OPERATOR' } as const;
const PRINCIPAL_KINDS = { partner: 'PARTNER', vendor: 'VENDOR', operator: 'OPERATOR' } as const;
const OWNER_FIELD = { partner: 'partnerId', retail: 'partnerId', vendor: 'paymentVendorId', operator: 'operatorId' } as const;
const OWNER_TABLE = { partnerId: 'partners', paymentVendorId: 'payment_vendors', operatorId: 'operators' } as const;

export const authResolvers: Resolvers = {
  Query: {
    viewer: (_root, _args, ctx) => requirePrincipal(ctx),
    apiKeys: (_root, { partnerId, paymentVendorId }, ctx) => {
      requireOperator(ctx);
      if ((partnerId != null && !isDatabaseId(partnerId)) || (paymentVendorId != null && !isDatabaseId(paymentVendorId))) return [];
      return listApiKeys(ctx.db, { partnerId: partnerId ?? undefined, vendorId: paymentVendorId ?? undefined });
    },
  },
  Mutation: {
    createAccessToken: async (_root, { apiKey }, ctx) => {
      const now = ctx.now();
      const key = apiKey ? await findActiveApiKey(ctx.db, hashApiKey(apiKey), now) : undefined;
      if (!key) throw new AppError('INVALID_API_KEY', `the action is not authorized: ${invalidApiKey().message}`);
      // Partner and retail keys are used as they are; only vendors and operators trade keys for tokens.
      if (key.kind !== 'vendor' && key.kind !== 'operator') {
        throw new AppError('INVALID_API_KEY', 'the action is not authorized: partner and retail keys are used directly; only vendor and operator keys buy access tokens');
      }
      const { token, claims } = issueAccessToken(ctx.tokens, key.id, now);
      return { accessToken: token, tokenType: 'Bearer', expiresIn: claims.expiresAt - claims.issuedAt, expiresAt: claims.expiresAt };
    },
    createApiKey: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const kind = input.kind.toLowerCase() as ApiKeyKind;
      const ownerField = OWNER_FIELD[kind];
      const ownerId = input[ownerField];
      if (!ownerId) throw invalidArgument(`input.${ownerField}`, `is required for a ${input.kind} key`);
      for (const other of Object.values(OWNER_FIELD)) {
        if (other !== ownerField && input[other]) throw invalidArgument(`input.${other}`, `must not be given for a ${input.kind} key`);
      }
      requireId(ownerField.replace(/Id$/, ''), ownerId);
      const owner = await ctx.db(OWNER_TABLE[ownerField]).where({ id: ownerId }).first('id');
      if (!owner) throw notFound(ownerField.replace(/Id$/, ''), ownerId);
      if (input.expiresAt != null && input.expiresAt * 1000 <= ctx.now().getTime()) {
        throw invalidArgument('input.expiresAt', 'must be in the future');
      }
      const secret = generateApiKey(kind);
      const row = await insertApiKey(ctx.db, {
        key_hash: hashApiKey(secret),
        display_prefix: displayPrefix(secret),
        kind,
        partner_id: ownerField === 'partnerId' ? ownerId : null,
        vendor_id: ownerField === 'paymentVendorId' ? ownerId : null,
        operator_id: ownerField === 'operatorId' ? ownerId : null,
        label: input.label?.trim() || null,
        expires_at: input.expiresAt != null ? new Date(input.expiresAt * 1000) : null,
      });
      ctx.logger.info({ apiKeyId: row.id, kind, operatorKeyId: requirePrincipal(ctx).keyId }, 'api key created');
      return { apiKey: row, secret };
    },
    revokeApiKey: async (_root, { id }, ctx) => {
      requireOperator(ctx);
      const row = await revokeApiKey(ctx.db, requireId('API key', id), ctx.now());
      if (!row) throw notFound('API key', id);
      if (row.id === requirePrincipal(ctx).keyId) ctx.logger.warn({ apiKeyId: row.id }, 'an operator revoked the key of its own request');
      ctx.logger.info({ apiKeyId: row.id, operatorKeyId: requirePrincipal(ctx).keyId }, 'api key revoked');
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
    displayPrefix: (key) => key.display_prefix,
    partner: (key, _args, ctx) => (key.partner_id ? ctx.loaders.partners.byId.load(key.partner_id) : null),
    paymentVendor: (key, _args, ctx) => (key.vendor_id ? ctx.loaders.paymentVendors.byId.load(key.vendor_id) : null),
    operatorId: (key) => key.operator_id,
    createdAt: (key) => key.created_at,
    expiresAt: (key) => key.expires_at,
    revokedAt: (key) => key.revoked_at,
    active: (key, _args, ctx) => key.revoked_at === null && (key.expires_at === null || key.expires_at.getTime() > ctx.now().getTime()),
  },
};
