// Access tokens: "dfs1.<claims>.<signature>", the claims base64url JSON naming the signing key
// (kid), the signature an HMAC-SHA256 of "dfs1.<claims>" with that key's secret. Any instance with
// the configured keys verifies a token without shared state. Keys rotate without invalidating live
// tokens: the first configured key signs, every configured key verifies. The API key that bought a
// token is still checked on every use, so revoking it stops its tokens at once.
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'dfs1';

/**
 * How far ahead of this instance's clock another instance's may run: a token it issued is accepted
 * up to this many seconds "in the future"; beyond that the token is refused (a wrong clock or a forgery).
 */
const CLOCK_SKEW_SECONDS = 60;

interface TokenClaims {
  /** The API key that bought the token. */
  keyId: string;
  /** Unix seconds. */
  issuedAt: number;
  /** Unix seconds. */
  expiresAt: number;
}

interface SigningKey {
  id: string;
  secret: string;
}

export interface TokenSettings {
  /** The first signs new tokens; all verify (keep a retired key until its last token expired). */
  signingKeys: readonly SigningKey[];
  ttlSeconds: number;
}

function sign(secret: string, content: string): Buffer {
  return createHmac('sha256', secret).update(content).digest();
}

export function looksLikeAccessToken(credential: string): boolean {
  return credential.startsWith(`${VERSION}.`);
}

export function issueAccessToken(
  settings: TokenSettings,
  keyId: string,
  now: Date,
): { token: string; claims: TokenClaims } {
  const signingKey = settings.signingKeys[0];
  if (!signingKey) throw new Error('no token signing key is configured');
  const issuedAt = Math.floor(now.getTime() / 1000);
  const claims: TokenClaims = { keyId, issuedAt, expiresAt: issuedAt + settings.ttlSeconds };
  const encoded = Buffer.from(
    JSON.stringify({ kid: signingKey.id, k: claims.keyId, iat: claims.issuedAt, exp: claims.expiresAt }),
  ).toString('base64url');
  const content = `${VERSION}.${encoded}`;
  return { token: `${content}.${sign(signingKey.secret, content).toString('base64url')}`, claims };
}

type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; problem: string };

export function verifyAccessToken(settings: TokenSettings, token: string, now: Date): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false, problem: 'the access token is malformed' };
  const [, encodedClaims, encodedSignature] = parts as [string, string, string];
  // The claims name their signing key; they are read before the signature is checked only to pick
  // that key, and trusted only after it matches.
  let raw: { kid?: unknown; k?: unknown; iat?: unknown; exp?: unknown };
  try {
    raw = JSON.parse(Buffer.from(encodedClaims, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, problem: 'the access token is malformed' };
  }
  const signingKey = settings.signingKeys.find((key) => key.id === raw?.kid);
  if (!signingKey)
    return { ok: false, problem: 'the access token is not valid (it was not signed by a current signing key)' };
  // Compare the canonical text of the signature, not decoded bytes: base64url decoding skips stray
  // characters, and a token must have exactly one spelling.
  const expected = Buffer.from(sign(signingKey.secret, `${VERSION}.${encodedClaims}`).toString('base64url'));
  const given = Buffer.from(encodedSignature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, problem: 'the access token is not valid (its signature does not match)' };
  }
  if (typeof raw.k !== 'string' || typeof raw.iat !== 'number' || typeof raw.exp !== 'number') {
    return { ok: false, problem: 'the access token is malformed' };
  }
  const nowSeconds = now.getTime() / 1000;
  if (raw.iat > nowSeconds + CLOCK_SKEW_SECONDS)
    return { ok: false, problem: 'the access token is not valid (it was issued in the future)' };
  if (raw.exp <= nowSeconds) return { ok: false, problem: 'the access token expired; request a new one' };
  return { ok: true, claims: { keyId: raw.k, issuedAt: raw.iat, expiresAt: raw.exp } };
}
