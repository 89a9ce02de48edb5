// Inputs that once ended in a 500 (each found by review): every one is now a clear 4xx, on both doors,
// and writes nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CART_TAG, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import { issueAccessToken } from '../../src/modules/auth/tokens.js';
import { useSeededService } from '../support/fixtures.js';
import { ledgerSnapshot } from '../support/ledger.js';
import { TEST_TOKENS } from '../support/service.js';

const fixture = useSeededService();

// Whatever was thrown at it, the ledger is still consistent.
afterAll(async () => {
  expect((await checkLedger(fixture.database.db)).problems).toEqual([]);
});
const graphql = (key: string, query: string, variables?: Record<string, unknown>) =>
  fixture.service.graphql(query, { 'x-api-key': key }, variables).then((result) => result.body);
const codeOf = (body: { errors?: Array<{ extensions: { code: string } }> }) => body.errors?.[0]?.extensions.code;

describe('hostile input', () => {
  it('a NUL character: 400 naming the parameter on REST, INVALID_ARGUMENT on GraphQL', async () => {
    const response = await fixture.service.request(
      '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=ab%00c',
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: {
        code: 'INVALID_QUERY_PARAMETER',
        message: 'the customerLocator query parameter must not contain NUL characters',
      },
    });
    for (const [query, variables] of [
      ['query($l: String!) { customer(locator: $l) { id } }', { l: 'ab\u0000c' }],
      ['query($t: String!) { cart(cartTag: $t) { id } }', { t: 'x\u0000' }],
      [
        'query($f: [String!]) { transactions(start: 0, end: 86400, filter: $f) { nodes { id } } }',
        { f: ['type:\u0000'] },
      ],
    ] as const) {
      const body = await graphql('demo-partner-key', query, variables);
      expect(codeOf(body), query).toBe('INVALID_ARGUMENT');
      expect(JSON.stringify(body)).not.toMatch(/22021|invalid byte|select/i);
    }
  });

  it('timestamps past the year 9999 and forged cursors: 400', async () => {
    const far = await graphql(
      'demo-partner-key',
      'query($s: Timestamp!) { transactions(start: $s, end: 253402300799) { nodes { id } } }',
      { s: 253402300800 },
    );
    expect(codeOf(far)).toBe('BAD_USER_INPUT');
    // Written into the query itself, the same value fails validation: a 400 as well.
    const literal = await graphql(
      'demo-partner-key',
      '{ transactions(start: 253402300800, end: 253402300801) { nodes { id } } }',
    );
    expect(codeOf(literal)).toBe('GRAPHQL_VALIDATION_FAILED');
    const forged = Buffer.from('1:9999999999999999999').toString('base64url');
    const cursor = await graphql(
      'demo-partner-key',
      `{ transactions(start: 0, end: 86400, first: 1, after: "${forged}") { nodes { id } } }`,
    );
    expect(cursor.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'after' });
    const rest = await fixture.service.request(
      '/v1/list-transactions.php?key=demo-partner-key&starttime=0&endtime=99999999999999',
    );
    expect(rest.status).toBe(400);
  });

  it('non-numeric partner ids from operators find nothing, with no database error', async () => {
    expect(
      await graphql('demo-operator-key', `{ cart(cartTag: "${DEMO_CART_TAG}", partnerId: "abc") { id } }`),
    ).toEqual({
      data: { cart: null },
    });
    expect(
      await graphql('demo-operator-key', '{ transactions(start: 0, end: 86400, partnerId: "abc") { nodes { id } } }'),
    ).toEqual({ data: { transactions: { nodes: [] } } });
    expect(await graphql('demo-operator-key', '{ apiKeys(partnerId: "abc") { id } }')).toEqual({
      data: { apiKeys: [] },
    });
  });

  it('amounts beyond what the service stores: INVALID_ARGUMENT naming the field', async () => {
    const body = await graphql(
      'demo-operator-key',
      `mutation { createAdjustment(input: { partnerId: "1", kind: COMMISSION, amount: "99999999999999999999", currency: "USD", notes: "x", merchantId: "${DEMO_MERCHANT_ID}" }) { id } }`,
    );
    expect(body.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'input.amount' });
  });

  it('notifications nested too deeply, or with a reference or locator too long: 400, nothing written', async () => {
    const token = issueAccessToken(TEST_TOKENS, '5', new Date()).token;
    const before = await ledgerSnapshot(fixture.database.db);
    const base = {
      paymentVendor: 'demo-vendor',
      amount: '1.00',
      currency: 'USD',
      reference: 'HOSTILE-1',
      deviceTag: 'DTSTBBD',
    };
    // 5000 levels of arrays, written as text (serialising such a value would need the deep recursion
    // the service must avoid).
    const deep = `${JSON.stringify(base).slice(0, -1)},"extra":${'['.repeat(5000)}"x"${']'.repeat(5000)}}`;
    for (const [body, problem] of [
      [deep, /nests more than 32 levels/],
      // demo-vendor's own schema already limits these; the service's limits hold for any vendor.
      [{ ...base, reference: 'r'.repeat(8000) }, /reference must .*255 characters/],
      [{ ...base, deviceTag: 't'.repeat(500) }, /deviceTag must .*64 characters/],
      [{ ...base, reference: 'a\u0000b' }, /reference must not contain NUL characters/],
    ] as const) {
      const response = await fixture.service.request('/payments/v1/notification', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(response.status, String(problem)).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(problem);
    }
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
  });

  it('holds its own limits for a vendor whose schema sets none', async () => {
    const operator = (query: string, variables?: Record<string, unknown>) =>
      graphql('demo-operator-key', query, variables);
    const vendor = await operator(
      'mutation($s: JSON!) { createPaymentVendor(input: { name: "loose-vendor", displayName: "Loose", requestSchema: $s }) { id } }',
      { s: { type: 'object' } },
    );
    const key = await operator(
      `mutation { createApiKey(input: { kind: VENDOR, paymentVendorId: "${vendor.data.createPaymentVendor.id}" }) { secret } }`,
    );
    const token = (
      await fixture.service.graphql(
        `mutation { createAccessToken(apiKey: "${key.data.createApiKey.secret}") { accessToken } }`,
      )
    ).body.data.createAccessToken.accessToken;
    const before = await ledgerSnapshot(fixture.database.db);
    const notify = (body: unknown) =>
      fixture.service.request('/payments/v1/notification', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const base = {
      paymentVendor: 'loose-vendor',
      amount: '1.00',
      currency: 'USD',
      reference: 'LOOSE-1',
      deviceTag: 'DTSTBBD',
    };
    for (const [body, message] of [
      [
        { ...base, reference: 'r'.repeat(8000) },
        'the notification is not valid: reference must be at most 255 characters',
      ],
      [
        { ...base, deviceTag: 't'.repeat(500) },
        'the notification is not valid: deviceTag must be at most 64 characters',
      ],
      [{ ...base, amount: undefined }, 'the notification is not valid: amount is a required field'],
    ] as const) {
      const response = await notify(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: 'INVALID_NOTIFICATION', message } });
    }
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
    expect((await notify(base)).status).toBe(200);
  });

  it('a payments body over 64 kB: 400 naming the limit, on both payments endpoints', async () => {
    const huge = JSON.stringify({ apiKey: 'k'.repeat(70_000) });
    for (const path of ['/payments/v1/token', '/payments/v1/notification']) {
      const response = await fixture.service.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
        body: huge,
      });
      if (path.endsWith('token')) {
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({
          error: { code: 'INVALID_REQUEST_BODY', message: 'the request body is larger than 64kb' },
        });
      } else {
        // The credential is checked first: an unauthenticated caller learns nothing about the body.
        expect(response.status).toBe(401);
      }
    }
  });

  it('a partner sees which vendor a payment came through, not how the vendor is set up', async () => {
    const query = '{ financeOrder(id: "4000010") { payments { paymentVendor { name requestSchema enabled } } } }';
    expect((await graphql('demo-partner-key', query)).data.financeOrder.payments[0].paymentVendor).toEqual({
      name: 'demo-vendor',
      requestSchema: null,
      enabled: null,
    });
    const operator = (await graphql('demo-operator-key', query)).data.financeOrder.payments[0].paymentVendor;
    expect(operator.enabled).toBe(true);
    expect(operator.requestSchema.type).toBe('object');
  });
});
