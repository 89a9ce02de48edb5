// Who is calling, decided once per request in createContext from the credential the request carried
// (an API key, or an access token bought with one). Resolvers ask the guards below; they never look
// at keys or tokens themselves.
import type { DbOrTrx } from '../../db/knex.js';
import type { ShapedStatement } from '../../db/prepared.js';
import { type AppError, forbidden, invalidAccessToken, invalidApiKey, missingApiKey } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { couldBeValidKey, hashApiKey, kindOfGeneratedKey, sameHash } from './keys.js';
import {
  activeKeyByHash,
  findActiveApiKeyById,
  findActiveApiKeyInTurns,
  findActiveApiKeyWithWrite,
} from './queries.js';
import type { ApiKeyRow } from './rows.js';
import { looksLikeAccessToken, type TokenSettings, verifyAccessToken } from './tokens.js';

interface PrincipalBase {
  keyId: string;
  /** True when the request carried an access token rather than the key itself. */
  viaToken: boolean;
  /**
   * When the credential stops being valid by itself: the key's expiry or the access token's `exp`,
   * whichever comes first; null: never (until revoked). A long-lived connection closes then.
   */
  expiresAt: Date | null;
}

export type Principal =
  | (PrincipalBase & { kind: 'partner'; keyKind: 'partner' | 'retail'; partnerId: string })
  | (PrincipalBase & { kind: 'vendor'; keyKind: 'vendor'; vendorId: string })
  | (PrincipalBase & { kind: 'operator'; keyKind: 'operator'; operatorId: string });

/** Who made a request, as a log line shows it: never the key or token itself. */
export interface LoggedPrincipal {
  kind: Principal['kind'];
  keyKind: Principal['keyKind'];
  keyId: string;
  viaToken: boolean;
}

/** The one description of a principal for logs (null: no principal, or authentication failed). */
export function principalForLog(principal: Principal | null | undefined): LoggedPrincipal | null {
  if (!principal) return null;
  return { kind: principal.kind, keyKind: principal.keyKind, keyId: principal.keyId, viaToken: principal.viaToken };
}

/**
 * The outcome of authenticating a request: a principal, or the error to answer without one. With a
 * read replica, `writtenLsn` is where the key last wrote (null: not lately), for reading its own writes.
 */
export type Authentication =
  | { principal: Principal; writtenLsn?: string | null }
  | { principal: null; failure: AppError };

/** A credential as the request presented it, and where, so errors can name the place. */
export interface Credential {
  value: string | undefined;
  /** What the door expects, for messages: "an API key", "an access token". */
  expected: string;
  /** e.g. "key query parameter", "X-Api-Key header". */
  presentedAs: string;
  /** Only an API key will do (createAccessToken's argument): a token is not read as one, so buys no token. */
  keyOnly?: boolean;
}

/**
 * The request limits' accounting around a credential's lookup (pipeline/rateLimits/requestLimits.ts keeps the
 * counts): the same calls for a header, a query parameter, or createAccessToken's argument.
 */
interface CredentialAccounting {
  /** 429 when this address failed authentication too often lately. */
  refuseBlockedAddress(): Promise<void>;
  /** The credential was not valid: 429 when the address is blocked already, else counted. */
  failed(): Promise<void>;
  /** The credential is API key `keyId` or a token it bought: 429 when the address is blocked, or past the key's limit. */
  accepted(keyId: string): Promise<void>;
  /**
   * Where the limits are counted in the database itself: runs `lookup` (the key by its hash) with
   * them in one statement, and accepted() for the key found answers from it (one round trip, not two).
   */
  lookUpCounted?<Row extends { id: string }>(db: DbOrTrx, lookup: ShapedStatement): Promise<Row | undefined>;
}

interface AuthenticationDeps {
  db: DbOrTrx;
  tokens: TokenSettings;
  now: Date;
  accounting: CredentialAccounting;
  /** A read replica is configured: the lookup also reads where the key last wrote (Authentication.writtenLsn). */
  withWrites?: boolean;
}

// One word after "Bearer" and nothing else (RFC 6750 section 2.1), spaces only.
const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/**
 * The credential an Authorization header carries, for both doors: undefined when there is none (or it
 * is blank); any other shape is INVALID_ACCESS_TOKEN, never silently taken for no credential.
 * `what` names what the door takes after "Bearer", for the message.
 */
export function bearerCredential(header: string | undefined, what: string): string | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = BEARER.exec(header);
  if (!match) throw invalidAccessToken(`the Authorization header must be "Bearer <${what}>"`);
  return match[1];
}

/** The earlier of two expiries (null: none). */
function earlier(first: Date | null, second: Date | null): Date | null {
  if (!first || !second) return first ?? second;
  return first.getTime() <= second.getTime() ? first : second;
}

function principalOf(key: ApiKeyRow, tokenExpiresAt: Date | null): Principal {
  const base = { keyId: key.id, viaToken: tokenExpiresAt !== null, expiresAt: earlier(key.expires_at, tokenExpiresAt) };
  switch (key.kind) {
    case 'partner':
    case 'retail':
      return { kind: 'partner', keyKind: key.kind, ...base, partnerId: key.partner_id! };
    case 'vendor':
      return { kind: 'vendor', keyKind: 'vendor', ...base, vendorId: key.vendor_id! };
    case 'operator':
      return { kind: 'operator', keyKind: 'operator', ...base, operatorId: key.operator_id! };
  }
}

/**
 * Who presented `credential`, under the request limits: the one way every credential is checked (a
 * header or query parameter in createContext, createAccessToken's apiKey). No credential is not
 * counted here: whether that is allowed is the caller's rule.
 */
export async function authenticateCredential(
  deps: AuthenticationDeps,
  credential: Credential,
): Promise<Authentication> {
  if (!credential.value) return authenticate(deps, credential);
  // The lookup, then the address's block and the outcome counted (a blocked address is refused
  // whatever the lookup found). On Postgres the key's lookup by its hash carries both limits in its
  // own statement (lookUpCounted): an API key's request costs one round trip before its work.
  const auth = await authenticate(deps, credential);
  if (auth.principal) await deps.accounting.accepted(auth.principal.keyId);
  else if (auth.failure.code === 'INVALID_API_KEY' || auth.failure.code === 'INVALID_ACCESS_TOKEN') {
    await deps.accounting.failed();
  } else await deps.accounting.refuseBlockedAddress();
  return auth;
}

type ActiveKey = ApiKeyRow & { written_lsn?: string | null };

function findKeyById({ db, now, withWrites }: AuthenticationDeps, id: string): Promise<ActiveKey | undefined> {
  return withWrites ? findActiveApiKeyWithWrite(db, { id }, now) : findActiveApiKeyById(db, id, now);
}

function findKeyByHash(
  { db, now, withWrites, accounting }: AuthenticationDeps,
  hash: string,
): Promise<ActiveKey | undefined> {
  if (withWrites) return findActiveApiKeyWithWrite(db, { key_hash: hash }, now);
  if (accounting.lookUpCounted) return accounting.lookUpCounted<ApiKeyRow>(db, activeKeyByHash(db, hash, now));
  return findActiveApiKeyInTurns(db, hash, now);
}

/** `tokenExpiresAt`: the access token's expiry when the key was presented through one, else null. */
function authenticated(key: ActiveKey, tokenExpiresAt: Date | null): Authentication {
  const principal = principalOf(key, tokenExpiresAt);
  return key.written_lsn === undefined ? { principal } : { principal, writtenLsn: key.written_lsn };
}

async function authenticate(deps: AuthenticationDeps, credential: Credential): Promise<Authentication> {
  const { tokens, now } = deps;
  const value = credential.value;
  if (value === undefined || value === '')
    return { principal: null, failure: missingApiKey(credential.expected, credential.presentedAs) };
  if (!credential.keyOnly && looksLikeAccessToken(value)) {
    const check = verifyAccessToken(tokens, value, now);
    if (!check.ok) return { principal: null, failure: invalidAccessToken(check.problem) };
    const key = await findKeyById(deps, check.claims.keyId);
    if (!key)
      return {
        principal: null,
        failure: invalidAccessToken('the API key behind this access token was revoked or has expired'),
      };
    return authenticated(key, new Date(check.claims.expiresAt * 1000));
  }
  // A generated key with a wrong checksum is a typo or a forgery: refused without a lookup.
  if (!couldBeValidKey(value)) return { principal: null, failure: invalidApiKey() };
  const hash = hashApiKey(value);
  const key = await findKeyByHash(deps, hash);
  if (!key || !sameHash(key.key_hash, hash)) return { principal: null, failure: invalidApiKey() };
  // A generated key's prefix must agree with the kind it was stored as.
  const prefixKind = kindOfGeneratedKey(value);
  if (prefixKind !== null && prefixKind !== key.kind) return { principal: null, failure: invalidApiKey() };
  return authenticated(key, null);
}

interface AuthContext {
  auth: Authentication;
}

/** The caller's principal, or the authentication failure (MISSING_API_KEY, INVALID_API_KEY, INVALID_ACCESS_TOKEN). */
export function requirePrincipal(ctx: AuthContext): Principal {
  if (ctx.auth.principal) return ctx.auth.principal;
  throw ctx.auth.failure;
}

const KEY_KIND_NAMES = {
  partner: 'a partner key',
  retail: 'a retail key',
  vendor: 'a vendor key',
  operator: 'an operator key',
} as const;

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
  const hint = principal.kind === 'operator' ? '; operators use GraphQL, where partner(id) reaches any partner' : '';
  throw forbidden(`this needs ${allowed}; ${KEY_KIND_NAMES[principal.keyKind]} cannot use it${hint}`);
}

/** What a door's route needs of its caller before it reads anything else of the request. */
export type PrincipalRequirement =
  /** No credential (the route trades one it reads itself: POST /payments/v1/token). */
  | 'none'
  /** Any principal; the graph decides what it may do. */
  | 'any'
  /** A partner or retail key: the partner interface is the partners' door (decisions.md 1). */
  | 'partner-tenant';

/** Checks a route's requirement: the authentication failure, or FORBIDDEN for a principal of another kind. */
export function requireRoutePrincipal(ctx: AuthContext, requirement: PrincipalRequirement): void {
  if (requirement === 'any') requirePrincipal(ctx);
  else if (requirement === 'partner-tenant') requirePartnerTenant(ctx);
}

/** Operators only. */
export function requireOperator(ctx: AuthContext): string {
  const principal = requirePrincipal(ctx);
  if (principal.kind === 'operator') return principal.operatorId;
  throw forbidden(`this needs an operator key; ${KEY_KIND_NAMES[principal.keyKind]} cannot use it`);
}

/** A payment vendor presenting an access token (vendor keys only buy tokens). */
export function requireVendorToken(ctx: AuthContext): string {
  const principal = requirePrincipal(ctx);
  if (principal.kind === 'vendor' && principal.viaToken) return principal.vendorId;
  if (principal.kind === 'vendor') {
    throw invalidAccessToken(
      'an access token is required: trade the vendor API key for one at POST /payments/v1/token',
    );
  }
  throw forbidden(`this needs a payment vendor's access token; ${KEY_KIND_NAMES[principal.keyKind]} cannot use it`);
}

/**
 * Which partners' data a read reaches: one partner (partner-principal keys of the allowed kinds) or,
 * for operators, the partner they name, or every partner (null) when they name none. A partner key
 * naming another partner gets `undefined`: the caller answers "not found", never "forbidden".
 */
export function readablePartner(
  ctx: AuthContext,
  requestedPartnerId: string | null | undefined,
  allowedKeyKinds: ReadonlyArray<'partner' | 'retail'> = ['partner', 'retail'],
): string | null | undefined {
  const principal = requirePrincipal(ctx);
  // An id that cannot exist names no partner: nothing to read, without asking the database.
  if (requestedPartnerId != null && !isDatabaseId(requestedPartnerId)) {
    if (principal.kind !== 'operator') requirePartnerTenant(ctx, allowedKeyKinds);
    return undefined;
  }
  if (principal.kind === 'operator') return requestedPartnerId ?? null;
  const own = requirePartnerTenant(ctx, allowedKeyKinds);
  if (requestedPartnerId != null && requestedPartnerId !== own) return undefined;
  return own;
}

/** Whether the caller may see partner `partnerId`: operators see all, partner keys their own. */
export function canSeePartner(ctx: AuthContext, partnerId: string): boolean {
  const principal = requirePrincipal(ctx);
  if (principal.kind === 'operator') return true;
  return principal.kind === 'partner' && principal.partnerId === partnerId;
}

/** Operators see personal data always; partners when they ask for it explicitly. */
export function mayRevealPersonalData(ctx: AuthContext, asked: boolean): boolean {
  return requirePrincipal(ctx).kind === 'operator' || asked;
}
