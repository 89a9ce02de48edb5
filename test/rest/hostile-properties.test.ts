// Hostile input, generated (fast-check): every query parameter, header and JSON field of the eight
// legacy endpoints takes hostile values, one at a time and sometimes several, the others valid. For
// every request: never a 5xx, only a status the route documents, a body that satisfies the OpenAPI
// document (the route's error shape for 4xx), no stack trace, SQL or key in it, and a refused payment
// writes nothing. Beside them, two rules hostile callers probe: a key of the wrong kind is 403 on
// every partner route, and an access token altered in any way is 401. Seeded and bounded (RUNS): a
// failure reproduces, and fast-check prints it shrunk.
import Ajv2020Module from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { ERROR_CODES, HTTP_STATUS } from '../../src/kernel/errors.js';
import { checkLedger } from '../../src/ledger/check.js';
import { FILTER_PATHS } from '../../src/modules/transactions/filters.js';
import { useSeededService } from '../support/fixtures.js';
import { ledgerSnapshot } from '../support/ledger.js';
import { openApiDocument } from '../support/openapi.js';

const fixture = useSeededService();

// Whatever was thrown at it, the ledger is still consistent.
afterAll(async () => {
  expect((await checkLedger(fixture.database.db)).problems).toEqual([]);
});
const RUNS = { numRuns: 40, seed: 20_260_611 };

// ---- Hostile values ----------------------------------------------------------------------------

const SQL = [
  "' or 1=1 --",
  "'; drop table payments; --",
  '" or ""="',
  "') or ('a'='a",
  '1; select pg_sleep(5) --',
  "' union select key_hash from api_keys --",
  '%',
  '_',
  '\\',
  "\\'",
  '$1',
  '?',
  '/*',
  '--',
];
const PATHS = [
  '../../etc/passwd',
  '%2e%2e/',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '....//....//',
  '..%c0%af',
  'file:///etc/passwd',
  '.',
  '..',
];
const NUMERIC = [
  '1e3',
  '-0',
  '0.000000001',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '-Infinity',
  '1,5',
  ' 1',
  '1 ',
  '0x10',
  '0b101',
  '1_000',
  '+1',
  '-1',
  '0',
  '00',
  '.5',
  '5.',
  '1.2.3',
  '1e-7',
  '1E308',
  '-1e308',
  '5e-324',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '253402300800',
  '99999999999',
  `0.${'0'.repeat(40)}1`,
  `1.${'5'.repeat(30)}`,
  `${'9'.repeat(20)}.${'9'.repeat(20)}`,
  '9'.repeat(21),
  '١٢٣',
  '１８',
  '18.00\u0000',
  '18.00\n',
  '\t18.00',
];
const ODD = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\n',
  '\u200b',
  '\ufeff',
  '\u202e',
  '\ud800',
  '\udfff',
  'null',
  'undefined',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, meant as literal text
  '${7*7}',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗̻̲',
  '__proto__',
  'constructor',
  'demo-operator-key',
];
const control = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0x9f }))
    .map((code) => String.fromCharCode(code)),
  minLength: 1,
  maxLength: 8,
});

/** Short hostile text: fixed fragments, unicode (graphemes, any code point, control characters). */
const shortHostile = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SQL, ...PATHS, ...NUMERIC, ...ODD) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) },
  { weight: 1, arbitrary: control },
);
// 10k+ characters. In a query string only characters URLSearchParams leaves as one byte: Node
// refuses a request line over 16 kB (431) before the service sees it.
const longQueryText = fc
  .tuple(fc.constantFrom('a', '9', 'x-', ' ', '*', '.5', '0.'), fc.integer({ min: 10_000, max: 11_000 }))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));
const longJsonText = fc.oneof(
  longQueryText,
  fc.string({ unit: 'grapheme', minLength: 10_000, maxLength: 10_000 }),
  fc.constantFrom('é'.repeat(12_000), '😀'.repeat(10_000), "' or 1=1 --".repeat(1_000), '\u0000'.repeat(10_000)),
);
/** Hostile text for a parameter whose valid value is `valid`: alone, or glued to the valid value. */
const hostileText = (valid: string, long = longQueryText) =>
  fc.oneof(
    { weight: 6, arbitrary: shortHostile },
    { weight: 1, arbitrary: long },
    { weight: 2, arbitrary: shortHostile.map((text) => valid + text) },
    { weight: 1, arbitrary: shortHostile.map((text) => text + valid) },
  );
const nested = (depth: number): unknown => (depth === 0 ? 'x' : [nested(depth - 1)]);
/** Any JSON value where `valid` belongs: wrong types, edge numbers, nesting, hostile text. */
const hostileJson = (valid: string) =>
  fc.oneof(
    { weight: 5, arbitrary: hostileText(valid, longJsonText) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(
        null,
        true,
        false,
        0,
        -0,
        1,
        -1,
        0.5,
        1e308,
        -1e308,
        Number.MIN_VALUE,
        2 ** 53 + 2,
        1e21,
        // biome-ignore lint/correctness/noPrecisionLoss: a number past double precision, on purpose
        99999999999999999999,
        0.1 + 0.2,
        4000012,
        123456789012362,
      ),
    },
    { weight: 1, arbitrary: fc.oneof(fc.double(), fc.integer()) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>([valid], { value: valid }, { $gt: '' }, { $ne: null }, [], {}) },
    { weight: 1, arbitrary: fc.integer({ min: 28, max: 40 }).map(nested) },
  );
// JSON text only a hand-written body can carry: -0, out-of-range numbers, escapes of NUL and lone surrogates.
const RAW_JSON = [
  '-0',
  '-0.0',
  '0e0',
  '1e308',
  '1e999',
  '-1e999',
  '99999999999999999999999',
  '123456789012345678901234567890',
  '0.000000001',
  '1E3',
  '1.0',
  '0.01e0',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"\\u0000DTSTBBD"',
  '[[[[[[[[[[]]]]]]]]]]',
  '{"$gt":""}',
];
// Query text written by hand: malformed or double percent-encoding, encoded separators, CRLF.
const RAW_QUERY = [
  '%00',
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%FF%FE%FD',
  '%C0%AE%C0%AE%2F',
  '%2e%2e%2f%2e%2e%2f',
  '..%252f..%252f',
  '%0d%0aSet-Cookie:%20x=1',
  '+',
  '%20',
  '%2B',
  'a%26key%3Ddemo-operator-key',
  '%u0041',
  '%E2%80%AE',
  '%F0%9F%98%80',
];
const rawQueryText = fc.oneof(
  fc.constantFrom(...RAW_QUERY),
  fc.string({
    unit: fc.constantFrom('%', '0', 'A', 'f', 'E', '2', '&', '=', '+', ';', '?', '/', '.', 'é'),
    minLength: 1,
    maxLength: 20,
  }),
);

// ---- What every answer must satisfy --------------------------------------------------------------

const LEAKS = [
  /\bat .*\(.*:\d+:\d+\)/,
  /node_modules/,
  /\bselect\b.*\bfrom\b/i,
  /\binsert into\b/i,
  /\bupdate\b.*\bset\b/i,
  /pg_|sqlstate|syntax error at/i,
  /demo-(partner|retail|vendor|operator)-key/,
  /key_hash/,
];
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false, allErrors: true });
ajv.addSchema(openApiDocument, 'openapi.json');
const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
type Operations = Record<string, Record<string, { responses: Record<string, unknown> }>>;
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
/** The OpenAPI schema of one route's answer with one status. */
function validatorOf(path: string, method: string, status: number) {
  const ref = `openapi.json#/${pointer('paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

interface Endpoint {
  path: string;
  method: 'GET' | 'POST';
  door: 'partner' | 'payments';
  /** The statuses the OpenAPI document lists for it, 5xx left out: a hostile value never earns one. */
  documented: number[];
}
function endpoint(path: string, method: 'GET' | 'POST'): Endpoint {
  const responses = (openApiDocument.paths as Operations)[path]![method.toLowerCase()]!.responses;
  const documented = Object.keys(responses)
    .map(Number)
    .filter((status) => status < 500);
  return { path, method, door: path.startsWith('/payments/') ? 'payments' : 'partner', documented };
}

/** What a request sent: values the body may echo (they are the caller's own), and secrets it must not. */
interface Sent {
  label: string;
  echoes: readonly unknown[];
  secrets: readonly string[];
}

const stringsOf = (value: unknown): string[] =>
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
const TRIPPING = /select|from|insert|into|update|set|pg_|sqlstate|syntax|key|node_modules|\bat\b/i;

/** `text` with echoes of the caller's own values removed: whole, in parts, truncated, JSON-escaped. */
function withoutEchoes(text: string, echoes: readonly unknown[]): string {
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
async function expectSafeAnswer(
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
async function refusalWritesNothing<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  const before = await ledgerSnapshot(fixture.database.db);
  const answer = await send();
  if (answer.status >= 400)
    expect(await ledgerSnapshot(fixture.database.db), `a refused request (${answer.status}) wrote`).toEqual(before);
  return answer;
}

// ---- Partner query interface -----------------------------------------------------------------------

const now = Math.floor(Date.now() / 1000);
/** Each partner route with a valid value for every parameter (in order); key first. */
const PARTNER_ROUTES: Array<{ path: string; valid: Array<[string, string]> }> = [
  { path: '/v1/list-clerks.php', valid: [['key', 'demo-partner-key']] },
  { path: '/v1/list-merchants.php', valid: [['key', 'demo-retail-key']] },
  {
    path: '/v1/lookup-customer.php',
    valid: [
      ['key', 'demo-partner-key'],
      ['customerLocator', '14084930580'],
      ['fields', 'device.description'],
    ],
  },
  {
    path: '/v1/lookup-cart.php',
    valid: [
      ['key', 'demo-partner-key'],
      ['cartTag', DEMO_CART_TAG],
      ['fields', 'customer.name,device.description'],
    ],
  },
  {
    path: '/v1/list-transactions.php',
    valid: [
      ['key', 'demo-partner-key'],
      ['starttime', String(now - 30 * 86_400)],
      ['endtime', String(now + 60)],
      ['filter', 'type:cash'],
    ],
  },
  {
    path: '/v1/record-customer-payment.php',
    valid: [
      ['key', 'demo-retail-key'],
      ['merchantId', DEMO_MERCHANT_ID],
      ['salesClerkId', DEMO_CLERK_ID],
      ['financeOrderId', DEMO_ORDER_ID],
      ['amount', '0.01'],
      ['currency', 'USD'],
    ],
  },
];
const DEMO_KEYS = [
  'demo-partner-key',
  'demo-retail-key',
  'other-partner-key',
  'other-retail-key',
  'demo-vendor-key',
  'other-vendor-key',
  'demo-operator-key',
];
const IDS = [
  '1',
  '2000001',
  '6001',
  '5000002',
  '4000010',
  DEMO_MERCHANT_ID,
  DEMO_CLERK_ID,
  '999999999999999999',
  '9223372036854775807',
];
/** Weird but well-formed values: they may legitimately succeed, find nothing, or be another tenant's. */
const PLAUSIBLE: Record<string, readonly string[]> = {
  key: DEMO_KEYS,
  customerLocator: [
    DEMO_DEVICE_IMEI,
    '1234567890123470',
    DEMO_DEVICE_TAG,
    'dtstbbb',
    '4000005',
    '5512345679',
    'DTSTBBE',
    '5215550000001',
    '0',
    '+14084930580',
  ],
  cartTag: ['CART-OTHER-1', 'cart-demo-1', `${DEMO_CART_TAG} `, 'CART-DEMO-%'],
  fields: [
    'device.description,device.description',
    ' customer.name , ',
    ',,,',
    'customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description',
  ],
  starttime: ['0', '253402300799', '99999999999', String(now), String(now - 366 * 86_400)],
  endtime: [
    '0',
    '253402300799',
    '99999999999',
    String(now - 30 * 86_400),
    String(now - 30 * 86_400 + 366 * 86_400 + 1),
  ],
  filter: [
    'type:CASH',
    'amount:-18',
    'amount:-18.000',
    `financeOrder.id:${DEMO_ORDER_ID}`,
    'time:0',
    'merchant.name:DEMO',
    `device.imei:${DEMO_DEVICE_IMEI}`,
  ],
  merchantId: IDS,
  salesClerkId: IDS,
  financeOrderId: IDS,
  amount: ['00.01', '1.0', '0', '-0.01', '0.001', '198.01', '99999999999999999999', '18446744073709551616'],
  currency: ['MXN', 'JPY', 'KWD', 'EUR', 'XXX', 'usd', 'USD '],
};

/** The values one parameter is given: null leaves it out; two or more repeat it. */
const attackOn = (name: string, valid: string): fc.Arbitrary<string[] | null> =>
  fc.oneof(
    { weight: 7, arbitrary: hostileText(valid).map((value) => [value]) },
    { weight: 3, arbitrary: fc.constantFrom(...(PLAUSIBLE[name] ?? [valid])).map((value) => [value]) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant<string[]>([valid, valid]) },
    { weight: 2, arbitrary: shortHostile.map((value) => [valid, value]) },
    { weight: 1, arbitrary: fc.array(shortHostile, { minLength: 2, maxLength: 4 }) },
  );
/** Unknown parameters (ignored by the contract), with hostile names and values. */
const unknownParams = fc.array(fc.tuple(shortHostile, shortHostile), { maxLength: 2 });

async function sendPartner(
  path: string,
  query: Array<[string, string]>,
  raw = '',
  headers: Record<string, string> = {},
) {
  const route = endpoint(path, 'GET');
  const search = new URLSearchParams(query).toString();
  const url = `${path}?${[search, raw].filter(Boolean).join('&')}`;
  // As the service reads them: a raw piece may carry a second key, or values only decoding shows.
  const read = [...new URL(url, 'http://localhost').searchParams];
  const echoes = [...read.filter(([name]) => name !== 'key').flat(), ...Object.values(headers)];
  const sent: Sent = {
    label: `${url} ${JSON.stringify(headers)}`,
    echoes,
    secrets: read.filter(([name]) => name === 'key').map(([, value]) => value),
  };
  const send = async () => expectSafeAnswer(route, await fixture.service.request(url, { headers }), sent);
  return path.includes('record-customer-payment') ? refusalWritesNothing(send) : send();
}

describe('hostile properties: partner query interface', () => {
  for (const { path, valid } of PARTNER_ROUTES) {
    describe(path, () => {
      // One parameter at a time: every declared parameter, the key included.
      it.each(valid.map(([name, value]) => [name, value] as const))(
        '%s: hostile, repeated, empty or missing; the others valid',
        async (name, value) => {
          await fc.assert(
            fc.asyncProperty(attackOn(name, value), unknownParams, async (values, unknown) => {
              const query = valid.flatMap(
                ([other, otherValue]): Array<[string, string]> =>
                  other === name ? (values ?? []).map((v) => [name, v]) : [[other, otherValue]],
              );
              await sendPartner(path, [...query, ...unknown]);
            }),
            RUNS,
          );
        },
      );

      // The key stays valid (it is checked first, and has its own property above).
      const names = valid.map(([name]) => name).filter((name) => name !== 'key');
      if (names.length >= 2)
        it('several parameters hostile at once', async () => {
          const hostile = (name: string) => fc.oneof(shortHostile, fc.constantFrom(...PLAUSIBLE[name]!));
          const values = fc.record(
            Object.fromEntries(names.map((name) => [name, hostile(name)])) as Record<string, fc.Arbitrary<string>>,
          );
          await fc.assert(
            fc.asyncProperty(fc.subarray(names, { minLength: 2 }), values, async (chosen, hostileValues) => {
              await sendPartner(
                path,
                valid.map(([name, value]) => [name, chosen.includes(name) ? hostileValues[name]! : value]),
              );
            }),
            RUNS,
          );
        });

      it('raw-encoded values and names: malformed %-escapes, encoded separators, a second key by hand', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...valid.map(([name]) => name)),
            rawQueryText,
            fc.boolean(),
            async (name, raw, asName) => {
              const others = valid.filter(([other]) => other !== name);
              const target = valid.find(([other]) => other === name)!;
              // Either the value is raw, or the name is (its valid value then travels under a mangled name).
              const piece = asName ? `${raw}${name}=${encodeURIComponent(target[1])}` : `${name}=${raw}`;
              await sendPartner(path, others, piece);
            },
          ),
          RUNS,
        );
      });
    });
  }

  it('list-transactions: every filter path with hostile values, up to four terms', async () => {
    const paths = Object.keys(FILTER_PATHS);
    const valueOnPath = (value: fc.Arbitrary<string>) =>
      fc.tuple(fc.constantFrom(...paths), value).map(([path, text]) => `${path}:${text}`);
    const term = fc.oneof(
      {
        weight: 8,
        arbitrary: valueOnPath(
          fc.oneof(
            shortHostile,
            shortHostile.map((text) => `1${text}`),
            shortHostile.map((text) => `-18${text}`),
          ),
        ),
      },
      { weight: 1, arbitrary: shortHostile },
      {
        weight: 1,
        arbitrary: fc.tuple(shortHostile, fc.constantFrom(':cash', ':1', ':')).map(([path, rest]) => path + rest),
      },
    );
    // At most one 10k term: the request line must stay under Node's 16 kB.
    const longTerm = fc.oneof(
      { weight: 7, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.oneof(valueOnPath(longQueryText), longQueryText) },
    );
    const [key, start, end] = PARTNER_ROUTES[4]!.valid;
    await fc.assert(
      fc.asyncProperty(fc.array(term, { minLength: 1, maxLength: 4 }), longTerm, async (terms, long) => {
        const filters = [...terms, ...(long === undefined ? [] : [long])].map((value): [string, string] => [
          'filter',
          value,
        ]);
        await sendPartner('/v1/list-transactions.php', [key!, start!, end!, ...filters]);
      }),
      RUNS,
    );
  });

  // decisions.md 1 and the README's error table: a valid key of a kind the route does not take is
  // 403; vendor and operator keys have no tenant on the partner interface (golden list-clerks/operator-key).
  const TAKES: Record<string, readonly string[]> = {
    '/v1/list-clerks.php': ['demo-partner-key', 'demo-retail-key'],
    '/v1/list-merchants.php': ['demo-partner-key', 'demo-retail-key'],
    '/v1/lookup-customer.php': ['demo-partner-key', 'demo-retail-key'],
    '/v1/lookup-cart.php': ['demo-partner-key'],
    '/v1/list-transactions.php': ['demo-partner-key'],
    '/v1/record-customer-payment.php': ['demo-retail-key'],
  };
  const WRONG_KINDS = PARTNER_ROUTES.flatMap(({ path, valid }) =>
    ['demo-partner-key', 'demo-retail-key', 'demo-vendor-key', 'demo-operator-key']
      .filter((key) => !TAKES[path]!.includes(key))
      .map((key) => [path, key, valid] as const),
  );
  it.each(WRONG_KINDS)('%s with %s (a key of a kind it does not take): 403 FORBIDDEN', async (path, key, valid) => {
    const { status, body } = await sendPartner(
      path,
      valid.map(([name, value]): [string, string] => [name, name === 'key' ? key : value]),
    );
    expect([status, body.error?.code], JSON.stringify(body).slice(0, 300)).toEqual([403, 'FORBIDDEN']);
  });

  it('record-customer-payment: hostile Idempotency-Key and X-Request-ID headers; a refusal writes nothing', async () => {
    // Header values fetch can send: bytes up to 0xFF without NUL, CR or LF.
    const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '').trim();
    const headerText = fc.oneof(
      shortHostile.map(headerSafe),
      fc
        .string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 300 })
        .map(headerSafe),
      fc.constantFrom('k'.repeat(255), 'k'.repeat(256), 'k'.repeat(10_000), 'receipt-1', 'receipt-1 ', 'é', 'a\tb'),
    );
    const valid = PARTNER_ROUTES[5]!.valid;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(headerText, fc.constantFrom('pos-1', 'pos-2')),
        headerText,
        fc.constantFrom('0.01', '0.02'),
        async (idempotencyKey, requestId, amount) => {
          const query = valid.map(([name, value]): [string, string] => [name, name === 'amount' ? amount : value]);
          const answer = await sendPartner('/v1/record-customer-payment.php', query, '', {
            'idempotency-key': idempotencyKey,
            'x-request-id': requestId,
          });
          expect([200, 400, 409], JSON.stringify(answer.body)).toContain(answer.status);
        },
      ),
      RUNS,
    );
  });
});

// ---- Payments interface ------------------------------------------------------------------------------

const TOKEN = endpoint('/payments/v1/token', 'POST');
const NOTIFICATION = endpoint('/payments/v1/notification', 'POST');
let reference = 0;
const LOCATORS = {
  deviceTag: 'DTSTBBD',
  imei: '123456789012362',
  phoneNumber: '5512345680',
  financeOrderId: '4000012',
} as const;
const NOTIFICATION_FIELDS = [
  'paymentVendor',
  'amount',
  'currency',
  'reference',
  'deviceTag',
  'imei',
  'phoneNumber',
  'financeOrderId',
] as const;

/** A valid notification (0.01 USD on order 4000012, which owes 240.00) by the given locator. */
function validNotification(locator: keyof typeof LOCATORS = 'deviceTag'): Record<string, unknown> {
  return {
    paymentVendor: 'demo-vendor',
    amount: '0.01',
    currency: 'USD',
    reference: `HOSTILE-PROPERTY-${++reference}`,
    [locator]: LOCATORS[locator],
  };
}

/** A JSON body as text: `fields` as JSON, then `raw` (name -> JSON text written by hand) appended. */
function bodyText(fields: Record<string, unknown>, raw: Array<[string, string]> = []): string {
  const text = JSON.stringify(fields);
  if (raw.length === 0) return text;
  return `${text.slice(0, -1)}${text === '{}' ? '' : ','}${raw.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`;
}

async function post(
  route: Endpoint,
  body: string | Uint8Array,
  headers: Record<string, string>,
  sent: Omit<Sent, 'label'>,
  query = '',
) {
  const path = `${route.path}${query ? `?${query}` : ''}`;
  const label = `${path} ${JSON.stringify(headers).slice(0, 200)} ${typeof body === 'string' ? body.slice(0, 300) : `<${body.length} bytes>`}`;
  // Query parameters of a payments route are the caller's own too (names and values, decoded).
  const echoes = [...sent.echoes, ...[...new URLSearchParams(query)].flat()];
  return expectSafeAnswer(route, await fixture.service.request(path, { method: 'POST', headers, body }), {
    ...sent,
    echoes,
    label,
  });
}

let vendorToken: string | undefined;
async function tokenFor(apiKey: string): Promise<string> {
  const response = await fixture.service.request('/payments/v1/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}
const demoVendorToken = async () => (vendorToken ??= await tokenFor('demo-vendor-key'));

const JSON_HEADERS = { 'content-type': 'application/json' };
// Sometimes hostile query parameters too: the payments routes take none.
const hostileQuery = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(shortHostile, shortHostile), { minLength: 1, maxLength: 3 })
      .map((pairs) => new URLSearchParams(pairs).toString()),
  },
);

describe('hostile properties: payments interface', () => {
  it('token: apiKey of any type or text, duplicated, written by hand; extra fields and query ignored', async () => {
    const apiKey = fc.oneof(
      {
        weight: 6,
        arbitrary: hostileJson('demo-vendor-key').map((value) => ({
          fields: { apiKey: value } as Record<string, unknown>,
          raw: [] as Array<[string, string]>,
        })),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...RAW_JSON).map((value) => ({
          fields: {} as Record<string, unknown>,
          raw: [['apiKey', value]] as Array<[string, string]>,
        })),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...RAW_JSON).map((value) => ({
          fields: { apiKey: 'demo-vendor-key' },
          raw: [['apiKey', value]] as Array<[string, string]>,
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(...DEMO_KEYS)
          .map((key) => ({ fields: { apiKey: key }, raw: [] as Array<[string, string]> })),
      },
    );
    await fc.assert(
      fc.asyncProperty(
        apiKey,
        fc.dictionary(shortHostile, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
        hostileQuery,
        async ({ fields, raw }, extra, query) => {
          const body = bodyText({ ...extra, ...fields }, raw);
          const keys = [...stringsOf(fields.apiKey), ...raw.map(([, value]) => value)];
          const { status } = await post(TOKEN, body, JSON_HEADERS, { echoes: [extra, query], secrets: keys }, query);
          expect([200, 400, 401]).toContain(status);
        },
      ),
      RUNS,
    );
  });

  it('token and notification: bodies that are no JSON object, invalid UTF-8, any Content-Type', async () => {
    const contentType = fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json;charset=UTF-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'multipart/form-data; boundary=x',
      '',
      '*/*',
      'application/json, text/plain',
    );
    const encoding = fc.constantFrom(undefined, 'gzip', 'deflate', 'br', 'identity', 'x-hostile');
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? ''),
      hostileText('{}', longJsonText),
      fc.constantFrom(
        '',
        '{',
        '{"apiKey":',
        '{"apiKey":"demo-vendor-key"',
        'null',
        '[]',
        '"{}"',
        '{}{}',
        '\ufeff{}',
        `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      ),
      fc
        .uint8Array({ maxLength: 64 })
        .map((bytes) => new Uint8Array([...Buffer.from('{"apiKey":"'), ...bytes, ...Buffer.from('"}')])),
    );
    const token = await demoVendorToken();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(TOKEN, NOTIFICATION),
        contentType,
        encoding,
        body,
        async (route, type, coding, payload) => {
          const headers: Record<string, string> = {
            'content-type': type,
            authorization: `Bearer ${token}`,
            ...(coding ? { 'content-encoding': coding } : {}),
          };
          const send = () =>
            post(route, payload, headers, {
              echoes: [typeof payload === 'string' ? payload : Buffer.from(payload).toString()],
              secrets: [token],
            });
          await (route === NOTIFICATION ? refusalWritesNothing(send) : send());
        },
      ),
      RUNS,
    );
  });

  // Well-formed values that may succeed, replay (a reused reference), conflict, or be refused by a rule.
  const PLAUSIBLE_FIELDS: Record<(typeof NOTIFICATION_FIELDS)[number], readonly unknown[]> = {
    paymentVendor: ['other-vendor', 'DEMO-VENDOR', 'demo-vendor '],
    amount: [0.01, '0.010', '240.01', 240.01, '00.01', 1e-2],
    currency: ['MXN', 'JPY', 'KWD'],
    reference: ['HOSTILE-PROPERTY-1', 'R', 'R', 'r'],
    deviceTag: [DEMO_DEVICE_TAG, 'DTSTBBC', 'DTSTBBE', 'dtstbbd'],
    imei: [DEMO_DEVICE_IMEI, '123456789012370', '1234567890123620'],
    phoneNumber: ['14084930580', '5512345679', '+15512345680'],
    financeOrderId: [Number(DEMO_ORDER_ID), '5000002', 4000010, '04000012', 4000012],
  };
  it.each(NOTIFICATION_FIELDS)(
    'notification: %s of any type or text, missing, duplicated, written by hand; a refusal writes nothing',
    async (field) => {
      const locator = field in LOCATORS ? (field as keyof typeof LOCATORS) : 'deviceTag';
      const attack = fc.oneof(
        {
          weight: 6,
          arbitrary: hostileJson(String(validNotification(locator)[field])).map((value) => ({
            value,
            raw: undefined as string | undefined,
          })),
        },
        {
          weight: 2,
          arbitrary: fc
            .constantFrom(...PLAUSIBLE_FIELDS[field])
            .map((value) => ({ value, raw: undefined as string | undefined })),
        },
        { weight: 2, arbitrary: fc.constantFrom(...RAW_JSON).map((raw) => ({ value: undefined as unknown, raw })) },
        { weight: 1, arbitrary: fc.constantFrom(...RAW_JSON).map((raw) => ({ value: 'keep' as unknown, raw })) },
        { weight: 1, arbitrary: fc.constant({ value: undefined as unknown, raw: undefined as string | undefined }) },
      );
      // Sometimes a second field is hostile too (another locator makes two).
      const second = fc.oneof(
        { weight: 3, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NOTIFICATION_FIELDS), hostileJson('x')) },
      );
      const token = await demoVendorToken();
      await fc.assert(
        fc.asyncProperty(attack, second, hostileQuery, async ({ value, raw }, also, query) => {
          const fields = validNotification(locator);
          if (value !== 'keep') fields[field] = value;
          if (also) fields[also[0]] = also[1];
          const text = bodyText(fields, raw === undefined ? [] : [[field, raw]]);
          const headers = { ...JSON_HEADERS, authorization: `Bearer ${token}` };
          const { status } = await refusalWritesNothing(() =>
            post(NOTIFICATION, text, headers, { echoes: [fields, raw, query], secrets: [token] }, query),
          );
          expect([200, 400, 403, 404, 409]).toContain(status);
        }),
        RUNS,
      );
    },
  );

  it('notification: hostile Authorization headers are 401 or 403, and write nothing', async () => {
    const token = await demoVendorToken();
    const otherVendor = await tokenFor('other-vendor-key');
    const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
    // The issued token with its claims swapped for hostile ones, the signature kept.
    const [version, , signature] = token.split('.');
    const withClaims = (claims: unknown) =>
      `Bearer ${version}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    const authorization = fc.oneof(
      shortHostile.map((text) => `Bearer ${headerSafe(text)}`),
      shortHostile.map(headerSafe),
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'bearer',
        'Basic ZGVtbzpkZW1v',
        `Bearer ${token} ${token}`,
        `Bearer ${'t'.repeat(10_000)}`,
        'Bearer demo-vendor-key',
        'Bearer demo-operator-key',
        `Bearer ${otherVendor}`,
        `Token ${token}`,
      ),
      fc
        .constantFrom<unknown>(
          { k: "5' or 1=1 --", iat: 0, exp: 1e308 },
          { k: '5', iat: 0, exp: 9e99 },
          { k: ['5'], iat: 0, exp: 1e12 },
          null,
          'x',
          { k: '../../etc/passwd', iat: -0, exp: Infinity },
        )
        .map(withClaims),
    );
    await fc.assert(
      fc.asyncProperty(authorization, async (header) => {
        const headers = { ...JSON_HEADERS, authorization: header };
        const { status } = await refusalWritesNothing(() =>
          post(NOTIFICATION, JSON.stringify(validNotification()), headers, {
            echoes: [],
            secrets: [header.replace(/^Bearer\s+/i, ''), token],
          }),
        );
        expect([401, 403]).toContain(status);
      }),
      RUNS,
    );
  });

  it('notification: an issued token altered in any way is 401 (decisions.md 2: tampered or malformed)', async () => {
    const token = await demoVendorToken();
    const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const altered = fc
      .oneof(
        fc.constantFrom('!', '!!', '=', '====', '*', '~', '.', '..', '+', '/').map((junk) => token + junk),
        fc
          .tuple(fc.nat({ max: token.length - 1 }), fc.constantFrom(...BASE64URL))
          .map(([at, char]) => token.slice(0, at) + char + token.slice(at + 1)),
        fc.nat({ max: token.length - 1 }).map((cut) => token.slice(0, cut)),
      )
      .filter((candidate) => candidate !== token);
    await fc.assert(
      fc.asyncProperty(altered, async (candidate) => {
        const headers = { ...JSON_HEADERS, authorization: `Bearer ${candidate}` };
        const { status } = await refusalWritesNothing(() =>
          post(NOTIFICATION, JSON.stringify(validNotification()), headers, { echoes: [], secrets: [candidate] }),
        );
        expect(status, `the altered token ${candidate} was accepted`).toBe(401);
      }),
      RUNS,
    );
  });
});

// ---- The vendors' repayment options ----------------------------------------------------------------

describe('hostile properties: GET /payments/v1/repayment-options', () => {
  const PATH = '/payments/v1/repayment-options';
  const valid: Array<[string, string]> = [
    ['deviceTag', DEMO_DEVICE_TAG],
    ['currency', 'USD'],
  ];
  const plausible: Record<string, readonly string[]> = {
    deviceTag: ['DTSTBBC', 'DTSTBBE', 'dtstbbb', `${DEMO_DEVICE_TAG} `, 'x'.repeat(65), 'NO-SUCH-TAG'],
    currency: PLAUSIBLE.currency!,
  };
  it.each(valid.map(([name, value]) => [name, value] as const))(
    '%s: hostile, repeated, empty or missing; the other valid; nothing written',
    async (name, value) => {
      const token = await demoVendorToken();
      const route = endpoint(PATH, 'GET');
      const values = fc.oneof(
        attackOn(name, value),
        fc.constantFrom(...plausible[name]!).map((v) => [v]),
      );
      await fc.assert(
        fc.asyncProperty(values, unknownParams, async (given, unknown) => {
          const query = valid.flatMap(
            ([other, otherValue]): Array<[string, string]> =>
              other === name ? (given ?? []).map((v) => [name, v]) : [[other, otherValue]],
          );
          const url = `${PATH}?${new URLSearchParams([...query, ...unknown]).toString()}`;
          const read = [...new URL(url, 'http://localhost').searchParams].flat();
          const sent: Sent = { label: url, echoes: read, secrets: [token] };
          await refusalWritesNothing(async () =>
            expectSafeAnswer(
              route,
              await fixture.service.request(url, { headers: { authorization: `Bearer ${token}` } }),
              sent,
            ),
          );
        }),
        RUNS,
      );
    },
  );
});
