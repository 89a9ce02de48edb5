// What every answer to hostile input must satisfy (test/rest/hostile-properties*.test.ts): a status the
// route documents, a body valid against the OpenAPI document, nothing leaked, and a refusal that wrote nothing.
import Ajv2020Module from 'ajv/dist/2020.js';
import { afterAll, expect } from 'vitest';
import { ERROR_CODES, HTTP_STATUS } from '../../../src/kernel/errors.js';
import { checkLedger } from '../../../src/ledger/check.js';
import type { ServiceFixture } from '../fixtures.js';
import { useSeededService } from '../fixtures.js';
import { ledgerSnapshot } from '../ledger.js';
import { openApiDocument } from '../openapi.js';

let fixture: ServiceFixture | undefined;

/**
 * The seeded service of the test file that calls it, once at its top level, whose ledger must still be
 * consistent at the end, whatever was thrown at it: every check here reads it.
 */
export function useHostileService(): ServiceFixture {
  const own = useSeededService();
  fixture = own;
  afterAll(async () => {
    expect((await checkLedger(own.database.db)).problems).toEqual([]);
  });
  return own;
}

export const LEAKS = [
  /\bat .*\(.*:\d+:\d+\)/,
  /node_modules/,
  /\bselect\b.*\bfrom\b/i,
  /\binsert into\b/i,
  /\bupdate\b.*\bset\b/i,
  /pg_|sqlstate|syntax error at/i,
  /demo-(partner|retail|vendor|operator)-key/,
  /key_hash/,
];
export const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
export const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false, allErrors: true });
ajv.addSchema(openApiDocument, 'openapi.json');
export const pointer = (...parts: string[]) =>
  parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
export type Operations = Record<string, Record<string, { responses: Record<string, unknown> }>>;
export const validators = new Map<string, ReturnType<typeof ajv.compile>>();
/** The OpenAPI schema of one route's answer with one status. */
export function validatorOf(path: string, method: string, status: number) {
  const ref = `openapi.json#/${pointer('paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

export interface Endpoint {
  path: string;
  method: 'GET' | 'POST';
  door: 'partner' | 'payments';
  /** The statuses the OpenAPI document lists for it, 5xx left out: a hostile value never earns one. */
  documented: number[];
}
export function endpoint(path: string, method: 'GET' | 'POST'): Endpoint {
  const responses = (openApiDocument.paths as Operations)[path]![method.toLowerCase()]!.responses;
  const documented = Object.keys(responses)
    .map(Number)
    .filter((status) => status < 500);
  return { path, method, door: path.startsWith('/payments/') ? 'payments' : 'partner', documented };
}

/** What a request sent: values the body may echo (they are the caller's own), and secrets it must not. */
export interface Sent {
  label: string;
  echoes: readonly unknown[];
  secrets: readonly string[];
}

export const stringsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsOf)
      : value && typeof value === 'object'
        ? Object.entries(value).flatMap(([k, v]) => [k, ...stringsOf(v)])
        : value === undefined
          ? []
          : [String(value)];

// An echo is only removed when it could trip a pattern itself, so a short echo cannot hide a leak.
export const TRIPPING = /select|from|insert|into|update|set|pg_|sqlstate|syntax|key|node_modules|\bat\b/i;

/** `text` with echoes of the caller's own values removed: whole, in parts, truncated, JSON-escaped. */
export function withoutEchoes(text: string, echoes: readonly unknown[]): string {
  const pieces = new Set<string>();
  for (const value of echoes.flatMap(stringsOf)) {
    for (const part of [value, ...value.split(/[,:]/).map((piece) => piece.trim())]) {
      for (const cut of [part, part.slice(0, 40), part.slice(0, 64), part.slice(0, 80)]) {
        if (TRIPPING.test(cut)) pieces.add(cut).add(JSON.stringify(cut).slice(1, -1));
      }
    }
  }
  let rest = text;
  for (const piece of [...pieces].sort((a, b) => b.length - a.length)) rest = rest.split(piece).join('\u0001');
  return rest;
}

/** Checks one answer against everything above; returns its status and parsed body. */
export async function expectSafeAnswer(
  route: Endpoint,
  response: Response,
  sent: Sent,
): Promise<{ status: number; body: any }> {
  const text = await response.text();
  const { status } = response;
  const where = `${route.method} ${sent.label.slice(0, 400)} -> ${status} ${text.slice(0, 400)}`;
  expect(status, `5xx: ${where}`).toBeLessThan(500);
  expect(route.documented, `undocumented status: ${where}`).toContain(status);
  expect(response.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
  let body: any;
  expect(() => (body = JSON.parse(text)), `not JSON: ${where}`).not.toThrow();
  const validate = validatorOf(route.path, route.method, status);
  expect(validate(body) ? [] : validate.errors, `body off the OpenAPI document: ${where}`).toEqual([]);
  if (status >= 400) {
    expect(ERROR_CODES, where).toContain(body.error.code);
    expect(HTTP_STATUS[body.error.code as keyof typeof HTTP_STATUS], where).toBe(status);
    if (route.door === 'partner') expect(body.message, where).toBe(body.error.message);
    else expect(Object.keys(body.error), where).toEqual(['code', 'message']);
  }
  // Every string of the body (keys and values), without the caller's own values echoed back.
  for (const piece of stringsOf(body)) {
    const rest = withoutEchoes(piece, sent.echoes);
    for (const pattern of LEAKS) expect(rest, `${pattern} in the body: ${where}`).not.toMatch(pattern);
  }
  for (const secret of sent.secrets) {
    if (secret.trim().length >= 8)
      expect(
        text.includes(JSON.stringify(secret).slice(1, -1)) || text.includes(secret),
        `the credential is echoed: ${where}`,
      ).toBe(false);
  }
  return { status, body };
}

/** Runs `send`; when the answer is a refusal, the ledger must be exactly as before. */
export async function refusalWritesNothing<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  const before = await ledgerSnapshot(fixture!.database.db);
  const answer = await send();
  if (answer.status >= 400)
    expect(await ledgerSnapshot(fixture!.database.db), `a refused request (${answer.status}) wrote`).toEqual(before);
  return answer;
}

/** The service the partner routes' requests go to. */
export const hostileService = () => fixture!.service;
