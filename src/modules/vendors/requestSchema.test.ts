// Vendor schemas' patterns run on a linear-time engine: a catastrophic pattern answers at once, and a
// pattern that engine cannot run (or would silently change) is refused when the schema is stored.
import { describe, expect, it } from 'vitest';
import { DEMO_VENDOR_SCHEMA } from '../../fixtures/vendorSchemas.js';
import { notificationProblems, schemaProblem } from './requestSchema.js';

const withPattern = (pattern: string) => ({ type: 'object', properties: { note: { type: 'string', pattern } } });

describe('vendor request schemas', () => {
  it('checks a catastrophic pattern in linear time: ^(a|a)*$ on 40 a and a "!"', () => {
    // With JavaScript's backtracking RegExp this takes about 2^40 steps (hours).
    const schema = withPattern('^(a|a)*$');
    expect(schemaProblem(schema)).toBeNull();
    expect(notificationProblems(schema, { note: `${'a'.repeat(40)}!` })).toEqual([
      'note must match pattern "^(a|a)*$"',
    ]);
    expect(notificationProblems(schema, { note: 'a'.repeat(1000) })).toEqual([]);
  });

  it('checks patternProperties and propertyNames on the same engine', () => {
    const keys = { type: 'object', patternProperties: { '^(a+)+$': { type: 'integer' } } };
    expect(notificationProblems(keys, { [`${'a'.repeat(40)}!`]: 'x', aaa: 'x' })).toEqual(['aaa must be integer']);
    const names = { type: 'object', propertyNames: { pattern: '^(a|aa)*$' } };
    expect(notificationProblems(names, { [`${'a'.repeat(60)}!`]: 1 })).toContain(
      'the notification must match pattern "^(a|aa)*$"',
    );
  });

  it('keeps each pattern its own, across schemas and within one', () => {
    const two = {
      type: 'object',
      properties: { x: { type: 'string', pattern: '^x+$' }, y: { type: 'string', pattern: '^y+$' } },
    };
    expect(notificationProblems(two, { x: 'xx', y: 'yy' })).toEqual([]);
    expect(notificationProblems(two, { x: 'yy', y: 'xx' })).toEqual([
      'x must match pattern "^x+$"',
      'y must match pattern "^y+$"',
    ]);
    expect(notificationProblems(withPattern('^b$'), { note: 'b' })).toEqual([]);
    expect(notificationProblems(withPattern('^c$'), { note: 'b' })).toEqual(['note must match pattern "^c$"']);
  });

  it('reads patterns as ECMA-262 with the u flag: \\u escapes, \\p{L}, named groups, \\d', () => {
    expect(schemaProblem(DEMO_VENDOR_SCHEMA)).toBeNull();
    const cases: Array<[string, string, boolean]> = [
      ['^\\u00e9$', 'é', true],
      ['^\\u{1F600}$', '😀', true],
      ['^.$', '😀', true],
      ['^\\p{L}+$', 'Łódź', true],
      ['^\\p{L}+$', 'abc1', false],
      ['^(?<digits>\\d{3})-\\d{4}$', '555-1234', true],
      ['^[^/]+\\/[a-z]$', 'ab/c', true],
      ['^[A-Z]{3}$', 'usd', false],
    ];
    for (const [pattern, value, matches] of cases) {
      expect(schemaProblem(withPattern(pattern)), pattern).toBeNull();
      expect(notificationProblems(withPattern(pattern), { note: value }).length === 0, `${pattern} on ${value}`).toBe(
        matches,
      );
    }
  });

  it('refuses, naming the pattern and why, what the linear engine cannot run or would change', () => {
    const refusals: Array<[string, RegExp]> = [
      ['^(a)\\1$', /has pattern "\^\(a\)\\\\1\$", which uses a backreference \(\\1\)/],
      ['^(?<x>a)\\k<x>$', /uses a named backreference/],
      ['(a)(b)(c)(d)(e)(f)(g)(h)\\8', /uses a backreference \(\\8\)/],
      ['^(?=a)a$', /uses lookaround/],
      ['^a(?!b)', /uses lookaround/],
      ['(?<=a)b', /uses lookaround/],
      ['(?<!a)b', /uses lookaround/],
      ['^\\uD83D\\uDE00$', /escapes a UTF-16 surrogate \(D83D\)/],
      ['^a{1001}$', /cannot be compiled by the linear-time engine \(.*invalid repeat count/],
      ['^(a$', /is not a valid ECMA-262 regular expression/],
      ['\\a', /is not a valid ECMA-262 regular expression/],
    ];
    for (const [pattern, problem] of refusals) {
      expect(schemaProblem(withPattern(pattern)), pattern).toMatch(problem);
      expect(schemaProblem({ type: 'object', patternProperties: { [pattern]: {} } }), pattern).toMatch(problem);
    }
    // An escaped parenthesis or one inside a class is not a group.
    expect(schemaProblem(withPattern('^\\(?=$'))).toBeNull();
    expect(schemaProblem(withPattern('^[(?=]+$'))).toBeNull();
    expect(schemaProblem(withPattern('^\\\\1$'))).toBeNull();
  });

  it('treats format as an annotation: no format runs a regex', () => {
    expect(
      notificationProblems(
        { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
        { email: 'not an email' },
      ),
    ).toEqual([]);
  });
});
