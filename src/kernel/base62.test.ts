import { describe, expect, it } from 'vitest';
import { base62, randomBase62, secretBase62 } from './base62.js';

describe('base62', () => {
  it('writes a number in base 62, zero-padded to its width', () => {
    expect(base62(0, 3)).toBe('000');
    expect(base62(61, 3)).toBe('00z');
    expect(base62(62, 3)).toBe('010');
    expect(base62(62 ** 5 - 1, 5)).toBe('zzzzz');
  });

  it('draws random and secret characters of the whole alphabet, about equally often', () => {
    for (const draw of [randomBase62, secretBase62]) {
      const counts = new Map<string, number>();
      for (let i = 0; i < 2_000; i++) for (const char of draw(31)) counts.set(char, (counts.get(char) ?? 0) + 1);
      // 62,000 characters: 1,000 each if uniform (a standard deviation of about 32).
      expect(counts.size).toBe(62);
      for (const count of counts.values()) expect(Math.abs(count - 1_000)).toBeLessThan(200);
      expect(draw(40)).toMatch(/^[0-9A-Za-z]{40}$/);
    }
  });
});
