// A bad value of a custom scalar gets the same message whether the document writes it as a literal or
// sends it as a variable (src/kernel/scalars.ts: a literal is read into a variable's value, then checked by the
// same function). graphql-js names the variable before a variable's message (`Variable "$v" got invalid
// value ...; `), so the literal's message is the variable's after that prefix. Checked for Timestamp,
// Decimal and CurrencyCode with a few bad values each: where the pipeline meets them before either
// executor (validation, for a literal) and in each executor (graphql-jit and graphql-js, for a
// variable); then through /graphql on a service on jit and one whose jit refuses every document, so
// that its fallback, graphql-js, runs them (test/support/jitFallback.ts): the answers must be byte for
// byte alike. JSON refuses no value: a literal and a variable reach the resolver as the same value, so a
// notification the vendor's schema refuses is refused in the same words either way.
import { execute, type OperationDefinitionNode, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { createLogger } from '../../src/kernel/logger.js';
import type { Context } from '../../src/pipeline/context.js';
import { createJitExecutor } from '../../src/pipeline/graphqlExecutor.js';
import { buildSchema } from '../../src/pipeline/schema.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { onFallback } from '../support/jitFallback.js';
import { startTestService, type TestService } from '../support/service.js';

const NOW = new Date('2026-06-10T15:30:00Z');

/** A value as a GraphQL literal (strings as JSON strings, which GraphQL reads alike). */
function literalOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literalOf).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([name, member]) => `${name}: ${literalOf(member)}`)
      .join(', ')} }`;
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

interface ScalarCase {
  scalar: string;
  /** The key the request is sent with. */
  key: string;
  /** The document with `$v` where the value goes, and the variable's declared type. */
  document: (value: string) => string;
  variableType: string;
  bad: unknown[];
}

const PAYMENT = (amount: string, currency: string) => `recordInStorePayment(input: { merchantId: "${DEMO_MERCHANT_ID}",
  salesClerkId: "${DEMO_CLERK_ID}", financeOrderId: "${DEMO_ORDER_ID}", amount: ${amount}, currency: ${currency} }) { fullyPaid }`;

const CASES: ScalarCase[] = [
  {
    scalar: 'Timestamp',
    key: 'demo-partner-key',
    document: (value) => `transactions(start: ${value}, end: 1781136000) { nodes { id } }`,
    variableType: 'Timestamp!',
    bad: ['yesterday', '1767225600', 1.5, -1, 253_402_300_800, true, { at: 1 }, [1767225600]],
  },
  {
    scalar: 'Decimal',
    key: 'demo-retail-key',
    document: (value) => PAYMENT(value, '"USD"'),
    variableType: 'Decimal!',
    bad: [18.5, 18, '1e3', '18.', ' 1', false, 'DEMO'],
  },
  {
    scalar: 'CurrencyCode',
    key: 'demo-retail-key',
    document: (value) => PAYMENT('"1.00"', value),
    variableType: 'CurrencyCode!',
    bad: ['usd', 'XYZ', 'US', 840, 1.5, { code: 'USD' }],
  },
];

/** The operation of a case: with the literal in place, or with `$v` declared. */
function documents(testCase: ScalarCase, value: unknown) {
  const root = testCase.scalar === 'Timestamp' ? 'query' : 'mutation';
  return {
    literal: `${root} { ${testCase.document(literalOf(value))} }`,
    variable: `${root}($v: ${testCase.variableType}) { ${testCase.document('$v')} }`,
  };
}

const eachBadValue = CASES.flatMap((testCase) =>
  testCase.bad.map((value) => [testCase.scalar, JSON.stringify(value), testCase, value] as const),
);

/** The message of a variable's refusal, once graphql-js's prefix naming the variable is taken off. */
function withoutVariablePrefix(message: string): string {
  expect(message).toMatch(/^Variable "\$v" got invalid value .+?; /);
  return message.slice(message.indexOf('; ') + 2);
}

describe('the pipeline and each executor: one message for a literal and a variable', () => {
  const schema = buildSchema();
  const jit = createJitExecutor(schema, createLogger('silent'));

  it.each(eachBadValue)('%s %s', async (_scalar, _shown, testCase, value) => {
    const { literal, variable } = documents(testCase, value);
    // A literal is refused by validation, before any executor sees the document.
    const literalErrors = validate(schema, parse(literal)).map((error) => error.message);
    expect(literalErrors).toHaveLength(1);
    const message = literalErrors[0]!;
    expect(message).toMatch(new RegExp(`^(${testCase.scalar} must be|currency )`));
    expect(message).not.toContain('undefined');

    // A variable is refused by the executor, before any resolver runs: jit hands it to graphql-js.
    const document = parse(variable);
    expect(validate(schema, document)).toEqual([]);
    const operation = document.definitions[0] as OperationDefinitionNode;
    const onJit = await jit.execute({
      document,
      operation,
      operationName: undefined,
      variables: { v: value },
      contextValue: {} as Context,
    });
    const onGraphqlJs = await execute({ schema, document, variableValues: { v: value } });
    expect(onJit.errors?.map((error) => error.message)).toEqual(onGraphqlJs.errors?.map((error) => error.message));
    expect(onGraphqlJs.errors).toHaveLength(1);
    expect(withoutVariablePrefix(onGraphqlJs.errors![0]!.message)).toBe(message);
  });

  it('a variable inside an input object: the same message after the prefix naming the variable and the field', async () => {
    const document = parse(
      `mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { fullyPaid } }`,
    );
    const input = {
      merchantId: DEMO_MERCHANT_ID,
      salesClerkId: DEMO_CLERK_ID,
      financeOrderId: DEMO_ORDER_ID,
      amount: 18.5,
      currency: 'USD',
    };
    const result = await execute({ schema, document, variableValues: { input } });
    const literal = validate(schema, parse(`mutation { ${PAYMENT('18.5', '"USD"')} }`)).map((error) => error.message);
    expect(result.errors?.map((error) => error.message)).toEqual([
      `Variable "$input" got invalid value 18.5 at "input.amount"; ${literal[0]}`,
    ]);
  });
});

// graphql-jit, refusing to compile while the fallback service is asked.
vi.mock('graphql-jit', async (original) => (await import('../support/jitFallback.js')).switchable(await original()));

type GraphqlExecutorKind = 'jit' | 'graphql-js';

describe('through /graphql, on graphql-jit and on its fallback, graphql-js', () => {
  const EXECUTORS: readonly GraphqlExecutorKind[] = ['jit', 'graphql-js'];
  const sides = {} as Record<GraphqlExecutorKind, { database: TestDatabase; service: TestService }>;

  beforeAll(async () => {
    for (const executor of EXECUTORS) {
      const database = await createTestDatabase({ now: NOW });
      const service = await startTestService(database.db, { now: () => NOW });
      sides[executor] = { database, service };
    }
  });
  afterAll(async () => {
    for (const side of Object.values(sides)) {
      await side.service?.close();
      await side.database?.destroy();
    }
  });

  /** The same request to both services: the answers must be alike; the jit one is returned. */
  async function onBoth(
    body: Record<string, unknown>,
    headers: (side: TestService) => Promise<Record<string, string>>,
  ) {
    const answers = [];
    for (const executor of EXECUTORS) {
      const { service } = sides[executor]!;
      const ask = async () => {
        const response = await service.request('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(await headers(service)) },
          body: JSON.stringify(body),
        });
        return { status: response.status, text: await response.text() };
      };
      answers.push(executor === 'jit' ? await ask() : await onFallback(ask));
    }
    expect(answers[0]).toEqual(answers[1]);
    return { status: answers[0]!.status, body: JSON.parse(answers[0]!.text) };
  }

  it.each(eachBadValue)('%s %s: 400 both ways, one message', async (_scalar, _shown, testCase, value) => {
    const { literal, variable } = documents(testCase, value);
    const key = async () => ({ 'x-api-key': testCase.key });
    const byLiteral = await onBoth({ query: literal }, key);
    const byVariable = await onBoth({ query: variable, variables: { v: value } }, key);
    expect(byLiteral.status).toBe(400);
    expect(byVariable.status).toBe(400);
    expect(byLiteral.body.errors).toHaveLength(1);
    expect(byVariable.body.errors).toHaveLength(1);
    // Apollo files a literal's refusal under validation, a variable's under bad input; the words are one.
    expect(byLiteral.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(byVariable.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(byLiteral.body.errors[0].message).not.toContain('undefined');
    expect(withoutVariablePrefix(byVariable.body.errors[0].message)).toBe(byLiteral.body.errors[0].message);
  });

  it('JSON: a notification written as a literal and sent as a variable is refused in the same words', async () => {
    const token = async (service: TestService) => {
      const { body } = await service.graphql(
        'mutation($k: String!) { createAccessToken(apiKey: $k) { accessToken } }',
        {},
        { k: 'demo-vendor-key' },
      );
      return { authorization: `Bearer ${body.data.createAccessToken.accessToken}` };
    };
    const notifications = [
      { paymentVendor: 'demo-vendor', amount: '-5.00', currency: 'USD', reference: 'JSON-1', deviceTag: 'DTSTBBD' },
      { paymentVendor: 'demo-vendor', amount: 1.5, currency: 'usd', reference: 'JSON-2', deviceTag: 'DTSTBBD' },
      {
        paymentVendor: 'demo-vendor',
        amount: '1.00',
        currency: 'USD',
        reference: 'JSON-3',
        imei: 'DTSTBBD',
        extra: [1, null, true],
      },
    ];
    for (const notification of notifications) {
      const selection = '{ message }';
      const byLiteral = await onBoth(
        { query: `mutation { createPaymentNotification(notification: ${literalOf(notification)}) ${selection} }` },
        token,
      );
      const byVariable = await onBoth(
        {
          query: `mutation($v: JSON!) { createPaymentNotification(notification: $v) ${selection} }`,
          variables: { v: notification },
        },
        token,
      );
      expect(byLiteral.body.errors?.[0]?.extensions?.code).toBe('INVALID_NOTIFICATION');
      // The same answer but for where the value stands in each document.
      const withoutLocations = ({ status, body }: { status: number; body: any }) => ({
        status,
        data: body.data,
        errors: body.errors.map(({ locations: _at, ...error }: any) => error),
      });
      expect(withoutLocations(byLiteral)).toEqual(withoutLocations(byVariable));
    }
  });

  it('ran nothing on graphql-jit at the fallback service: the answers compared were its fallback', () => {
    const stats = sides['graphql-js']!.service.executorStats;
    expect(stats.jitExecutions).toBe(0);
    expect(stats.graphqlJsExecutions).toBeGreaterThan(0);
  });
});
