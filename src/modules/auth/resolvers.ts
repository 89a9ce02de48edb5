import type { Resolvers } from '../../__generated__/resolvers.js';
import { AppError, invalidApiKey } from '../../kernel/errors.js';
import { authenticateCredential, requirePrincipal } from './principal.js';
import { GRAPH_KEY_KINDS } from './rows.js';
import { issueAccessToken } from './tokens.js';

const PRINCIPAL_KINDS = { partner: 'PARTNER', vendor: 'VENDOR', operator: 'OPERATOR' } as const;

export const authResolvers: Resolvers = {
  Query: {
    viewer: (_root, _args, ctx) => requirePrincipal(ctx),
  },
  Mutation: {
    createAccessToken: async (_root, { apiKey }, ctx) => {
      const now = ctx.now();
      // The argument is a credential like a header's: the same checks and the same request limits.
      const { principal } = await authenticateCredential(
        { db: ctx.primary, tokens: ctx.tokens, now, accounting: ctx.credentialLimits },
        { value: apiKey, expected: 'an API key', presentedAs: 'apiKey argument', keyOnly: true },
      );
      // The rule for both doors (the token route passes its body's apiKey here, a missing one as ''):
      // no key is MISSING_API_KEY, any key that does not authenticate INVALID_API_KEY.
      if (!principal && apiKey === '') {
        throw new AppError('MISSING_API_KEY', 'the action is not authorized: apiKey is a required field');
      }
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
  },
  Viewer: {
    kind: (principal) => PRINCIPAL_KINDS[principal.kind],
    keyKind: (principal) => GRAPH_KEY_KINDS[principal.keyKind],
    viaAccessToken: (principal) => principal.viaToken,
    partner: (principal, _args, ctx) =>
      principal.kind === 'partner' ? ctx.reads.loaders.partners.byId.load(principal.partnerId) : null,
    paymentVendor: (principal, _args, ctx) =>
      principal.kind === 'vendor' ? ctx.reads.loaders.paymentVendors.byId.load(principal.vendorId) : null,
  },
};
