import {
  type GraphQLSchema,
  getIntrospectionQuery,
  getNullableType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, GRAPHQL_LIMIT_FLOORS } from '../../kernel/limitSettings.js';
import { listSizesOf } from '../../kernel/listSize.js';
import { LEGACY_ROUTES } from '../../rest/routes.js';
import { buildSchema } from '../schema.js';
import { AnalysisMeter } from './analysisBudget.js';
import { createOperationShapeRule, operationShape } from './graphqlLimits.js';
import { fragmentsOf, operationCost } from './operationCost.js';

let schema: GraphQLSchema;
beforeAll(() => {
  schema = buildSchema();
});

const firstOperation = (query: string) => {
  const document = parse(query);
  const operation = document.definitions.find(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  ) as OperationDefinitionNode;
  return { document, operation };
};
const cost = (query: string, variables: Record<string, unknown> = {}, budget?: number, meter?: AnalysisMeter) => {
  const { document, operation } = firstOperation(query);
  return operationCost(schema, document, operation, variables, budget, meter);
};
const shape = (query: string) => {
  const { document, operation } = firstOperation(query);
  return operationShape(operation, fragmentsOf(document));
};
const refusals = (query: string, limits = DEFAULT_LIMITS.graphql) =>
  validate(schema, parse(query), [createOperationShapeRule(limits)]).map((error) => error.message);

describe('the bounds of the graph', () => {
  it('every list field has a bound the meter can see: its own @listSize, or a connection that sizes it', () => {
    const sizes = listSizesOf(schema);
    const sizedByConnection = new Set<string>();
    for (const [key, size] of sizes) {
      const [typeName, fieldName] = key.split('.') as [string, string];
      const type = schema.getType(typeName);
      if (!isObjectType(type)) continue;
      const connection = getNullableType(type.getFields()[fieldName]!.type);
      if (!isObjectType(connection)) continue;
      for (const sized of size.sizedFields) sizedByConnection.add(`${connection.name}.${sized}`);
    }
    const unbounded: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const key = `${type.name}.${field.name}`;
        if (isListType(getNullableType(field.type)) && !sizes.has(key) && !sizedByConnection.has(key))
          unbounded.push(key);
      }
    }
    expect(unbounded).toEqual([]);
  });
});

describe('the REST shim operations', () => {
  it.each(LEGACY_ROUTES.map((route) => [route.name, route.operation] as const))(
    '%s fits the least any setting allows',
    (_name, operation) => {
      const measured = shape(operation);
      expect(measured.depth).toBeLessThanOrEqual(GRAPHQL_LIMIT_FLOORS.maxDepth);
      expect(measured.aliases).toBeLessThanOrEqual(GRAPHQL_LIMIT_FLOORS.maxAliases);
      expect(cost(operation)).toBeLessThanOrEqual(GRAPHQL_LIMIT_FLOORS.maxCost);
      expect(refusals(operation, GRAPHQL_LIMIT_FLOORS)).toEqual([]);
    },
  );

  it('the legacy list of transactions is one full page: 5,000 rows of at most 7 objects each', () => {
    const route = LEGACY_ROUTES.find((candidate) => candidate.name === 'list-transactions')!;
    expect(cost(route.operation)).toBe(1 + 1 + 5000 * 7);
  });
});

describe('depth', () => {
  it('counts nested fields; fragments add no level of their own; introspection adds none', () => {
    expect(shape('{ clerks { id } }').depth).toBe(2);
    expect(shape('{ customer(locator: "x") { financeOrder { device { model { name } } } } }').depth).toBe(5);
    expect(
      shape(
        '{ customer(locator: "x") { ...C } } fragment C on Customer { financeOrder { ... on FinanceOrder { id } } }',
      ).depth,
    ).toBe(3);
    expect(shape(getIntrospectionQuery()).depth).toBe(0);
  });
});

describe('aliases', () => {
  it('counts aliased fields, a fragment once per spread, introspection included', () => {
    expect(shape('{ a: clerks { b: id id } }').aliases).toBe(2);
    expect(
      shape(
        '{ clerks { ...F } merchants { ...G } } fragment F on Clerk { x: id y: name } fragment G on Merchant { z: id }',
      ).aliases,
    ).toBe(3);
    expect(shape('{ clerks { ...F ...F } } fragment F on Clerk { x: id }').aliases).toBe(2);
    expect(shape('{ a: __schema { b: types { c: name } } }').aliases).toBe(3);
  });
});

describe('cost: the most objects the answer can hold', () => {
  it('counts objects, not scalars; a list without first at its bound', () => {
    expect(cost('{ viewer { kind } }')).toBe(1);
    expect(cost('{ __typename clerks { __typename id name } }')).toBe(5000);
    expect(cost('{ merchants { id address { city } } }')).toBe(5000 * 2);
    expect(cost('{ partners { merchants { id } } }')).toBe(1000 * (1 + 5000));
  });

  it("reads first as a literal, a variable, a variable's default, or the argument's default", () => {
    expect(cost('{ clerks(first: 7) { id } }')).toBe(7);
    expect(cost('query($n: Int) { clerks(first: $n) { id } }', { n: 9 })).toBe(9);
    expect(cost('query($n: Int = 3) { clerks(first: $n) { id } }')).toBe(3);
    expect(cost('query($n: Int = 3) { clerks(first: $n) { id } }', { n: null })).toBe(5000);
    expect(cost('query($n: Int) { clerks(first: $n) { id } }')).toBe(5000);
    expect(cost('{ auditEvents { nodes { id } } }')).toBe(1 + 50);
    expect(cost('{ clerks(first: 999999) { id } }')).toBe(5000);
  });

  it("sizes a connection's nodes and edges by its first", () => {
    const page = (first: string) =>
      `{ transactions(start: 0, end: 1${first}) { nodes { id } edges { node { id } } pageInfo { hasNextPage } } }`;
    expect(cost(page(''))).toBe(1 + 5000 + 5000 * 2 + 1);
    expect(cost(page(', first: 50'))).toBe(1 + 50 + 50 * 2 + 1);
    expect(cost('query($f: Int) { transactions(start: 0, end: 1, first: $f) { nodes { id } } }', { f: 20 })).toBe(
      1 + 20,
    );
  });

  it('counts the costliest possible type of an interface, and every spread and alias', () => {
    const nodes =
      '{ transactions(start: 0, end: 1, first: 10) { nodes { merchant { id } ... on CashTransaction { payment { id } salesClerk { id } } ... on CommissionTransaction { payment { id } } } } }';
    expect(cost(nodes)).toBe(1 + 10 * (1 + 1 + 2));
    expect(cost('{ customer(locator: "x") { ...F ...F } } fragment F on Customer { financeOrder { id } }')).toBe(1 + 2);
    expect(cost('{ a: viewer { kind } b: viewer { kind } }')).toBe(2);
  });

  it('multiplies nested lists: the heap-filling query of an order and its payments is refused', () => {
    const nested =
      '{ financeOrder(id: "1") { payments { financeOrder { payments { financeOrder { payments { id } } } } } } }';
    expect(cost(nested)).toBeGreaterThan(DEFAULT_LIMITS.graphql.maxCost);
    expect(
      Number.isSafeInteger(
        cost(
          `{ ${'a: transactions(start: 0, end: 1) { edges { node { ... on CashTransaction { payment { financeOrder { payments { id } } } } } } } '.repeat(3)} }`,
        ),
      ),
    ).toBe(true);
  });

  it('admits one full page of transactions with a dashboard selection, and not two; nor 30 pages of ids', () => {
    const full = (alias: string) =>
      `${alias}: transactions(start: 0, end: 1, first: 5000) { pageInfo { endCursor } nodes { type amount merchant { name } ... on FinanceTransaction { financeOrder { id } salesClerk { name } device { imei model { name } family { name } } } ... on CashTransaction { payment { id } financeOrder { id } salesClerk { name } } } }`;
    expect(cost(`{ ${full('a')} }`)).toBeLessThanOrEqual(DEFAULT_LIMITS.graphql.maxCost);
    expect(cost(`{ ${full('a')} ${full('b')} }`)).toBeGreaterThan(DEFAULT_LIMITS.graphql.maxCost);
    const thin = Array.from({ length: 30 }, (_, i) => `p${i}: transactions(start: 0, end: 1) { nodes { id } }`).join(
      ' ',
    );
    expect(cost(`{ ${thin} }`)).toBe(30 * 5001);
  });

  it('counts what an introspection answer really holds: Sandbox fits, 30 x 30 aliases do not', () => {
    const sandbox = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
    });
    const full = cost(sandbox);
    expect(full).toBeGreaterThan(Object.keys(schema.getTypeMap()).length);
    expect(full).toBeLessThanOrEqual(DEFAULT_LIMITS.graphql.maxCost);
    const clerk = schema.getType('Clerk');
    if (!isObjectType(clerk)) throw new Error('no Clerk type');
    expect(cost('{ __type(name: "Clerk") { name fields { name } } }')).toBe(1 + Object.keys(clerk.getFields()).length);
    const inner = Array.from({ length: 30 }, (_, i) => `f${i}: fields { name type { name } }`).join(' ');
    const aliased = `{ __schema { ${Array.from({ length: 30 }, (_, i) => `t${i}: types { ${inner} }`).join(' ')} } }`;
    // Counted as the cost plugin counts it, stopping past the limit, with steps to spare: the shape rule
    // refuses its 930 aliases first, and its count takes more steps than the analysis budget.
    expect(cost(aliased, {}, DEFAULT_LIMITS.graphql.maxCost, new AnalysisMeter(1e7))).toBeGreaterThan(
      DEFAULT_LIMITS.graphql.maxCost,
    );
  });
});

describe('the shape rule', () => {
  it('names the limit and the value in each refusal', () => {
    const limits = { ...DEFAULT_LIMITS.graphql, maxDepth: 2, maxAliases: 1 };
    expect(refusals('query Q { a: clerks { b: id name } }', limits)).toEqual([
      'operation Q uses 2 aliases, more than the limit of 1 (GRAPHQL_MAX_ALIASES)',
    ]);
    expect(refusals('{ partners { merchants { id } } }', limits)).toEqual([
      'the operation is 3 levels deep, more than the limit of 2 (GRAPHQL_MAX_DEPTH)',
    ]);
  });
});
