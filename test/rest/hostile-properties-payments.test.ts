// Hostile input, generated (fast-check), at the payments interface (the partner query interface's is
// test/rest/hostile-properties.test.ts): every header and JSON field of the token, the notification and
// the repayment options takes hostile values, one at a time and sometimes several, the others valid.
// For every request: never a 5xx, only a status the route documents, a body that satisfies the OpenAPI
// document, no stack trace, SQL or key in it, and a refused payment writes nothing. Beside them, a rule
// hostile callers probe: an access token altered in any way is 401. Seeded and bounded (RUNS).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_DEVICE_IMEI, DEMO_DEVICE_TAG, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import {
  type Endpoint,
  endpoint,
  expectSafeAnswer,
  refusalWritesNothing,
  type Sent,
  stringsOf,
  useHostileService,
} from '../support/hostile/answers.js';
import { attackOn, DEMO_KEYS, PLAUSIBLE, unknownParams } from '../support/hostile/routes.js';
import { hostileJson, hostileText, longJsonText, RAW_JSON, RUNS, shortHostile } from '../support/hostile/values.js';

const fixture = useHostileService();

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
