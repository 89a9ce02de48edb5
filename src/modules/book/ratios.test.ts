import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatRatio } from './ratios.js';

describe('formatRatio', () => {
  it('writes 4 places, half up, from the exact fraction', () => {
    expect(formatRatio(350n, 440n)).toBe('0.7955');
    expect(formatRatio(240n, 440n)).toBe('0.5455');
    expect(formatRatio(120n, 440n)).toBe('0.2727');
    expect(formatRatio(4, 13)).toBe('0.3077');
    expect(formatRatio(1, 2)).toBe('0.5000');
    expect(formatRatio(3, 3)).toBe('1.0000');
    expect(formatRatio(0, 7)).toBe('0.0000');
    // 0.00005 exactly rounds up; just under it rounds down.
    expect(formatRatio(1, 20_000)).toBe('0.0001');
    expect(formatRatio(99_999, 2_000_000_000)).toBe('0.0000');
  });

  it('is null when there is nothing to divide by', () => {
    expect(formatRatio(0, 0)).toBeNull();
  });

  it('is within half a unit of the 4th place of the true fraction', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 15n }), (top, bottom) => {
        const text = formatRatio(top, bottom)!;
        const shown = BigInt(text.replace('.', ''));
        // |shown/10^4 - top/bottom| <= 1/2 * 10^-4  <=>  |2*shown*bottom - 2*top*10^4| <= bottom
        const gap = 2n * shown * bottom - 2n * top * 10_000n;
        expect(gap <= bottom && -gap <= bottom).toBe(true);
      }),
    );
  });
});
