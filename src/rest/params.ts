// The query string of a legacy request, read strictly: a parameter given twice is an error, never
// "first one wins" (decisions.md 3). Unknown parameters are ignored.
import { invalidParameter, missingParameter } from '../kernel/errors.js';
import { isDatabaseId } from '../kernel/ids.js';
import { isDecimalText, isSupportedCurrency } from '../kernel/money.js';

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

/**
 * How a parameter's text becomes the operation variable's value (`parse`, which throws AppError for a
 * bad value), and what that text is, for the OpenAPI document (rest/openapi.ts gives each kind its schema).
 */
interface ParamParser<T> {
  kind: 'text' | 'integer' | 'decimal';
  parse: (raw: string, name: string) => T;
}

/** A declared parameter of a legacy route; its name is its key in the route's ParamSpecs. */
interface ParamSpec<T = unknown, TRequired extends boolean = boolean, TRepeatable extends boolean = boolean> {
  required: TRequired;
  /** May be given more than once (filter): the value is then the list of every value. */
  repeatable: TRepeatable;
  parse: (raw: string, name: string) => T;
  kind: ParamParser<T>['kind'];
  /** What the parameter means, as the OpenAPI document says it. */
  description: string;
}

/** A route's declared parameters by name, read in the order written. */
export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

const declare =
  <TRequired extends boolean, TRepeatable extends boolean>(required: TRequired, repeatable: TRepeatable) =>
  <T>({ kind, parse }: ParamParser<T>, description: string): ParamSpec<T, TRequired, TRepeatable> => ({
    required,
    repeatable,
    parse,
    kind,
    description,
  });

/** How a route declares a parameter: the literal types tell ParamValues which values are always there. */
export const param = {
  required: declare(true, false),
  optional: declare(false, false),
  /** Every value given, in order; none is an empty list. */
  repeatable: declare(false, true),
};

type ValueOf<TSpec> =
  TSpec extends ParamSpec<infer T, boolean, true> ? T[] : TSpec extends ParamSpec<infer T> ? T : never;
/** Names of the parameters that always have a value once read: the required and the repeatable ones. */
type PresentNames<P extends ParamSpecs> = {
  [K in keyof P]: P[K] extends ParamSpec<unknown, true> | ParamSpec<unknown, boolean, true> ? K : never;
}[keyof P];

/** The values readDeclaredParams gives, e.g. `{ cartTag: string; fields?: ReadonlySet<string> }`. */
export type ParamValues<P extends ParamSpecs> = { [K in PresentNames<P>]: ValueOf<P[K]> } & {
  [K in Exclude<keyof P, PresentNames<P>>]?: ValueOf<P[K]>;
};

/** Parsers of parameter text; each failure is INVALID_QUERY_PARAMETER naming the parameter. */
export const parseParam = {
  text: (max: number): ParamParser<string> => ({
    kind: 'text',
    parse: (raw, name) => {
      if (raw.length > max) throw invalidParameter(name, `must be at most ${max} characters`);
      return raw;
    },
  }),
  databaseId: {
    kind: 'integer',
    parse: (raw: string, name: string): string => {
      if (!isDatabaseId(raw)) throw invalidParameter(name, 'must be a positive whole number');
      return raw;
    },
  },
  unixSeconds: {
    kind: 'integer',
    parse: (raw: string, name: string): number => {
      if (!/^\d{1,11}$/.test(raw)) throw invalidParameter(name, 'must be a Unix timestamp in whole seconds');
      return Number(raw);
    },
  },
  decimal: {
    kind: 'decimal',
    parse: (raw: string, name: string): string => {
      if (!isDecimalText(raw)) throw invalidParameter(name, 'must be a decimal number such as 18.00');
      return raw;
    },
  },
  currencyCode: {
    kind: 'text',
    parse: (raw: string, name: string): string => {
      if (!/^[A-Z]{3}$/.test(raw))
        throw invalidParameter(name, 'must be an ISO 4217 currency code in capitals, such as USD');
      if (!isSupportedCurrency(raw))
        throw invalidParameter(name, `names ${raw}, a currency the service does not support`);
      return raw;
    },
  },
  /** A comma-separated list of names from `allowed`; the set of names given. */
  fieldList: (allowed: readonly string[]): ParamParser<ReadonlySet<string>> => ({
    kind: 'text',
    parse: (raw, name) => {
      const names = raw
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
      for (const field of names) {
        if (!allowed.includes(field)) {
          throw invalidParameter(
            name,
            `names ${JSON.stringify(field.slice(0, 80))}, which is not one of: ${allowed.join(', ')}`,
          );
        }
      }
      return new Set(names);
    },
  }),
} satisfies Record<string, ParamParser<unknown> | ((...args: never[]) => ParamParser<unknown>)>;

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
export function readDeclaredParams<P extends ParamSpecs>(params: QueryParams, specs: P): ParamValues<P> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.repeatable) {
      const all = params.get(name) ?? [];
      if (spec.required && all.length === 0) throw missingParameter(name);
      values[name] = all.map((raw) => spec.parse(withoutNul(name, raw), name));
      continue;
    }
    const raw = singleValue(params, name);
    if (raw === undefined || raw === '') {
      if (spec.required) throw missingParameter(name);
      continue;
    }
    values[name] = spec.parse(raw, name);
  }
  // The loop gave each declared name its parser's value (required ones always, optional ones when given).
  return values as ParamValues<P>;
}
