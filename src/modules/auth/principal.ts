// Who is calling, decided once per request in createContext from the credential the request carried.
// Resolvers ask the guards below; they never look at keys themselves.
import type { DbOrTrx } from '../../db/knex.js';
import { forbidden, invalidApiKey, missingApiKey } from '../../errors.js';
import { hashApiKey } from './keys.js';
import { findActiveApiKey } from './queries.js';
import type { ApiKeyRow } from './rows.js';

export type Principal =
  | { kind: 'partner'; keyKind: 'partner' | 'retail'; keyId: string; partnerId: string }
  | { kind: 'vendor'; keyKind: 'vendor'; keyId: string; vendorId: string }
  | { kind: 'operator'; keyKind: 'operator'; keyId: string; operatorId: string };

/** The outcome of authenticating a request: a principal, or why there is none. */
export type Authentication =
  | { principal: Principal }
  | { principal: null; failure: 'MISSING_API_KEY' | 'INVALID_API_KEY' };

/** A credential as the request presented it, and where, so errors can name the place. */
export interface Credential {
  value: string | undefined;
  /** e.g. "key query parameter", "X-Api-Key header". */
  presentedAs: string;
}

function principalOf(key: ApiKeyRow): Principal {
  switch (key.kind) {
    case 'partner':
    case 'retail':
      return { kind: 'partner', keyKind: key.kind, keyId: key.id, partnerId: key.partner_id! };
    case 'vendor':
      return { kind: 'vendor', keyKind: 'vendor', keyId: key.id, vendorId: key.vendor_id! };
    case 'operator':
      return { kind: 'operator', keyKind: 'operator', keyId: key.id, operatorId: key.operator_id! };
  }
}

export async function authenticate(db: DbOrTrx, credential: string | undefined, now: Date): Promise<Authentication> {
  if (credential === undefined || credential === '') return { principal: null, failure: 'MISSING_API_KEY' };
  const key = await findActiveApiKey(db, hashApiKey(credential), now);
  return key ? { principal: principalOf(key) } : { principal: null, failure: 'INVALID_API_KEY' };
}

interface AuthContext {
  auth: Authentication;
  credential: Credential;
}

/** The caller's principal; MISSING_API_KEY or INVALID_API_KEY when there is none. */
export function requirePrincipal(ctx: AuthContext): Principal {
  if (ctx.auth.principal) return ctx.auth.principal;
  throw ctx.auth.failure === 'MISSING_API_KEY' ? missingApiKey(ctx.credential.presentedAs) : invalidApiKey();
}

const KEY_KIND_NAMES = { partner: 'a partner key', retail: 'a retail key', vendor: 'a vendor key', operator: 'an operator key' } as const;

/**
 * The partner whose data the caller may read or write: its own, for partner-principal keys of the
 * allowed kinds. Any other principal or key kind is FORBIDDEN.
 */
export function requirePartnerTenant(
  ctx: AuthContext,
  allowedKeyKinds: ReadonlyArray<'partner' | 'retail'> = ['partner', 'retail'],
): string {
  const principal = requirePrincipal(ctx);
  if (principal.kind === 'partner' && allowedKeyKinds.includes(principal.keyKind)) return principal.partnerId;
  const allowed = allowedKeyKinds.map((kind) => KEY_KIND_NAMES[kind]).join(' or ');
  const hint = principal.kind === 'operator' ? '; operators read a partner through partner(id)' : '';
  throw forbidden(`this needs ${allowed}; ${KEY_KIND_NAMES[principal.keyKind]} cannot use it${hint}`);
}

/** Operators only. */
export function requireOperator(ctx: AuthContext): string {
  const principal = requirePrincipal(ctx);
  if (principal.kind === 'operator') return principal.operatorId;
  throw forbidden(`this needs an operator key; ${KEY_KIND_NAMES[principal.keyKind]} cannot use it`);
}

/**
 * Whether the caller may see partner `partnerId`: operators see all, partner keys their own. A
 * partner asking for another partner is answered as if it did not exist (404, never 403: no probing).
 */
export function canSeePartner(ctx: AuthContext, partnerId: string): boolean {
  const principal = requirePrincipal(ctx);
  if (principal.kind === 'operator') return true;
  return principal.kind === 'partner' && principal.partnerId === partnerId;
}
