import { describe, expect, it } from 'vitest';
import { couldBeValidKey, displayPrefix, generateApiKey, kindOfGeneratedKey } from './keys.js';

describe('API keys', () => {
  it('carry their kind in the prefix and a checksum that catches typos', () => {
    for (const [kind, prefix] of [
      ['partner', 'dfs_pk_'],
      ['retail', 'dfs_rk_'],
      ['vendor', 'dfs_vk_'],
      ['operator', 'dfs_ok_'],
    ] as const) {
      const key = generateApiKey(kind);
      expect(key).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{38}$`));
      expect(couldBeValidKey(key)).toBe(true);
      expect(kindOfGeneratedKey(key)).toBe(kind);
      expect(displayPrefix(key)).toBe(key.slice(0, 12));
      // Any one character changed, dropped or added breaks the checksum.
      const typo = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
      expect(couldBeValidKey(typo)).toBe(false);
      expect(couldBeValidKey(key.slice(0, -1))).toBe(false);
      expect(couldBeValidKey(`${key}x`)).toBe(false);
    }
  });

  it('are random', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('partner')));
    expect(keys.size).toBe(200);
  });

  it('leave keys without the prefix (the demo keys) to the lookup', () => {
    expect(couldBeValidKey('demo-partner-key')).toBe(true);
    expect(kindOfGeneratedKey('demo-partner-key')).toBeNull();
    expect(couldBeValidKey('x'.repeat(257))).toBe(false);
  });
});
