import { getIntrospectionQuery, parse, validate, type GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_ROUTES } from '../rest/routes.js';
import { buildSchema } from '../schema.js';
import { countTokens, graphqlLimitRules, measureDocument } from './graphqlLimits.js';
import { DEFAULT_LIMITS, GRAPHQL_LIMIT_FLOORS } from './settings.js';

let schema: GraphQLSchema;
beforeAll(() => {
  schema = buildSchema();
});

const measure = (query: string) => measureDocument(schema, parse(query));
const refusals = (query: string, limits = DEFAULT_LIMITS.graphql) => validate(schema, parse(query), graphqlLimitRules(limits)).map((error) => error.message);

describe('the REST shim operations', () => {
  it.each(LEGACY_ROUTES.map((route) => [route.name, route.operation] as const))('%s fits the least any setting allows', (_name, operation) => {
    const measured = measure(operation);
    expect(measured.depth).toBeLessThanOrEqual(GRAPHQL_LIMIT_FLOORS.maxDepth);
    expect(measured.aliases).toBeLessThanOrEqual(GRAPHQL_LIMIT_FLOORS.maxAliases);
    expect(measured.cost).toBeLessThanOrEqual(GRAPHQL_LIMIT_FLOORS.maxCost);
    expect(measured.tokens).toBeLessThanOrEqual(GRAPHQL_LIMIT_FLOORS.maxTokens);
    expect(refusals(operation, GRAPHQL_LIMIT_FLOORS)).toEqual([]);
    expect(refusals(operation)).toEqual([]);
  });
});

describe('depth', () => {
  it('counts nested fields; fragments add no level of their own', () => {
    expect(measure('{ clerks { id } }').depth).toBe(2);
    expect(measure('{ customer(locator: "x") { financeOrder { device { model { name } } } } }').depth).toBe(5);
    expect(measure('{ customer(locator: "x") { ...C } } fragment C on Customer { financeOrder { ... on FinanceOrder { id } } }').depth).toBe(3);
  });
});

describe('aliases', () => {
  it('counts aliased fields, a fragment once per spread', () => {
    expect(measure('{ a: clerks { b: id id } }').aliases).toBe(2);
    expect(measure('{ clerks { ...F } merchants { ...G } } fragment F on Clerk { x: id y: name } fragment G on Merchant { z: id }').aliases).toBe(3);
    expect(measure('{ clerks { ...F ...F } } fragment F on Clerk { x: id }').aliases).toBe(2);
  });
});

describe('cost', () => {
  it('is 1 per field, a list 10 times what it selects, nested multiplicatively', () => {
    expect(measure('{ viewer { kind } }').cost).toBe(2);
    expect(measure('{ clerks { id name } }').cost).toBe(1 + 10 * 2);
    expect(measure('{ partners { merchants { id } } }').cost).toBe(1 + 10 * (1 + 10 * 1));
  });

  it("takes a list's size from its first argument, or from the connection's right above it", () => {
    const nodes = (first: string) => `{ transactions(start: 0, end: 1${first}) { nodes { id } pageInfo { hasNextPage } } }`;
    expect(measure(nodes('')).cost).toBe(1 + (1 + 10 * 1) + 2);
    expect(measure(nodes(', first: 50')).cost).toBe(1 + (1 + 50 * 1) + 2);
    expect(measure('query($n: Int = 3) { transactions(start: 0, end: 1, first: $n) { nodes { id } } }').cost).toBe(1 + (1 + 3));
    expect(measure('query($n: Int) { transactions(start: 0, end: 1, first: $n) { nodes { id } } }').cost).toBe(1 + (1 + 10));
  });

  it('costs nothing for __typename and introspection', () => {
    expect(measure('{ __typename clerks { __typename } }').cost).toBe(1);
    expect(measure(getIntrospectionQuery()).cost).toBe(0);
  });

  it('adds every spread and every inline fragment', () => {
    expect(measure('{ clerks { ...F ...F } } fragment F on Clerk { id name }').cost).toBe(1 + 10 * 4);
    expect(measure('{ transactions(start: 0, end: 1) { nodes { ... on CashTransaction { id } ... on FinanceTransaction { id months: id } } } }').cost).toBe(
      1 + (1 + 10 * 3),
    );
  });

  it('saturates instead of overflowing, and survives fragment cycles (another rule refuses those)', () => {
    const huge = `{ ${'a: transactions(start: 0, end: 1, first: 1000000000) { edges { node { id } } } '.repeat(3)} }`;
    expect(measure(huge).cost).toBeGreaterThan(DEFAULT_LIMITS.graphql.maxCost);
    expect(Number.isSafeInteger(measure(huge).cost)).toBe(true);
    expect(measure('{ clerks { ...A } } fragment A on Clerk { ...B } fragment B on Clerk { ...A id }').cost).toBe(1 + 10 * 1);
  });
});

describe('tokens', () => {
  it("are the lexer's tokens, comments not included", () => {
    expect(countTokens(parse('{ clerks { id } }'))).toBe(6);
    expect(countTokens(parse('# a comment\n{ clerks(x: "a b c") { id } }'))).toBe(11);
  });
});

describe('the rules', () => {
  it('name the limit and the value in each refusal', () => {
    const limits = { maxDepth: 2, maxAliases: 1, maxCost: 20, maxTokens: 10 };
    expect(refusals('query Q { a: clerks { b: id name } }', limits)).toEqual([
      'the document has 13 tokens, more than the limit of 10 (GRAPHQL_MAX_TOKENS)',
      'operation Q uses 2 aliases, more than the limit of 1 (GRAPHQL_MAX_ALIASES)',
      'operation Q has an estimated cost of 21, more than the limit of 20 (GRAPHQL_MAX_COST)',
    ]);
    expect(refusals('{ partners { merchants { id } } }', limits)).toEqual([
      'the operation is 3 levels deep, more than the limit of 2 (GRAPHQL_MAX_DEPTH)',
      'the operation has an estimated cost of 111, more than the limit of 20 (GRAPHQL_MAX_COST)',
    ]);
  });

  it('let the full introspection query through (Apollo Sandbox outside production)', () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true });
    expect(refusals(query)).toEqual([]);
  });
});
