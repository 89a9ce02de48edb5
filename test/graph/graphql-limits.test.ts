// The GraphQL door's limits at their defaults (depth, aliases, cost, tokens), the REST shim's
// operations passing them, and the transport guards: no batching, CSRF prevention, introspection
// outside production only (test/production/production.test.ts covers production).
import { getIntrospectionQuery } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { DEFAULT_LIMITS } from '../../src/kernel/limitSettings.js';
import { useSeededService } from '../support/fixtures.js';
import { startTestService, TEST_LIMITS } from '../support/service.js';

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

/** The JSON objects in an answer: what the cost of a document counts. */
function countObjects(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countObjects(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Object.values(value).reduce((sum: number, item) => sum + countObjects(item), 0);
}

async function expectAnswered(query: string): Promise<any> {
  const { status, body } = await asPartner(query);
  expect(body.errors).toBeUndefined();
  expect(status).toBe(200);
  return body.data;
}

/** customer -> financeOrder -> customer -> ... `depth` levels deep, ending in a scalar. */
function nested(depth: number): string {
  const fields = Array.from({ length: depth - 1 }, (_, i) =>
    i === 0 ? `customer(locator: "${DEMO_DEVICE_IMEI}")` : i % 2 ? 'financeOrder' : 'customer',
  );
  return `{ ${fields.join(' { ')} { id }${' }'.repeat(depth - 2)} }`;
}

describe(`depth (GRAPHQL_MAX_DEPTH, default ${maxDepth})`, () => {
  it('answers a query exactly at the limit and refuses one level more', async () => {
    const data = await expectAnswered(nested(maxDepth));
    expect(JSON.stringify(data)).toMatch(/^\{"customer":\{"financeOrder":\{"customer":.*"id":"\d+"/);
    await expectRefused(
      nested(maxDepth + 1),
      `the operation is ${maxDepth + 1} levels deep, more than the limit of ${maxDepth} (GRAPHQL_MAX_DEPTH)`,
    );
  });
});

describe(`aliases (GRAPHQL_MAX_ALIASES, default ${maxAliases})`, () => {
  const aliased = (count: number) =>
    `query Aliased { ${Array.from({ length: count }, (_, i) => `c${i}: clerks(first: 100) { id }`).join(' ')} }`;

  it('answers a query with as many aliases as allowed and refuses one more', async () => {
    const data = await expectAnswered(aliased(maxAliases));
    expect(Object.keys(data)).toHaveLength(maxAliases);
    await expectRefused(
      aliased(maxAliases + 1),
      `operation Aliased uses ${maxAliases + 1} aliases, more than the limit of ${maxAliases} (GRAPHQL_MAX_ALIASES)`,
    );
  });
});

describe(`cost (GRAPHQL_MAX_COST, default ${maxCost}): the most objects an answer can hold`, () => {
  // Each page: transactions 1 + first x 1 node; ten pages of 4,999 cost exactly 50,000.
  const pages = (firsts: number[]) =>
    `{ ${firsts.map((first, i) => `p${i}: transactions(start: 0, end: 31536000, first: ${first}) { nodes { id } }`).join(' ')} }`;

  it('answers a query of exactly the limit and refuses one of a unit more', async () => {
    expect(maxCost).toBe(50_000);
    await expectAnswered(pages(Array(10).fill(4999)));
    await expectRefused(
      pages([...Array(9).fill(4999), 5000]),
      'the operation has an estimated cost of 50001, more than the limit of 50000 (GRAPHQL_MAX_COST)',
    );
  });

  it('admits one full page of 5,000 transactions with a dashboard selection, and refuses two', async () => {
    const page = (alias: string) =>
      `${alias}: transactions(start: 0, end: 31536000, first: 5000) { pageInfo { hasNextPage endCursor } nodes { type time amount currency merchant { id name }
        ... on FinanceTransaction { financeOrder { id } salesClerk { name } device { imei model { name } family { name } } }
        ... on CashTransaction { payment { id amount } financeOrder { id } salesClerk { name } } } }`;
    await expectAnswered(`{ ${page('a')} }`);
    await expectRefused(
      `{ ${page('a')} ${page('b')} }`,
      'the operation has an estimated cost of 70004, more than the limit of 50000 (GRAPHQL_MAX_COST)',
    );
  });

  it('counts a list without first at its bound, and refuses 30 aliased pages', async () => {
    await expectRefused(
      pages(Array(30).fill(5000)).replace(/, first: 5000/g, ''),
      'the operation has an estimated cost of 150030, more than the limit of 50000 (GRAPHQL_MAX_COST)',
    );
    await expectRefused(
      '{ partners { clerks { id } } }',
      'the operation has an estimated cost of 5001000, more than the limit of 50000 (GRAPHQL_MAX_COST)',
    );
  });

  it('reads first from the request variables, not only from the document', async () => {
    const query = `query Pages($n: Int) { ${Array.from({ length: 10 }, (_, i) => `p${i}: transactions(start: 0, end: 31536000, first: $n) { nodes { id } }`).join(' ')} }`;
    expect((await service().graphql(query, { 'x-api-key': 'demo-partner-key' }, { n: 4999 })).status).toBe(200);
    const refused = await service().graphql(query, { 'x-api-key': 'demo-partner-key' }, { n: 5000 });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toBe(
      'operation Pages has an estimated cost of 50010, more than the limit of 50000 (GRAPHQL_MAX_COST)',
    );
  });
});

describe(`tokens (GRAPHQL_MAX_TOKENS, default ${maxTokens})`, () => {
  // "{ ...F0 ... }" and "fragment F0 on Query { __typename }": 2 + 9 tokens per fragment, topped up
  // with __typename fields. Comments are not tokens. (Hundreds of plain __typename fields would trip
  // graphql-js's own budget for comparing overlapping fields instead.)
  function padded(tokens: number): string {
    const fragments = Math.floor((tokens - 2) / 9);
    const spreads = Array.from({ length: fragments }, (_, i) => `...F${i}`).join(' ');
    const definitions = Array.from({ length: fragments }, (_, i) => `fragment F${i} on Query { __typename }`).join(
      '\n',
    );
    return `# ${'comment '.repeat(500)}\n{ ${spreads} ${'__typename '.repeat((tokens - 2) % 9)}}\n${definitions}`;
  }

  it('answers a document of exactly the limit; the parser itself stops one token past it', async () => {
    expect((await expectAnswered(padded(maxTokens))).__typename).toBe('Query');
    const { status, body } = await asPartner(padded(maxTokens + 1));
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      {
        message: `the document has more than ${maxTokens} tokens, the limit (GRAPHQL_MAX_TOKENS); parsing stopped there`,
        extensions: { code: 'GRAPHQL_PARSE_FAILED' },
      },
    ]);
  });

  it('refuses a key-less document of 15,000 tokens at the parser (and one over 64 kB before reading it)', async () => {
    const large = `{ ${'a '.repeat(15_000)}}`;
    const parsed = await service().graphql(large);
    expect(parsed.status).toBe(400);
    expect(parsed.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const oversized = await service().graphql(`{ ${'a '.repeat(33_000)}}`);
    expect(oversized.status).toBe(413);
  });
});

describe('the REST shim operations', () => {
  // Each legacy route runs its handwritten operation through the same Apollo pipeline, limits included.
  it.each([
    '/v1/list-clerks.php?key=demo-partner-key',
    '/v1/list-merchants.php?key=demo-retail-key',
    `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}&fields=device.description`,
    `/v1/lookup-cart.php?key=demo-partner-key&cartTag=${DEMO_CART_TAG}&fields=customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description`,
    `/v1/list-transactions.php?key=demo-partner-key&starttime=0&endtime=31536000`,
  ])('pass the limits: GET %s', async (path) => {
    const response = await service().request(path);
    expect(response.status).toBe(200);
  });

  it('pass the limits: the payment and token routes', async () => {
    const payment = await service().request(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=1.00&currency=USD`,
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
      body: JSON.stringify({
        paymentVendor: 'demo-vendor',
        amount: '1.00',
        currency: 'USD',
        reference: 'LIMITS-1',
        deviceTag: 'DTSTBBD',
      }),
    });
    expect(notification.status).toBe(200);
  });
});

describe('introspection outside production', () => {
  const sandbox = getIntrospectionQuery({
    descriptions: true,
    specifiedByUrl: true,
    directiveIsRepeatable: true,
    schemaDescription: true,
    inputValueDeprecation: true,
  });

  it("answers Apollo Sandbox's full introspection query to a caller with a key", async () => {
    const data = await expectAnswered(sandbox);
    expect(data.__schema.queryType.name).toBe('Query');
  });

  it('needs a credential: without one, or with an unknown one, it is 401', async () => {
    const bare = await service().graphql(sandbox);
    expect(bare.status).toBe(401);
    expect(bare.body.data).toBeUndefined();
    expect(bare.body.errors[0].extensions.code).toBe('MISSING_API_KEY');
    const unknown = await service().graphql('{ __type(name: "Query") { name } }', { 'x-api-key': 'no-such-key' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
  });

  it('counts aliases inside introspection, 30 x 30 among them', async () => {
    const fields = Array.from({ length: 30 }, (_, i) => `f${i}: fields { name type { name } }`).join(' ');
    const aliased = `{ __schema { ${Array.from({ length: 30 }, (_, i) => `t${i}: types { ...Fields }`).join(' ')} } } fragment Fields on __Type { ${fields} }`;
    await expectRefused(aliased, 'the operation uses 930 aliases, more than the limit of 30 (GRAPHQL_MAX_ALIASES)');
  });

  it('counts the objects an introspection answer holds against the cost limit', async () => {
    // Nearly the whole type system, copied under n aliases: over 1,000 objects a copy.
    const copies = (n: number) =>
      `{ __schema { ${Array.from({ length: n }, (_, i) => `t${i}: types { ...Types }`).join(' ')} } }
      fragment Types on __Type { name fields { name args { name type { name ofType { name ofType { name } } } } type { name ofType { name ofType { name ofType { name } } } } }
        inputFields { name type { name ofType { name ofType { name } } } } enumValues { name } interfaces { name } possibleTypes { name } }`;
    const strict = await startTestService(fixture.database.db, {
      limits: { ...TEST_LIMITS, graphql: { ...TEST_LIMITS.graphql, maxCost: 40_000 } },
    });
    try {
      // As many copies as fit, measured on one (the schema grows): n fit, n + 1 are refused before running.
      const one = await strict.graphql(copies(1), { 'x-api-key': 'demo-partner-key' });
      const perCopy = countObjects(one.body.data.__schema) - 1;
      expect(perCopy).toBeGreaterThan(1000);
      const fitting = Math.floor((40_000 - 1) / perCopy);
      const admitted = await strict.graphql(copies(fitting), { 'x-api-key': 'demo-partner-key' });
      expect(admitted.status).toBe(200);
      expect(countObjects(admitted.body.data.__schema)).toBe(1 + fitting * perCopy);
      const refused = await strict.graphql(copies(fitting + 1), { 'x-api-key': 'demo-partner-key' });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].message).toBe(
        'the operation has an estimated cost above the limit of 40000 (GRAPHQL_MAX_COST)',
      );
    } finally {
      await strict.close();
    }
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
    const preflighted = await service().request(path, {
      headers: { 'x-api-key': 'demo-partner-key', 'apollo-require-preflight': 'true' },
    });
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

describe('an order with a long list of payments: no admitted document holds more than the limit, however it is spelled', () => {
  const ORDER = '4000012';
  const PAYMENTS = 200;
  beforeAll(async () => {
    // 200 in-store payments of 0.01 on Late Payer's order (it owes 240.00), straight into the tables.
    const db = fixture.database.db;
    await db.raw(
      `insert into payments (partner_id, id, finance_order_id, channel, amount_minor, currency, merchant_id, clerk_id, received_at, reversible_until)
       select partner_id, 8800000 + g, id, 'in_store', 1, currency, merchant_id, clerk_id, ordered_at + g * interval '1 hour', ordered_at + g * interval '1 hour'
       from finance_orders cross join generate_series(1, ${PAYMENTS}) as g where id = ${ORDER}`,
    );
    await db('finance_orders').where({ id: ORDER }).increment('total_paid_minor', PAYMENTS);
  });

  const nested = (first: string) =>
    `financeOrder(id: "${ORDER}") { payments${first} { id financeOrder { payments${first} { id financeOrder { payments${first} { id amount } } } } } }`;
  const documents: Array<[string, string, Record<string, unknown>?]> = [
    ['the heap-filling query, literal', `{ ${nested('')} }`],
    ['first as a variable', `query($n: Int) { ${nested('(first: $n)')} }`, { n: PAYMENTS }],
    ["first as a variable's default", `query($n: Int = ${PAYMENTS}) { ${nested('(first: $n)')} }`],
    ['first as a variable given null', `query($n: Int = 2) { ${nested('(first: $n)')} }`, { n: null }],
    [
      'through fragments',
      `{ financeOrder(id: "${ORDER}") { ...P } } fragment P on FinanceOrder { payments { financeOrder { ...Q } } } fragment Q on FinanceOrder { payments { financeOrder { payments { id } } } }`,
    ],
    [
      'through aliases',
      `{ ${Array.from({ length: 30 }, (_, i) => `o${i}: financeOrder(id: "${ORDER}") { payments { id } }`).join(' ')} }`,
    ],
    ['small pages, nested', `{ ${nested('(first: 10)')} }`],
    ['one page of the long list', `{ financeOrder(id: "${ORDER}") { payments { id amount time } } }`],
    [
      'a connection, as many pages as fit',
      `{ ${Array.from({ length: 9 }, (_, i) => `t${i}: transactions(start: 0, end: 31536000) { nodes { id } }`).join(' ')} }`,
    ],
    ['introspection', getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true })],
  ];

  it.each(documents)('%s: refused before it runs, or answered within the limit', async (_name, query, variables) => {
    const { status, body } = await service().graphql(query, { 'x-api-key': 'demo-partner-key' }, variables);
    if (status === 400) {
      expect(body.data).toBeUndefined();
      expect(body.errors[0]).toMatchObject({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
      expect(body.errors[0].message).toMatch(/estimated cost .* the limit of 50000 \(GRAPHQL_MAX_COST\)/);
    } else {
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect(countObjects(body.data)).toBeLessThanOrEqual(maxCost);
    }
  });

  it('refuses every spelling of the heap-filling query, answers the small pages exactly, and keeps serving', async () => {
    const statuses = await Promise.all(
      documents
        .slice(0, 6)
        .map(([, query, variables]) => service().graphql(query, { 'x-api-key': 'demo-partner-key' }, variables)),
    );
    expect(statuses.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400]);
    const small = await expectAnswered(`{ ${nested('(first: 10)')} }`);
    expect(small.financeOrder.payments).toHaveLength(10);
    expect(small.financeOrder.payments[0].financeOrder.payments[0].financeOrder.payments).toHaveLength(10);
    const whole = await expectAnswered(`{ financeOrder(id: "${ORDER}") { payments { id } } }`);
    const recorded = await fixture.database.db('payments').where({ finance_order_id: ORDER }).count({ n: '*' }).first();
    expect(whole.financeOrder.payments).toHaveLength(Number(recorded?.n));
    expect(whole.financeOrder.payments.length).toBeGreaterThan(PAYMENTS);
    // The next page starts after the last id asked for.
    const second = await expectAnswered(
      `{ financeOrder(id: "${ORDER}") { payments(first: 150, after: "${whole.financeOrder.payments[99].id}") { id } } }`,
    );
    expect(second.financeOrder.payments.map((payment: { id: string }) => payment.id)).toEqual(
      whole.financeOrder.payments.slice(100).map((payment: { id: string }) => payment.id),
    );
    expect((await expectAnswered('{ viewer { kind } }')).viewer.kind).toBe('PARTNER');
  });

  it('stops an execution past GRAPHQL_MAX_LIST_ITEMS whatever the estimate said: one error, no partial answer', async () => {
    const ceiling = await startTestService(fixture.database.db, {
      limits: { ...TEST_LIMITS, graphql: { ...TEST_LIMITS.graphql, maxListItems: 150 } },
    });
    try {
      const within = await ceiling.graphql(`{ financeOrder(id: "${ORDER}") { payments(first: 150) { id } } }`, {
        'x-api-key': 'demo-partner-key',
      });
      expect(within.status).toBe(200);
      expect(within.body.data.financeOrder.payments).toHaveLength(150);
      const past = await ceiling.graphql(
        `{ a: financeOrder(id: "${ORDER}") { payments(first: 100) { id } } b: financeOrder(id: "${ORDER}") { payments(first: 100) { id } } }`,
        {
          'x-api-key': 'demo-partner-key',
        },
      );
      expect(past.status).toBe(400);
      expect(past.body).toEqual({
        errors: [
          {
            message:
              'the answer would hold more than 150 list items (GRAPHQL_MAX_LIST_ITEMS); ask for smaller pages (first) or fewer lists',
            extensions: { code: 'RESPONSE_TOO_LARGE' },
          },
        ],
      });
      // The same through the REST shim: its operations run under the same ceiling.
      const lookup = await ceiling.request('/v1/lookup-customer.php?key=demo-partner-key&customerLocator=DTSTBBD');
      expect(lookup.status).toBe(400);
      expect(((await lookup.json()) as { error: { code: string } }).error.code).toBe('RESPONSE_TOO_LARGE');
    } finally {
      await ceiling.close();
    }
  });
});

describe('errors outside production', () => {
  it('suggest the names a mistake was close to (production does not: test/production/production.test.ts)', async () => {
    const { status, body } = await asPartner('{ clerkz { id } }');
    expect(status).toBe(400);
    expect(body.errors[0].message).toMatch(/Did you mean "clerk" or "clerks"/);
  });
});
