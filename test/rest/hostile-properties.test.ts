// Hostile input, generated (fast-check), at the partner query interface (the payments interface's is
// test/rest/hostile-properties-payments.test.ts): every query parameter and header of its routes takes
// hostile values, one at a time and sometimes several, the others valid. For every request: never a 5xx,
// only a status the route documents, a body that satisfies the OpenAPI document (the route's error shape
// for 4xx), no stack trace, SQL or key in it, and a refused payment writes nothing. Beside them, a rule
// hostile callers probe: a key of the wrong kind is 403 on every partner route. Seeded and bounded
// (RUNS): a failure reproduces, and fast-check prints it shrunk.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_PATHS } from '../../src/modules/transactions/filters.js';
import { useHostileService } from '../support/hostile/answers.js';
import { attackOn, PARTNER_ROUTES, PLAUSIBLE, sendPartner, unknownParams } from '../support/hostile/routes.js';
import { longQueryText, RUNS, rawQueryText, shortHostile } from '../support/hostile/values.js';

useHostileService();

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
