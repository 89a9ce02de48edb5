import { describe, expect, it } from 'vitest';
import { parseLsn } from './replica.js';

describe('parseLsn', () => {
  it('reads a pg_lsn as one number: the high word above the low word', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('16/B374D848')).toBe(0x16b374d848n);
    // Compared as numbers, not as text ("9/..." sorts after "10/..." as text).
    expect(parseLsn('10/0') > parseLsn('9/FFFFFFFF')).toBe(true);
  });

  it('refuses what is not an LSN', () => {
    expect(() => parseLsn('nonsense')).toThrow('not an LSN');
  });
});
