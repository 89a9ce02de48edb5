import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalNumber,
  isJsonNumber,
  JsonTextError,
  jsonFault,
  MAX_JSON_DEPTH,
  numberText,
  parseLosslessJson,
  plainJson,
} from './losslessJson.js';

const refusal = (text: string) => {
  try {
    parseLosslessJson(text);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonTextError);
    return (error as Error).message;
  }
  throw new Error(`${text} was not refused`);
};

describe('parseLosslessJson', () => {
  it('keeps every number as written', () => {
    const value = parseLosslessJson('{"amount":18.999999999999999,"list":[1E3,-0.10,99999999999999999999]}') as any;
    expect(isJsonNumber(value.amount)).toBe(true);
    expect(numberText(value.amount)).toBe('18.999999999999999');
    expect(value.list.map(numberText)).toEqual(['1E3', '-0.10', '99999999999999999999']);
  });

  it('reads what JSON.parse reads, numbers aside', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value);
        expect(plainJson(parseLosslessJson(text))).toEqual(JSON.parse(text));
      }),
    );
  });

  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"a":1,"a":1}', 'a'],
    ['{"a":"x","b":{"c":[],"c":[]}}', 'c'],
    ['[{"id":1},{"id":2,"k":0,"id":2}]', 'id'],
    ['{"a":1,"\\u0061":1}', 'a'],
    ['{"__proto__":1,"__proto__":1}', '__proto__'],
  ])('refuses a member name repeated in one object: %s', (text, name) => {
    expect(refusal(text)).toBe(`names the member ${JSON.stringify(name)} more than once in one object`);
  });

  it('takes one name in several objects, and a name that is only a value elsewhere', () => {
    expect(plainJson(parseLosslessJson('[{"a":1},{"a":1},{"b":"a","c":{"a":"a"}}]'))).toEqual([
      { a: 1 },
      { a: 1 },
      { b: 'a', c: { a: 'a' } },
    ]);
  });

  it(`takes ${MAX_JSON_DEPTH} levels and refuses one more, however deep, without recursion past the limit`, () => {
    const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    expect(() => parseLosslessJson(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(refusal(nested(MAX_JSON_DEPTH + 1))).toBe(`nests more than ${MAX_JSON_DEPTH} levels deep`);
    expect(refusal(nested(60_000))).toBe(`nests more than ${MAX_JSON_DEPTH} levels deep`);
    // Brackets inside strings are text, not nesting.
    expect(() => parseLosslessJson(`{"a":"${'['.repeat(100)}"}`)).not.toThrow();
  });

  it.each([
    ['', 'unexpected end of the body at line 1, column 1'],
    [' ', 'unexpected end of the body at line 1, column 2'],
    ['{', 'unexpected end of the body at line 1, column 2'],
    ['{"a":}', 'unexpected "}" at line 1, column 6'],
    ['[1,]', 'unexpected "]" at line 1, column 4'],
    ['{"a":01}', 'unexpected "1" at line 1, column 7'],
    ["{'a':1}", `unexpected "'" at line 1, column 2`],
    ['1 2', 'unexpected "2" at line 1, column 3'],
    ['NaN', 'unexpected "N" at line 1, column 1'],
    ['{"a":1}x', 'unexpected "x" at line 1, column 8'],
    ['"\\x"', 'unexpected "\\\\" at line 1, column 2'],
    ['\ufeff{}', 'unexpected "\\ufeff" at line 1, column 1'],
    ['{\n  "amount": "1.00",\n  "reference": }\n', 'unexpected "}" at line 3, column 16'],
    ['{"a":"x\ny"}', 'unexpected "\\n" at line 1, column 8'],
    ['{"note":"😀😀" x}', 'unexpected "x" at line 1, column 14'],
  ])('refuses malformed text %j as not valid JSON, saying where: %s', (text, place) => {
    expect(refusal(text)).toBe(`is not valid JSON: ${place}`);
  });

  it('keeps a member named __proto__ as an ordinary member', () => {
    const value = plainJson(parseLosslessJson('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('jsonFault', () => {
  // Express's parser: JSON.parse, after refusing a text that does not begin with { or [.
  const strictRefuses = (text: string) => {
    if (!/^[ \t\n\r]*[[{]/.test(text)) return true;
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  };

  it('finds a place in every text JSON.parse (strict) refuses, and none in a text it reads', () => {
    const inserted = fc.constantFrom('', '}', ']', ',', ':', '"', '\\', 'x', '\n', '\u0001');
    const damaged = fc
      .tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat(), inserted, fc.nat(3))
      .map(([value, at, insert, cut]) => {
        const text = JSON.stringify({ value });
        const i = at % (text.length + 1);
        return text.slice(0, i) + insert + text.slice(i + cut);
      });
    fc.assert(
      fc.property(damaged, (text) => {
        const fault = jsonFault(text, { objectOrArray: true });
        if (strictRefuses(text)) expect(fault, text).toMatch(/^unexpected .* at line \d+, column \d+$/);
        else expect(fault, text).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a text that does not begin with an object or an array at its first character', () => {
    expect(jsonFault('\n  "query"', { objectOrArray: true })).toBe('unexpected "\\"" at line 2, column 3');
    expect(jsonFault('   ', { objectOrArray: true })).toBe('unexpected end of the body at line 1, column 4');
    expect(jsonFault('"query"')).toBeUndefined();
  });

  it('quotes one character, never the text around it', () => {
    const fault = jsonFault(`{"token":"sk_live_${'s'.repeat(10_000)}" "next":1}`);
    expect(fault).toBe('unexpected "\\"" at line 1, column 10021');
    expect(fault).not.toContain('sk_live');
  });

  it('looks no deeper than it can without recursion past the stack: a 60,000-level text gets no place', () => {
    expect(jsonFault('['.repeat(60_000))).toBeUndefined();
    expect(jsonFault(`${'['.repeat(900)}x`)).toBe('unexpected "x" at line 1, column 901');
  });
});

describe('plainJson', () => {
  it('gives numbers as JSON.parse would', () => {
    const text = '[18.999999999999999,-0,1e999,99999999999999999999,"7"]';
    expect(plainJson(parseLosslessJson(text))).toEqual(JSON.parse(text));
  });
});

describe('canonicalNumber', () => {
  it.each([
    [['5', '5.00', '5.0e0', '0.5e1', '500e-2', '0005'], '5e0'],
    [['1.50', '15e-1', '0.150e1', '1.5'], '15e-1'],
    [['0', '-0', '0.000', '0e10'], '0'],
    [['-18.00', '-1.8E1'], '-18e0'],
    [['1e999999999999999999999', '10e999999999999999999998'], '1e999999999999999999999'],
  ])('gives equal values one text: %j', (texts, canonical) => {
    for (const text of texts) expect(canonicalNumber(text)).toBe(canonical);
  });

  it('tells different values apart however close', () => {
    expect(canonicalNumber('18.999999999999999')).not.toBe(canonicalNumber('19'));
    expect(canonicalNumber('1e999999999999999999999')).not.toBe(canonicalNumber('1e999999999999999999998'));
  });
});
