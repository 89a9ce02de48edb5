// Access tokens: "dfs1.<claims>.<signature>", the claims base64url JSON, the signature an
// HMAC-SHA256 of "dfs1.<claims>" with the configured signing secret. Any instance with the secret
// verifies a token without shared state; the key that bought it is still checked on every use, so
// revoking the key stops its tokens at once.
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'dfs1';

export interface TokenClaims {
  /** The API key that bought the token. */
  keyId: string;
  /** Unix seconds. */
  issuedAt: number;
  /** Unix seconds. */
  expiresAt: number;
}

export interface TokenSettings {
  signingSecret: string;
  ttlSeconds: number;
}

function sign(secret: string, content: string): Buffer {
  return createHmac('sha256', secret).update(content).digest();
}

export function looksLikeAccessToken(credential: string): boolean {
  return credential.startsWith(`${VERSION}.`);
}

export function issueAccessToken(settings: TokenSettings, keyId: string, now: Date): { token: string; claims: TokenClaims } {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const claims: TokenClaims = { keyId, issuedAt, expiresAt: issuedAt + settings.ttlSeconds };
  const content = `${VERSION}.${Buffer.from(JSON.stringify({ k: claims.keyId, iat: claims.issuedAt, exp: claims.expiresAt })).toString('base64url')}`;
  return { token: `${content}.${sign(settings.signingSecret, content).toString('base64url')}`, claims };
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; problem: string };

export function verifyAccessToken(settings: TokenSettings, token: string, now: Date): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false, problem: 'the access token is malformed' };
  const [, encodedClaims, encodedSignature] = parts as [string, string, string];
  // Compare the canonical text of the signature, not decoded bytes: base64url decoding skips stray
  // characters, and a token must have exactly one spelling.
  const expected = Buffer.from(sign(settings.signingSecret, `${VERSION}.${encodedClaims}`).toString('base64url'));
  const given = Buffer.from(encodedSignature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, problem: 'the access token is not valid (its signature does not match)' };
  }
  let raw: { k?: unknown; iat?: unknown; exp?: unknown };
  try {
    raw = JSON.parse(Buffer.from(encodedClaims, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, problem: 'the access token is malformed' };
  }
  if (typeof raw.k !== 'string' || typeof raw.iat !== 'number' || typeof raw.exp !== 'number') {
    return { ok: false, problem: 'the access token is malformed' };
  }
  if (raw.exp <= now.getTime() / 1000) return { ok: false, problem: 'the access token expired; request a new one' };
  return { ok: true, claims: { keyId: raw.k, issuedAt: raw.iat, expiresAt: raw.exp } };
}
