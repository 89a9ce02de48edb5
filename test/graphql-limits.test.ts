// The GraphQL door's limits at their defaults (depth, aliases, cost, tokens), the REST shim's
// operations passing them, and the transport guards: no batching, CSRF prevention, introspection
// outside production only (test/production.test.ts covers production).
import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/limits/settings.js';
import { useSeededService } from './support/fixtures.js';

const fixture = useSeededService();
const service = () => fixture.service;
const { maxDepth, maxAliases, maxCost, maxTokens } = DEFAULT_LIMITS.graphql;

const asPartner = (query: string) => service().graphql(query, { 'x-api-key': 'demo-partner-key' });

/** Expects the document refused before anything ran: 400 GRAPHQL_VALIDATION_FAILED with `message`. */
async function expectRefused(query: string, message: string): Promise<void> {
  const { status, body } = await asPartner(query);
  expect(status).toBe(400);
  expect(body.data).toBeUndefined();
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]).toMatchObject({ message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
}

async function expectAnswered(query: string): Promise<any> {
  const { status, body } = await asPartner(query);
  expect(body.errors).toBeUndefined();
  expect(status).toBe(200);
  return body.data;
}

/** customer -> financeOrder -> customer -> ... `depth` levels deep, ending in a scalar. */
function nested(depth: number): string {
  const fields = Array.from({ length: depth - 1 }, (_, i) => (i === 0 ? 'customer(locator: "123456789012347")' : i % 2 ? 'financeOrder' : 'customer'));
  return `{ ${fields.join(' { ')} { id }${' }'.repeat(depth - 2)} }`;
}

describe(`depth (GRAPHQL_MAX_DEPTH, default ${maxDepth})`, () => {
  it('answers a query exactly at the limit and refuses one level more', async () => {
    const data = await expectAnswered(nested(maxDepth));
    expect(JSON.stringify(data)).toMatch(/^\{"customer":\{"financeOrder":\{"customer":.*"id":"\d+"/);
    await expectRefused(nested(maxDepth + 1), `the operation is ${maxDepth + 1} levels deep, more than the limit of ${maxDepth} (GRAPHQL_MAX_DEPTH)`);
  });
});

describe(`aliases (GRAPHQL_MAX_ALIASES, default ${maxAliases})`, () => {
  const aliased = (count: number) => `query Aliased { ${Array.from({ length: count }, (_, i) => `c${i}: clerks { id }`).join(' ')} }`;

  it('answers a query with as many aliases as allowed and refuses one more', async () => {
    const data = await expectAnswered(aliased(maxAliases));
    expect(Object.keys(data)).toHaveLength(maxAliases);
    await expectRefused(aliased(maxAliases + 1), `operation Aliased uses ${maxAliases + 1} aliases, more than the limit of ${maxAliases} (GRAPHQL_MAX_ALIASES)`);
  });
});

describe(`cost (GRAPHQL_MAX_COST, default ${maxCost})`, () => {
  // Each page costs 1 (transactions) + 1 (nodes) + first x 1 (id): five pages of 998 cost exactly 5000.
  const pages = (firsts: number[]) =>
    `{ ${firsts.map((first, i) => `p${i}: transactions(start: 0, end: 31536000, first: ${first}) { nodes { id } }`).join(' ')} }`;

  it('answers a query of exactly the limit and refuses one of a unit more', async () => {
    expect(maxCost).toBe(5000);
    await expectAnswered(pages([998, 998, 998, 998, 998]));
    await expectRefused(pages([998, 998, 998, 998, 999]), 'the operation has an estimated cost of 5001, more than the limit of 5000 (GRAPHQL_MAX_COST)');
  });

  it('counts a list without first as 10', async () => {
    // Each copy: partners 1 + 10 x (clerks 1 + 10 x 5 fields + merchants 1 + 10 x 1) = 621; 8 copies 4968, 9 copies 5589.
    const copies = (count: number) =>
      `{ ${Array.from({ length: count }, (_, i) => `p${i}: partners { clerks { id personUuid name phoneNumber email } merchants { id } }`).join(' ')} }`;
    const asOperator = (query: string) => service().graphql(query, { 'x-api-key': 'demo-operator-key' });
    expect((await asOperator(copies(8))).status).toBe(200);
    const refused = await asOperator(copies(9));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toBe('the operation has an estimated cost of 5589, more than the limit of 5000 (GRAPHQL_MAX_COST)');
  });
});

describe(`tokens (GRAPHQL_MAX_TOKENS, default ${maxTokens})`, () => {
  // "{ ...F0 ... }" and "fragment F0 on Query { __typename }": 2 + 9 tokens per fragment, topped up
  // with __typename fields. Comments are not tokens. (Hundreds of plain __typename fields would trip
  // graphql-js's own budget for comparing overlapping fields instead.)
  function padded(tokens: number): string {
    const fragments = Math.floor((tokens - 2) / 9);
    const spreads = Array.from({ length: fragments }, (_, i) => `...F${i}`).join(' ');
    const definitions = Array.from({ length: fragments }, (_, i) => `fragment F${i} on Query { __typename }`).join('\n');
    return `# ${'comment '.repeat(500)}\n{ ${spreads} ${'__typename '.repeat((tokens - 2) % 9)}}\n${definitions}`;
  }

  it('answers a document of exactly the limit and refuses one token more', async () => {
    expect((await expectAnswered(padded(maxTokens))).__typename).toBe('Query');
    await expectRefused(padded(maxTokens + 1), `the document has ${maxTokens + 1} tokens, more than the limit of ${maxTokens} (GRAPHQL_MAX_TOKENS)`);
  });
});

describe('the REST shim operations', () => {
  // Each legacy route runs its handwritten operation through the same Apollo pipeline, limits included.
  it.each([
    '/v1/list-clerks.php?key=demo-partner-key',
    '/v1/list-merchants.php?key=demo-retail-key',
    '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=123456789012347&fields=device.description',
    '/v1/lookup-cart.php?key=demo-partner-key&cartTag=CART-DEMO-1&fields=customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description',
    `/v1/list-transactions.php?key=demo-partner-key&starttime=0&endtime=31536000`,
  ])('pass the limits: GET %s', async (path) => {
    const response = await service().request(path);
    expect(response.status).toBe(200);
  });

  it('pass the limits: the payment and token routes', async () => {
    const payment = await service().request(
      '/v1/record-customer-payment.php?key=demo-retail-key&merchantId=851005&salesClerkId=5335&financeOrderId=4000004&amount=1.00&currency=USD',
    );
    expect(payment.status).toBe(200);
    const token = await service().request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    expect(token.status).toBe(200);
    const { data } = (await token.json()) as { data: { access_token: string } };
    const notification = await service().request('/payments/v1/notification', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${data.access_token}` },
      body: JSON.stringify({ paymentVendor: 'demo-vendor', amount: '1.00', currency: 'USD', reference: 'LIMITS-1', deviceTag: 'DTSTBBD' }),
    });
    expect(notification.status).toBe(200);
  });
});

describe('introspection outside production', () => {
  it("answers Apollo Sandbox's full introspection query", async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });
    const data = await expectAnswered(query);
    expect(data.__schema.queryType.name).toBe('Query');
  });
});

describe('the transport', () => {
  it('refuses a batch (a JSON array body)', async () => {
    const response = await service().request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-partner-key' },
      body: JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/batching/i);
  });

  it('refuses a GET without a preflight header (CSRF prevention), and answers it with one', async () => {
    const path = `/graphql?query=${encodeURIComponent('{ __typename }')}`;
    const bare = await service().request(path, { headers: { 'x-api-key': 'demo-partner-key' } });
    expect(bare.status).toBe(400);
    expect(await bare.text()).toMatch(/Cross-Site Request Forgery/);
    const preflighted = await service().request(path, { headers: { 'x-api-key': 'demo-partner-key', 'apollo-require-preflight': 'true' } });
    expect(preflighted.status).toBe(200);
  });

  it('refuses a POST sent as text/plain (a "simple" request a browser sends cross-site without preflight)', async () => {
    const response = await service().request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-api-key': 'demo-partner-key' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/Cross-Site Request Forgery/);
  });
});
