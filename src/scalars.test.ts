import { describe, expect, it } from 'vitest';
import { CurrencyCodeScalar, DecimalScalar, TimestampScalar } from './scalars.js';

describe('scalars', () => {
  it('Decimal takes decimal strings only, never floats', () => {
    expect(DecimalScalar.parseValue('18.00')).toBe('18.00');
    expect(DecimalScalar.parseValue('-0.10')).toBe('-0.10');
    for (const bad of [18.5, '1e3', '18.', '.5', ' 1', 'NaN', '', '1'.repeat(21)]) {
      expect(() => DecimalScalar.parseValue(bad), String(bad)).toThrow(/Decimal must be a decimal string/);
    }
  });

  it('Timestamp is whole Unix seconds; a Date serialises to its second', () => {
    expect(TimestampScalar.serialize(new Date('2026-01-01T00:00:00.999Z'))).toBe(1767225600);
    expect(TimestampScalar.parseValue(1767225600)).toBe(1767225600);
    for (const bad of [1.5, -1, '1767225600', 2 ** 60, 253_402_300_800])
      expect(() => TimestampScalar.parseValue(bad)).toThrow(/Timestamp must be/);
    expect(TimestampScalar.parseValue(253_402_300_799)).toBe(253_402_300_799);
  });

  it('CurrencyCode is a supported ISO 4217 code', () => {
    expect(CurrencyCodeScalar.parseValue('KWD')).toBe('KWD');
    expect(() => CurrencyCodeScalar.parseValue('usd')).toThrow(/three capital letters/);
    expect(() => CurrencyCodeScalar.parseValue('XYZ')).toThrow(/not supported/);
  });
});
