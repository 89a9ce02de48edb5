// The query string of a legacy request, read strictly: a parameter given twice is an error, never
// "first one wins" (decisions.md 3). Unknown parameters are ignored.
import { invalidParameter, missingParameter } from '../errors.js';
import { isDatabaseId } from '../ids.js';
import { isDecimalText, isSupportedCurrency } from '../money.js';

/** Every query parameter with all of its values, in order. */
export type QueryParams = ReadonlyMap<string, readonly string[]>;

export function readQueryParams(url: string): QueryParams {
  const params = new Map<string, string[]>();
  const search = new URL(url, 'http://localhost').searchParams;
  for (const [name, value] of search) {
    const values = params.get(name);
    if (values) values.push(value);
    else params.set(name, [value]);
  }
  return params;
}

/** A declared parameter of a legacy route. */
export interface ParamSpec<T = unknown> {
  name: string;
  required: boolean;
  /** May be given more than once (filter): the value is then the list of every value. */
  repeatable?: boolean;
  /** Turns the text into the operation variable's value; throws AppError for a bad value. */
  parse: (raw: string, name: string) => T;
}

/** Parsers of parameter text; each failure is INVALID_QUERY_PARAMETER naming the parameter. */
export const parseParam = {
  text:
    (max: number) =>
    (raw: string, name: string): string => {
      if (raw.length > max) throw invalidParameter(name, `must be at most ${max} characters`);
      return raw;
    },
  databaseId: (raw: string, name: string): string => {
    if (!isDatabaseId(raw)) throw invalidParameter(name, 'must be a positive whole number');
    return raw;
  },
  unixSeconds: (raw: string, name: string): number => {
    if (!/^\d{1,11}$/.test(raw)) throw invalidParameter(name, 'must be a Unix timestamp in whole seconds');
    return Number(raw);
  },
  decimal: (raw: string, name: string): string => {
    if (!isDecimalText(raw)) throw invalidParameter(name, 'must be a decimal number such as 18.00');
    return raw;
  },
  currencyCode: (raw: string, name: string): string => {
    if (!/^[A-Z]{3}$/.test(raw)) throw invalidParameter(name, 'must be an ISO 4217 currency code in capitals, such as USD');
    if (!isSupportedCurrency(raw)) throw invalidParameter(name, `names ${raw}, a currency the service does not support`);
    return raw;
  },
  /** A comma-separated list of names from `allowed`; the set of names given. */
  fieldList:
    (allowed: readonly string[]) =>
    (raw: string, name: string): ReadonlySet<string> => {
      const names = raw.split(',').map((part) => part.trim()).filter(Boolean);
      for (const field of names) {
        if (!allowed.includes(field)) {
          throw invalidParameter(name, `names ${JSON.stringify(field.slice(0, 80))}, which is not one of: ${allowed.join(', ')}`);
        }
      }
      return new Set(names);
    },
};

/** The single value of a parameter, or undefined when absent; a repeated parameter is an error. */
export function singleValue(params: QueryParams, name: string): string | undefined {
  const values = params.get(name);
  if (!values) return undefined;
  if (values.length > 1) throw invalidParameter(name, `was given ${values.length} times; give it once`);
  return withoutNul(name, values[0]!);
}

/** Postgres text cannot hold NUL: a parameter the route reads is refused here, by name. */
function withoutNul(name: string, value: string): string {
  if (value.includes('\u0000')) throw invalidParameter(name, 'must not contain NUL characters');
  return value;
}

/** Reads every declared parameter: missing, repeated and malformed ones are 400s naming the parameter. */
export function readDeclaredParams(params: QueryParams, specs: readonly ParamSpec[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const spec of specs) {
    if (spec.repeatable) {
      const all = params.get(spec.name) ?? [];
      if (spec.required && all.length === 0) throw missingParameter(spec.name);
      values[spec.name] = all.map((raw) => spec.parse(withoutNul(spec.name, raw), spec.name));
      continue;
    }
    const raw = singleValue(params, spec.name);
    if (raw === undefined || raw === '') {
      if (spec.required) throw missingParameter(spec.name);
      continue;
    }
    values[spec.name] = spec.parse(raw, spec.name);
  }
  return values;
}
