import { type GraphQLScalarType, parseValue as parseLiteralText } from 'graphql';
import { describe, expect, it } from 'vitest';
import { CurrencyCodeScalar, DecimalScalar, JSONScalar, TimestampScalar } from './scalars.js';

/** What a scalar answers to a value: the value it takes, or the message it refuses it with. */
function outcome(parse: () => unknown): unknown {
  try {
    return { value: parse() };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

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

  it.each([
    ['Decimal', DecimalScalar, ['"18.00"', '18.5', '18', '"1e3"', 'true', 'DEMO', '{ a: 1 }', '["1.00"]']],
    ['Timestamp', TimestampScalar, ['1767225600', '"yesterday"', '1.5', '-1', '253402300800', 'false', 'NOW', '[1]']],
    ['CurrencyCode', CurrencyCodeScalar, ['"USD"', '"usd"', '"XYZ"', '840', 'USD', '{ code: "USD" }']],
    ['JSON', JSONScalar, ['{ a: [1, "b", null, true], c: { d: 1.5 } }', 'WORD', '"text"', '-3']],
  ] as Array<[string, GraphQLScalarType, string[]]>)(
    '%s: a literal is taken, or refused in the words, of the same value given as a variable',
    (_name, scalar, literals) => {
      for (const text of literals) {
        const ast = parseLiteralText(text);
        // The value a variable would carry for this literal (JSON's reading of it; an enum word is its name).
        const asVariable = JSON.parse(JSON.stringify(JSONScalar.parseLiteral(ast, undefined)));
        expect(
          outcome(() => scalar.parseLiteral(ast, undefined)),
          text,
        ).toEqual(outcome(() => scalar.parseValue(asVariable)));
        expect(JSON.stringify(outcome(() => scalar.parseLiteral(ast, undefined))), text).not.toContain('undefined');
      }
    },
  );
});
