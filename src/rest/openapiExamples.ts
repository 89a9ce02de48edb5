// The OpenAPI document's examples. Real ones first: every golden file of test/golden/ (read by npm run
// openapi, at build time: the service carries none of them) becomes an example of the response it
// pins, its JSON request body an example of the operation's body, its query values the parameters'
// examples. Answers no golden run can provoke (a query string over 8 KiB, a spent quota, an unexpected
// error, the database away) are rendered by the one error renderer from the errors the service raises.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Door, errorBody } from '../http/errorResponses.js';
import { AppError, internalErrorMessage, serviceUnavailable } from '../kernel/errors.js';
import { DEFAULT_LIMITS } from '../kernel/limitSettings.js';
import { uriTooLong } from '../ops/httpLimits.js';
import { keyQuotaExceeded } from '../pipeline/rateLimits/requestLimits.js';
import { type Examples, errorResponse, type Parameter, rateLimitedResponse } from './openapiSchemas.js';

/** One golden file, as the document's examples use it. */
export interface GoldenExample {
  /** test/golden/<folder>/<name>.json */
  folder: string;
  name: string;
  /** What the case shows. */
  about: string;
  method: string;
  /** The request's path without its query string, and the query string without "?" ("" when none). */
  path: string;
  query: string;
  /** The JSON body the request sent; absent when it sent none, or a body that is not JSON. */
  requestBody?: unknown;
  status: number;
  responseBody: unknown;
}

interface GoldenFile {
  about: string;
  request: { method: string; path: string; json?: unknown };
  response: { status: number; body: unknown };
}

/** Every golden file under `dir` (test/golden/), folder by folder and file by file in name order. */
export function readGoldenExamples(dir: string): GoldenExample[] {
  const folders = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return folders
    .map((folder) => folder.name)
    .sort()
    .flatMap((folder) =>
      readdirSync(join(dir, folder))
        .filter((file) => file.endsWith('.json'))
        .sort()
        .map((file) => {
          const golden = JSON.parse(readFileSync(join(dir, folder, file), 'utf8')) as GoldenFile;
          const [path = '', query = ''] = golden.request.path.split('?', 2);
          return {
            folder,
            name: file.slice(0, -'.json'.length),
            about: golden.about,
            method: golden.request.method,
            path,
            query,
            ...(golden.request.json !== undefined ? { requestBody: golden.request.json } : {}),
            status: golden.response.status,
            responseBody: golden.response.body,
          };
        }),
    );
}

/** A fixed error id, so the document is the same on every build. */
const EXAMPLE_ERROR_ID = '3f2b8c1e-5d4a-4e7b-9c6f-0a1b2c3d4e5f';

const RENDERED = "Rendered by the service's error renderer: no golden file holds this answer.";

/** `error` as `door` answers it, under its code's name. */
export function rendered(door: Door, error: AppError, summary: string): Examples {
  const { code: _code, http: _http, ...details } = error.extensions;
  return {
    [error.code.toLowerCase().replaceAll('_', '-')]: {
      summary,
      description: RENDERED,
      value: errorBody(door, error.code, error.message, door === 'graphql' ? details : {}),
    },
  };
}

/** The answers of a door no golden file holds, as that door renders them, by status. */
function renderedErrors(door: Door): Partial<Record<number, Examples>> {
  return {
    414: rendered(door, uriTooLong(), 'a query string over 8 KiB'),
    429: rendered(
      door,
      keyQuotaExceeded(DEFAULT_LIMITS.requestsPerKey, 42),
      'an API key past its quota (the default 600 requests per 60 s)',
    ),
    500: rendered(
      door,
      new AppError('INTERNAL_SERVER_ERROR', internalErrorMessage(EXAMPLE_ERROR_ID), { errorId: EXAMPLE_ERROR_ID }),
      'an unexpected error: the id finds the detail in the service log',
    ),
    503: rendered(door, serviceUnavailable(), 'the database cannot be reached'),
  };
}

/**
 * Status `status` in `door`'s error body, with the rendered example when no golden file can hold one
 * (414, 429, 500, 503); 429 with its headers.
 */
export function errorAnswer(door: Door, status: number, description: string) {
  const examples = renderedErrors(door)[status];
  return status === 429 ? rateLimitedResponse(door, description, examples) : errorResponse(door, description, examples);
}

type MediaType = { schema?: unknown; example?: unknown; examples?: Examples };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
};
type Paths = Record<string, Record<string, Operation>>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The goldens answered by `method path`: its own, and on its 405 those that sent a method the path
 * does not document.
 */
function goldensOf(goldens: readonly GoldenExample[], paths: Paths, path: string, method: string) {
  return goldens.filter(
    (golden) =>
      golden.path === path &&
      (golden.method.toLowerCase() === method ||
        (golden.status === 405 && !paths[path]?.[golden.method.toLowerCase()])),
  );
}

const asExample = (golden: GoldenExample, value: unknown) => ({ summary: golden.about, value });

/** The first value of `name` in the query of a successful golden, typed as the parameter's schema. */
function parameterExample(goldens: readonly GoldenExample[], name: string, type: unknown): unknown {
  for (const golden of goldens) {
    if (golden.status >= 300) continue;
    const values = new URLSearchParams(golden.query).getAll(name);
    if (values.length === 0) continue;
    if (type === 'array') return values;
    return type === 'integer' ? Number(values[0]) : values[0];
  }
  return undefined;
}

/** `paths` with the goldens' examples added to every operation they belong to (a new object). */
export function withGoldenExamples(paths: Paths, goldens: readonly GoldenExample[]): Paths {
  // Through JSON, not structuredClone: should two operations share a response object, structuredClone
  // would keep it shared, giving one operation the examples of another.
  const copy = JSON.parse(JSON.stringify(paths)) as Paths;
  for (const [path, item] of Object.entries(copy)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const own = goldensOf(goldens, copy, path, method);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query') continue;
        const example = parameterExample(own, parameter.name, parameter.schema.type);
        if (example !== undefined) parameter.example = example;
      }
      const body = operation.requestBody?.content['application/json'];
      if (body) {
        const seen = new Set<string>();
        for (const golden of own) {
          // Only bodies the service accepted: a refused one is no example of the body.
          if (golden.status >= 300 || golden.requestBody === undefined) continue;
          const text = JSON.stringify(golden.requestBody);
          if (seen.has(text)) continue; // a replay sends the body of the first request again
          seen.add(text);
          body.examples = { ...body.examples, [golden.name]: asExample(golden, golden.requestBody) };
        }
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.['application/json'];
        if (!media) continue;
        for (const golden of own.filter((candidate) => String(candidate.status) === status)) {
          media.examples = { ...media.examples, [golden.name]: asExample(golden, golden.responseBody) };
        }
      }
    }
  }
  return copy;
}
