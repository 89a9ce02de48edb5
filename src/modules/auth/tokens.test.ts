import { describe, expect, it } from 'vitest';
import { issueAccessToken, verifyAccessToken } from './tokens.js';

const SETTINGS = { signingSecret: 'unit-test-signing-secret-0123456789', ttlSeconds: 60 };
const NOW = new Date('2026-06-10T12:00:00Z');

describe('access tokens', () => {
  const { token } = issueAccessToken(SETTINGS, '42', NOW);

  it('verify with their claims until they expire', () => {
    expect(verifyAccessToken(SETTINGS, token, NOW)).toEqual({ ok: true, claims: { keyId: '42', issuedAt: 1781092800, expiresAt: 1781092860 } });
    expect(verifyAccessToken(SETTINGS, token, new Date(NOW.getTime() + 60_000))).toEqual({ ok: false, problem: 'the access token expired; request a new one' });
  });

  it('have exactly one spelling: any other text is refused, even text that decodes to the same bytes', () => {
    for (const variant of [`${token}!`, `${token}=`, `${token.slice(0, -1)}`, token.replace('dfs1.', 'dfs2.'), `${token}.x`]) {
      expect(verifyAccessToken(SETTINGS, variant, NOW).ok, variant).toBe(false);
    }
  });

  it('are refused when signed with another secret or with changed claims', () => {
    expect(verifyAccessToken({ ...SETTINGS, signingSecret: 'another-signing-secret-0123456789ab' }, token, NOW).ok).toBe(false);
    const [version, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ k: '1', iat: 1781092800, exp: 1781092860 })).toString('base64url');
    expect(verifyAccessToken(SETTINGS, `${version}.${forged}.${signature}`, NOW).ok).toBe(false);
  });
});
