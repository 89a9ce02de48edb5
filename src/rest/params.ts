// The query string of a legacy request, read strictly: a parameter given twice is an error, never
// "first one wins" (decisions.md 3). Unknown parameters are ignored.
import { invalidParameter, missingParameter } from '../errors.js';

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
  /** Turns the text into the operation variable's value; throws AppError for a bad value. */
  parse: (raw: string, name: string) => T;
}

/** The single value of a parameter, or undefined when absent; a repeated parameter is an error. */
export function singleValue(params: QueryParams, name: string): string | undefined {
  const values = params.get(name);
  if (!values) return undefined;
  if (values.length > 1) throw invalidParameter(name, `was given ${values.length} times; give it once`);
  return values[0];
}

/** Reads every declared parameter: missing, repeated and malformed ones are 400s naming the parameter. */
export function readDeclaredParams(params: QueryParams, specs: readonly ParamSpec[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const spec of specs) {
    const raw = singleValue(params, spec.name);
    if (raw === undefined || raw === '') {
      if (spec.required) throw missingParameter(spec.name);
      continue;
    }
    values[spec.name] = spec.parse(raw, spec.name);
  }
  return values;
}
