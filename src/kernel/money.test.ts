import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMoney,
  amountIdentity,
  commissionOn,
  commissionOnMoney,
  decimalOfJsonNumber,
  decimalToJsonNumber,
  formatAmount,
  formatMoney,
  isDecimalText,
  isMoreThan,
  MoneyError,
  minMoney,
  minorUnitsOf,
  money,
  multiplyMoney,
  normaliseDecimal,
  parseAmount,
  SUPPORTED_CURRENCIES,
  subtractMinor,
  subtractMoney,
} from './money.js';

describe('money', () => {
  it.each([
    ['18.00', 'USD', 1800n],
    ['18', 'USD', 1800n],
    ['18.5', 'USD', 1850n],
    ['0.01', 'USD', 1n],
    ['-0.10', 'USD', -10n],
    ['420', 'JPY', 420n],
    ['1.234', 'KWD', 1234n],
    ['160.00', 'MXN', 16000n],
    ['92233720368547758.07', 'USD', 9223372036854775807n],
    // Zeros past the currency's places change no value (decisions.md 37).
    ['4.000', 'USD', 400n],
    ['5.0', 'JPY', 5n],
    ['1.2340', 'KWD', 1234n],
  ])('parses %s %s exactly', (text, currency, minor) => {
    expect(parseAmount(text, currency)).toBe(minor);
  });

  it.each([
    ['18.001', 'USD'],
    ['18.0001', 'USD'],
    ['5.01', 'JPY'],
    ['1.2345', 'KWD'],
    ['1e3', 'USD'],
    ['', 'USD'],
    [' 1', 'USD'],
    ['1,00', 'USD'],
    ['0x10', 'USD'],
    ['.5', 'USD'],
    ['10', 'XXX'],
  ])('refuses %s %s rather than rounding or guessing', (text, currency) => {
    expect(() => parseAmount(text, currency)).toThrow(MoneyError);
  });

  it.each([
    [1800n, 'USD', '18.00'],
    [90n, 'USD', '0.90'],
    [-10n, 'USD', '-0.10'],
    [5n, 'USD', '0.05'],
    [0n, 'USD', '0.00'],
    [420n, 'JPY', '420'],
    [1234n, 'KWD', '1.234'],
  ])('formats %s %s as %s', (minor, currency, text) => {
    expect(formatAmount(minor, currency)).toBe(text);
    expect(parseAmount(text, currency)).toBe(minor);
  });

  it('gives JSON numbers that print as the exact decimal', () => {
    expect(JSON.stringify(decimalToJsonNumber(formatAmount(90n, 'USD')))).toBe('0.9');
    expect(JSON.stringify(decimalToJsonNumber(formatAmount(-10n, 'USD')))).toBe('-0.1');
    expect(JSON.stringify(decimalToJsonNumber(formatAmount('19800', 'USD')))).toBe('198');
    expect(() => decimalToJsonNumber('1e3')).toThrow(MoneyError);
  });

  it.each([
    ['1E3', '1000'],
    ['1.25e1', '12.5'],
    ['1.50e1', '15.0'],
    ['1850e-2', '18.50'],
    ['1e-2', '0.01'],
    ['-2.5E+2', '-250'],
    ['0.01e0', '0.01'],
    ['18.999999999999999', '18.999999999999999'],
    ['1e999', '1e999'],
  ])('writes the JSON number %s out exactly as %s', (text, decimal) => {
    expect(decimalOfJsonNumber(text)).toBe(decimal);
  });

  it('identifies an amount by its minor units: 18, 18.0, 18.00 are one; 18.999999999999999 is its text', () => {
    expect(new Set(['18', '18.0', '18.00', '018'].map((text) => amountIdentity(text, 'USD')))).toEqual(
      new Set(['minor:1800']),
    );
    expect(amountIdentity('18.01', 'USD')).toBe('minor:1801');
    expect(amountIdentity('18.999999999999999', 'USD')).toBe('text:18.999999999999999');
    expect(amountIdentity('5', 'XXX')).toBe('text:5');
  });

  it('subtracts in minor units, accepting the driver strings', () => {
    expect(subtractMinor('30000', '10000')).toBe(20000n);
  });
});

describe('money laws', () => {
  it('commission rounds half up to the minor unit', () => {
    expect(commissionOn(1800n, 500)).toBe(90n); // 5% of 18.00 = 0.90
    expect(commissionOn(10n, 500)).toBe(1n); // 0.005 -> 0.01
    expect(commissionOn(9n, 500)).toBe(0n); // 0.0045 -> 0.00
    expect(commissionOn(1n, 500)).toBe(0n);
    expect(commissionOn(1234567n, 0)).toBe(0n);
    expect(commissionOn(1234567n, 10000)).toBe(1234567n);
  });

  it('parse and format round-trip every amount of every currency', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }),
        fc.constantFrom('USD', 'JPY', 'KWD', 'MXN'),
        (minor, currency) => {
          expect(parseAmount(formatAmount(minor, currency), currency)).toBe(minor);
        },
      ),
    );
  });

  it("formats the driver's int8 text exactly as the same bigint, and any other text through BigInt", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 19n), max: 10n ** 19n }),
        fc.constantFrom('USD', 'JPY', 'KWD'),
        (minor, currency) => {
          expect(formatAmount(minor.toString(), currency)).toBe(formatAmount(minor, currency));
        },
      ),
    );
    // Not canonical: read as BigInt reads it, never cut as text.
    expect(formatAmount('-0', 'USD')).toBe('0.00');
    expect(formatAmount('0018', 'USD')).toBe('0.18');
    expect(formatAmount(' 5', 'KWD')).toBe('0.005');
    expect(() => formatAmount('1.5', 'USD')).toThrow(SyntaxError);
  });

  it('formats every int8 text of every currency as the plain definition does: cut by the places, padded below one unit', () => {
    // The definition formatAmount's fast path keeps (the whole digits, the point, exactly `places` digits).
    const definition = (minor: bigint, currency: string) => {
      const places = minorUnitsOf(currency);
      const digits = (minor < 0n ? -minor : minor).toString().padStart(places + 1, '0');
      const whole = digits.slice(0, digits.length - places);
      const sign = minor < 0n ? '-' : '';
      return places === 0 ? `${sign}${whole}` : `${sign}${whole}.${digits.slice(whole.length)}`;
    };
    // Small amounts (around one unit of every currency) as often as large ones.
    const minors = fc.oneof(
      fc.bigInt({ min: -2000n, max: 2000n }),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    );
    fc.assert(
      fc.property(minors, fc.constantFrom(...SUPPORTED_CURRENCIES), (minor, currency) => {
        expect(formatAmount(minor.toString(), currency)).toBe(definition(minor, currency));
        expect(formatAmount(minor, currency)).toBe(definition(minor, currency));
      }),
      { numRuns: 2000 },
    );
  });

  it('commission is never more than the amount nor off by more than half a minor unit', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 10000 }), (amount, rate) => {
        const commission = commissionOn(amount, rate);
        expect(commission <= amount).toBe(true);
        const exactTimes10000 = amount * BigInt(rate);
        const diff = commission * 10000n - exactTimes10000;
        expect(diff >= -5000n && diff <= 5000n).toBe(true);
      }),
    );
  });

  it("parsing never rounds: a digit other than zero beyond the currency's places is refused, zeros change nothing", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n }),
        fc.constantFrom('USD', 'JPY', 'KWD', 'MXN'),
        fc.oneof(fc.stringMatching(/^[0-9]{1,5}$/), fc.stringMatching(/^0{1,5}$/)),
        (minor, currency, extra) => {
          const text = formatAmount(minor, currency) + (minorUnitsOf(currency) === 0 ? '.' : '') + extra;
          if (/[1-9]/.test(extra)) expect(() => parseAmount(text, currency)).toThrow(MoneyError);
          else expect(parseAmount(text, currency)).toBe(minor);
        },
      ),
    );
  });

  it('a JSON number of the contract keeps every minor unit of amounts up to 15 significant digits', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }),
        fc.constantFrom('USD', 'JPY', 'KWD', 'MXN'),
        (minor, currency) => {
          const json = JSON.stringify(decimalToJsonNumber(formatAmount(minor, currency)));
          expect(parseAmount(json, currency)).toBe(minor);
        },
      ),
    );
  });
});

describe('Money: an amount with its currency', () => {
  const usd = (minor: bigint) => money(minor, 'USD');

  it('combines amounts of one currency exactly, and keeps the currency', () => {
    expect(subtractMoney(usd(21600n), money('1800', 'USD'))).toEqual(usd(19800n));
    expect(addMoney(usd(1800n), money('50', 'USD'))).toEqual(usd(1850n));
    expect(minMoney(usd(1800n), usd(400n))).toEqual(usd(400n));
    expect([isMoreThan(usd(1801n), usd(1800n)), isMoreThan(usd(1800n), usd(1800n))]).toEqual([true, false]);
    expect(multiplyMoney(usd(1800n), 12)).toEqual(usd(21600n));
    expect(commissionOnMoney(money(1800n, 'MXN'), 500)).toEqual(money(90n, 'MXN'));
    expect(formatMoney(money(1234n, 'KWD'))).toBe('1.234');
  });

  it('refuses to combine two currencies: the arithmetic itself catches a mismatch', () => {
    const pesos = money(1800n, 'MXN');
    expect(() => subtractMoney(usd(1800n), pesos)).toThrow(MoneyError);
    expect(() => addMoney(pesos, usd(1n))).toThrow(MoneyError);
    expect(() => minMoney(usd(1800n), pesos)).toThrow(MoneyError);
    expect(() => isMoreThan(pesos, usd(1n))).toThrow(/USD/);
  });

  it('multiplies by whole numbers only, never rounding', () => {
    expect(() => multiplyMoney(usd(1800n), 1.5)).toThrow(MoneyError);
  });

  it('adding and subtracting keep every minor unit, and the smaller of two is one of them', () => {
    const amounts = fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n });
    fc.assert(
      fc.property(amounts, amounts, (a, b) => {
        expect(subtractMoney(usd(a), usd(b)).minor + b).toBe(a);
        expect(subtractMoney(addMoney(usd(a), usd(b)), usd(b))).toEqual(usd(a));
        const smaller = minMoney(usd(a), usd(b)).minor;
        expect(smaller === a || smaller === b).toBe(true);
        expect(smaller <= a && smaller <= b).toBe(true);
      }),
    );
  });
});

describe('decimal text', () => {
  it.each(['18', '18.00', '-0.10', '0', '12345678901234567890.12345678901234567890'])('%s is a Decimal', (text) => {
    expect(isDecimalText(text)).toBe(true);
  });

  const tooLong = ['123456789012345678901', '1.123456789012345678901'];
  const notDecimals = ['', '.5', '5.', '1e3', ' 1', '1,00', '+1', '0x10', ...tooLong];
  it.each(notDecimals)('%j is not', (text) => {
    expect(isDecimalText(text)).toBe(false);
  });

  it('is exactly the syntax -?\\d{1,20}(\\.\\d{1,20})? on any text', () => {
    const syntax = /^-?\d{1,20}(\.\d{1,20})?$/;
    // Runs of 0 to 22 digits, every length as likely: the bounds of 20 are where a slip would hide.
    const digits = fc
      .integer({ min: 0, max: 22 })
      .chain((length) =>
        fc.string({ unit: fc.constantFrom('0', '1', '5', '9'), minLength: length, maxLength: length }),
      );
    const near = fc
      .tuple(fc.constantFrom('', '-'), digits, fc.constantFrom('', '.'), digits)
      .map(([sign, whole, point, fraction]) => `${sign}${whole}${point}${point ? fraction : ''}`);
    const any = fc.string({
      unit: fc.constantFrom('-', '.', '0', '7', '9', 'e', ' ', '+', '/', ':', '١'),
      maxLength: 46,
    });
    fc.assert(
      fc.property(fc.oneof(near, any), (text) => {
        expect(isDecimalText(text)).toBe(syntax.test(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('normalises away insignificant zeros of the fraction, as in-store amounts were hashed before fingerprints', () => {
    expect(['18.00', '18.50', '18', '18.05', '0.0'].map(normaliseDecimal)).toEqual(['18', '18.5', '18', '18.05', '0']);
  });
});
