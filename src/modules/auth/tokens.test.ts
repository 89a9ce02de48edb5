import { describe, expect, it } from 'vitest';
import { issueAccessToken, verifyAccessToken } from './tokens.js';

const SETTINGS = { signingKeys: [{ id: 'k1', secret: 'unit-test-signing-secret-0123456789' }], ttlSeconds: 60 };
const NOW = new Date('2026-06-10T12:00:00Z');

describe('access tokens', () => {
  const { token } = issueAccessToken(SETTINGS, '42', NOW);

  it('verify with their claims until they expire', () => {
    expect(verifyAccessToken(SETTINGS, token, NOW)).toEqual({
      ok: true,
      claims: { keyId: '42', issuedAt: 1781092800, expiresAt: 1781092860 },
    });
    expect(verifyAccessToken(SETTINGS, token, new Date(NOW.getTime() + 60_000))).toEqual({
      ok: false,
      problem: 'the access token expired; request a new one',
    });
  });

  it('are refused when issued more than 60 s in the future (clock skew between instances is allowed up to that)', () => {
    const at = (seconds: number) => issueAccessToken(SETTINGS, '42', new Date(NOW.getTime() + seconds * 1000)).token;
    expect(verifyAccessToken(SETTINGS, at(60), NOW).ok).toBe(true);
    expect(verifyAccessToken(SETTINGS, at(61), NOW)).toEqual({
      ok: false,
      problem: 'the access token is not valid (it was issued in the future)',
    });
    expect(verifyAccessToken(SETTINGS, at(3600), NOW).ok).toBe(false);
  });

  it('have exactly one spelling: any other text is refused, even text that decodes to the same bytes', () => {
    for (const variant of [
      `${token}!`,
      `${token}=`,
      `${token.slice(0, -1)}`,
      token.replace('dfs1.', 'dfs2.'),
      `${token}.x`,
    ]) {
      expect(verifyAccessToken(SETTINGS, variant, NOW).ok, variant).toBe(false);
    }
  });

  it('rotate: a new key signs, the old one still verifies its live tokens until it is removed', () => {
    const rotated = {
      ...SETTINGS,
      signingKeys: [{ id: 'k2', secret: 'the-next-signing-secret-0123456789abc' }, ...SETTINGS.signingKeys],
    };
    const fresh = issueAccessToken(rotated, '42', NOW).token;
    expect(JSON.parse(Buffer.from(fresh.split('.')[1]!, 'base64url').toString()).kid).toBe('k2');
    expect(verifyAccessToken(rotated, fresh, NOW).ok).toBe(true);
    expect(verifyAccessToken(rotated, token, NOW).ok).toBe(true); // signed with k1 before the rotation
    const retired = { ...SETTINGS, signingKeys: [rotated.signingKeys[0]!] };
    expect(verifyAccessToken(retired, token, NOW)).toEqual({
      ok: false,
      problem: 'the access token is not valid (it was not signed by a current signing key)',
    });
    expect(verifyAccessToken(retired, fresh, NOW).ok).toBe(true);
  });

  it('are refused when signed with another secret or with changed claims', () => {
    expect(
      verifyAccessToken(
        { ...SETTINGS, signingKeys: [{ id: 'k1', secret: 'another-signing-secret-0123456789ab' }] },
        token,
        NOW,
      ).ok,
    ).toBe(false);
    const [version, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ kid: 'k1', k: '1', iat: 1781092800, exp: 1781092860 })).toString(
      'base64url',
    );
    expect(verifyAccessToken(SETTINGS, `${version}.${forged}.${signature}`, NOW).ok).toBe(false);
  });
});
