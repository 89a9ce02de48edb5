// A report's signed link (docs/decisions.md 45): valid 15 minutes from its making, by the clock given
// (the real one in the service), bound to its run's id and expiry under the run's own key.
import { describe, expect, it } from 'vitest';
import { checkSignedLink, LINK_LIFETIME_SECONDS, newLinkKey, signedFilePath } from './links.js';

const run = { id: '42', link_key: newLinkKey() };
const made = new Date('2026-11-28T10:00:00Z');
const partsOf = (path: string) => {
  const url = new URL(path, 'http://service');
  return {
    id: url.pathname.split('/').pop()!,
    expires: url.searchParams.get('expires')!,
    signature: url.searchParams.get('signature')!,
  };
};
const codeOf = (check: () => void) => {
  try {
    check();
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('signed report links', () => {
  const link = partsOf(signedFilePath(run, made));
  const at = (seconds: number) => new Date(made.getTime() + seconds * 1000);

  it('works until 15 minutes after it was made, then is REPORT_LINK_EXPIRED', () => {
    expect(link.id).toBe('42');
    expect(Number(link.expires)).toBe(made.getTime() / 1000 + LINK_LIFETIME_SECONDS);
    expect(codeOf(() => checkSignedLink(run, link.expires, link.signature, at(0)))).toBe('ok');
    expect(codeOf(() => checkSignedLink(run, link.expires, link.signature, at(14 * 60 + 59)))).toBe('ok');
    expect(codeOf(() => checkSignedLink(run, link.expires, link.signature, at(15 * 60)))).toBe('REPORT_LINK_EXPIRED');
    expect(codeOf(() => checkSignedLink(run, link.expires, link.signature, at(3600)))).toBe('REPORT_LINK_EXPIRED');
  });

  it('is REPORT_LINK_INVALID altered in any part, for another run, under another key, or for no run', () => {
    const flipped = `${link.signature.slice(0, -1)}${link.signature.endsWith('A') ? 'B' : 'A'}`;
    const later = String(Number(link.expires) + 600);
    for (const [target, expires, signature] of [
      [run, link.expires, flipped],
      [run, later, link.signature],
      [{ ...run, id: '43' }, link.expires, link.signature],
      [{ ...run, link_key: newLinkKey() }, link.expires, link.signature],
      [undefined, link.expires, link.signature],
      [run, '', link.signature],
      [run, link.expires, ''],
      [run, `${link.expires}.0`, link.signature],
    ] as const) {
      // Checked before the expiry: an altered link is invalid, never "expired", even long after.
      expect(codeOf(() => checkSignedLink(target, expires, signature, at(3600)))).toBe('REPORT_LINK_INVALID');
    }
  });

  it("is REPORT_LINK_INVALID with the last character's unused bits changed, which decode to the same bytes", () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 43 characters carry 258 bits for 256: the last one's low 2 bits are unused.
    for (let round = 0; round < 20; round++) {
      const own = { id: String(round), link_key: newLinkKey() };
      const parts = partsOf(signedFilePath(own, made));
      const last = alphabet.indexOf(parts.signature.at(-1)!);
      for (const spare of [1, 2, 3]) {
        const twin = `${parts.signature.slice(0, -1)}${alphabet[last ^ spare]}`;
        expect(Buffer.from(twin, 'base64url')).toEqual(Buffer.from(parts.signature, 'base64url'));
        expect(codeOf(() => checkSignedLink(own, parts.expires, twin, at(0)))).toBe('REPORT_LINK_INVALID');
      }
    }
  });
});
