import type { Resolvers } from '../../__generated__/resolvers.js';
import { requirePrincipal } from './principal.js';

const KEY_KINDS = { partner: 'PARTNER', retail: 'RETAIL', vendor: 'VENDOR', operator: 'OPERATOR' } as const;
const PRINCIPAL_KINDS = { partner: 'PARTNER', vendor: 'VENDOR', operator: 'OPERATOR' } as const;

export const authResolvers: Resolvers = {
  Query: {
    viewer: (_root, _args, ctx) => requirePrincipal(ctx),
  },
  Viewer: {
    kind: (principal) => PRINCIPAL_KINDS[principal.kind],
    keyKind: (principal) => KEY_KINDS[principal.keyKind],
    partner: (principal, _args, ctx) =>
      principal.kind === 'partner' ? ctx.loaders.partners.byId.load(principal.partnerId) : null,
  },
};
