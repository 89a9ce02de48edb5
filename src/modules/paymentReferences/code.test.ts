// The code's alphabet and check character, and the days rule's inverse (decisions.md 17).
import { describe, expect, it } from 'vitest';
import { cheapestAmountFor, daysBoughtBy } from '../financeOrders/repayment.js';
import { CODE_ALPHABET, CODE_LENGTH, checkCharacterOf, newCode, normaliseCode } from './code.js';

describe('payment reference codes', () => {
  it('are 9 characters of Crockford base32 that check, and read back as themselves', () => {
    for (let index = 0; index < 200; index++) {
      const code = newCode();
      expect(code).toHaveLength(CODE_LENGTH);
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{9}$/);
      expect(normaliseCode(code)).toBe(code);
    }
  });

  it('are read ignoring case, spaces and hyphens, with O as 0 and I, L as 1', () => {
    const body = '01ABCDEF';
    const code = body + checkCharacterOf(body);
    expect(normaliseCode(` o${code.slice(1, 4).toLowerCase()}-${code.slice(4)} `)).toBe(code);
    const withOne = `1${body.slice(1)}`;
    const one = withOne + checkCharacterOf(withOne);
    expect(normaliseCode(`l${one.slice(1)}`)).toBe(one);
    expect(normaliseCode(`I${one.slice(1)}`)).toBe(one);
  });

  it('refuse every single mistyped character and a wrong length', () => {
    const code = newCode();
    for (let position = 0; position < CODE_LENGTH; position++) {
      for (const character of CODE_ALPHABET) {
        if (character === code[position]) continue;
        const typo = code.slice(0, position) + character + code.slice(position + 1);
        expect(normaliseCode(typo), typo).toBeNull();
      }
    }
    expect(normaliseCode(code.slice(1))).toBeNull();
    expect(normaliseCode(`${code}0`)).toBeNull();
    expect(normaliseCode(`${code.slice(0, 8)}U`)).toBeNull();
  });
});

describe('the days rule and its inverse', () => {
  // Demo order 4000004: 18.00 a month, 18.00 paid.
  const order = { monthly_cost_minor: '1800', total_paid_minor: '1800' };

  it('4.00 buys 6 days, and 7 days cost 4.20', () => {
    expect(daysBoughtBy(order, 400n)).toBe(6);
    expect(cheapestAmountFor(order, 7)).toBe(420n);
    expect(daysBoughtBy(order, 420n)).toBe(7);
    expect(daysBoughtBy(order, 419n)).toBe(6);
  });

  it('the cheapest amount buys the days and a minor unit less does not, whatever was paid', () => {
    for (const monthly of [1800n, 999n, 7n, 100_000n]) {
      for (const paid of [0n, 1n, 599n, 1800n, 12_345n]) {
        const terms = { monthly_cost_minor: monthly.toString(), total_paid_minor: paid.toString() };
        for (const days of [1, 6, 7, 30, 365]) {
          const amount = cheapestAmountFor(terms, days);
          expect(daysBoughtBy(terms, amount)).toBeGreaterThanOrEqual(days);
          expect(daysBoughtBy(terms, amount - 1n)).toBeLessThan(days);
        }
      }
    }
  });
});
