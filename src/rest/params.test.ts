import { describe, expect, it } from 'vitest';
import { AppError } from '../kernel/errors.js';
import { param, readDeclaredParams, readQueryParams, singleValue } from './params.js';

const codeOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return [error.code, error.message];
  }
  return null;
};

describe('legacy query parameters', () => {
  it('keeps every value of a parameter, decoded', () => {
    const params = readQueryParams('/v1/x.php?key=a%20b&filter=type:cash&filter=merchant.name:DEMO');
    expect(params.get('key')).toEqual(['a b']);
    expect(params.get('filter')).toEqual(['type:cash', 'merchant.name:DEMO']);
  });

  it('refuses a parameter given twice, naming it', () => {
    const params = readQueryParams('/v1/x.php?key=a&key=a');
    expect(codeOf(() => singleValue(params, 'key'))).toEqual([
      'INVALID_QUERY_PARAMETER',
      'the key query parameter was given 2 times; give it once',
    ]);
  });

  it('names a missing required parameter and passes parsed values through', () => {
    const specs = {
      amount: param.required({ kind: 'decimal', parse: (raw) => `parsed:${raw}` }, 'An amount.'),
      note: param.optional({ kind: 'text', parse: (raw) => raw }, 'A note.'),
    };
    expect(codeOf(() => readDeclaredParams(readQueryParams('/?note=x'), specs))).toEqual([
      'MISSING_QUERY_PARAMETER',
      'the amount query parameter is required',
    ]);
    expect(codeOf(() => readDeclaredParams(readQueryParams('/?amount='), specs))?.[0]).toBe('MISSING_QUERY_PARAMETER');
    expect(readDeclaredParams(readQueryParams('/?amount=5&unknown=1'), specs)).toEqual({ amount: 'parsed:5' });
  });
});
