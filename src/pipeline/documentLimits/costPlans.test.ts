// The cost's plan (compileOperationCost) and the cost plugin that keeps it: a plan gives, for any
// variables, exactly the cost a measure with those variables gives (and takes the same steps, so the
// analysis budget refuses the same documents); the plugin analyses an operation once, and counts each
// request's own sizes. The plan's compilations are counted through the module, wrapped here.
import fc from 'fast-check';
import {
  type DocumentNode,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  type VariableDefinitionNode,
} from 'graphql';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { LEGACY_ROUTES } from '../../rest/routes.js';
import { buildSchema } from '../schema.js';
import { AnalysisMeter } from './analysisBudget.js';
import { costWith } from './costPlan.js';
import { graphqlCostPlugin } from './graphqlLimits.js';
import { compileOperationCost, type OperationCostPlan, operationCost } from './operationCost.js';

const compilations = vi.hoisted(() => ({ count: 0 }));
vi.mock('./operationCost.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./operationCost.js')>();
  return {
    ...original,
    compileOperationCost: (...args: Parameters<typeof original.compileOperationCost>) => {
      compilations.count++;
      return original.compileOperationCost(...args);
    },
  };
});

let schema: GraphQLSchema;
beforeAll(() => {
  schema = buildSchema();
});

const operationsOf = (document: DocumentNode) =>
  document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );

/** Sizes asked for by variables: in the list's bounds or past them, odd values, and shared fragments. */
const SIZED_DOCUMENTS = [
  'query($n: Int) { clerks(first: $n) { id } }',
  'query($n: Int = 3) { clerks(first: $n) { id } }',
  'query($f: Int) { transactions(start: 0, end: 1, first: $f) { nodes { id } edges { node { id } } pageInfo { hasNextPage } } }',
  'query($f: Int) { transactions(start: 0, end: 1, first: $f) { nodes { merchant { id } ... on CashTransaction { payment { id } salesClerk { id } } ... on CommissionTransaction { payment { id } } } } }',
  'query($a: Int, $b: Int) { partners(first: $a) { merchants(first: $b) { id address { city } } clerks(first: $a) { id } } }',
  'query($n: Int) { a: clerks(first: $n) { ...C } b: clerks(first: 2) { ...C } c: clerks { ...C } } fragment C on Clerk { id }',
  'query($f: Int, $g: Int = 7) { x: transactions(start: 0, end: 1, first: $f) { ...T } y: transactions(start: 0, end: 1, first: $g) { ...T } } fragment T on TransactionConnection { nodes { merchant { id } } }',
  'query($constructor: Int, $toString: Int = 4) { clerks(first: $constructor) { id } merchants(first: $toString) { id } }',
  'query($n: Int) { __type(name: "Clerk") { name fields { name } } clerks(first: $n) { id } }',
  '{ clerks(first: 7) { id } merchants { id } }',
];

const DOCUMENTS = [...SIZED_DOCUMENTS, ...LEGACY_ROUTES.map((route) => route.operation)];

const variableNames = (operation: OperationDefinitionNode) =>
  (operation.variableDefinitions ?? []).map((definition: VariableDefinitionNode) => definition.variable.name.value);

/** A variable's value: absent, or anything a client may send for it. */
const valueArb = fc.option(
  fc.oneof(
    fc.integer({ min: -10, max: 10 }),
    fc.integer({ min: 0, max: 20_000 }),
    fc.constantFrom(null, 2.5, -0, '10', Number.MAX_SAFE_INTEGER, true, [3]),
  ),
  { nil: undefined },
);

const variablesArb = (names: readonly string[]) =>
  fc
    .tuple(...names.map(() => valueArb))
    .map((values) =>
      Object.fromEntries(names.flatMap((name, i) => (values[i] === undefined ? [] : [[name, values[i]]]))),
    );

const sizedPlan = (plan: OperationCostPlan) => {
  if (plan.kind !== 'sized') throw new Error(`a ${plan.kind} plan`);
  return plan;
};
const costOf = (plan: OperationCostPlan, variables: Record<string, unknown>) =>
  plan.kind === 'known' ? plan.cost : costWith(sizedPlan(plan), variables);

describe("the cost's plan", () => {
  it.each(DOCUMENTS.map((text) => [text.slice(0, 70), text] as const))(
    'gives the cost a measure with the variables gives, for any variables: %s',
    (_name, text) => {
      const document = parse(text);
      for (const operation of operationsOf(document)) {
        const plan = compileOperationCost(schema, document, operation);
        fc.assert(
          fc.property(variablesArb(variableNames(operation)), (variables) => {
            expect(costOf(plan, variables)).toBe(operationCost(schema, document, operation, variables));
          }),
          { numRuns: 100 },
        );
      }
    },
  );

  it('leaves open only what a variable sizes: a document of literals is known, one with first: $n is sized', () => {
    const literal = parse('{ clerks(first: 7) { id } }');
    expect(compileOperationCost(schema, literal, operationsOf(literal)[0]!)).toEqual({ kind: 'known', cost: 7 });
    const sized = parse(SIZED_DOCUMENTS[0]!);
    const plan = sizedPlan(compileOperationCost(schema, sized, operationsOf(sized)[0]!));
    expect([costWith(plan, { n: 9 }), costWith(plan, {}), costWith(plan, { n: null })]).toEqual([9, 5000, 5000]);
  });

  it('takes the steps a measure with variables takes, so the analysis budget refuses the same documents', () => {
    for (const text of DOCUMENTS) {
      const document = parse(text);
      for (const operation of operationsOf(document)) {
        const planned = new AnalysisMeter(Number.POSITIVE_INFINITY);
        const measured = new AnalysisMeter(Number.POSITIVE_INFINITY);
        compileOperationCost(schema, document, operation, Number.MAX_SAFE_INTEGER, planned);
        operationCost(schema, document, operation, { n: 3, f: 4 }, Number.MAX_SAFE_INTEGER, measured);
        expect(planned.steps).toBe(measured.steps);
      }
    }
  });

  it('measures introspection that names its type by a variable whole, per request', () => {
    const document = parse('query($t: String!) { __type(name: $t) { name fields { name } } }');
    expect(compileOperationCost(schema, document, operationsOf(document)[0]!)).toEqual({ kind: 'whole' });
  });
});

/** Runs the plugin's hook as Apollo does for one request; the refusal's message, or undefined. */
async function refusalOf(
  plugin: ReturnType<typeof graphqlCostPlugin>,
  document: DocumentNode,
  variables: Record<string, unknown>,
  operation = operationsOf(document)[0]!,
): Promise<string | undefined> {
  const hooks = await plugin.requestDidStart!({} as never);
  try {
    await hooks!.didResolveOperation!({ request: { variables }, document, operation, schema } as never);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the cost plugin', () => {
  it('counts the same document with other variables at the cost of those variables', async () => {
    const plugin = graphqlCostPlugin({ maxCost: 50 });
    // Apollo's document store hands the same document for the same text: one parse, as there.
    const document = parse('query Clerks($n: Int) { clerks(first: $n) { id } }');
    const refusal = 'operation Clerks has an estimated cost of 100, more than the limit of 50 (GRAPHQL_MAX_COST)';
    expect(await refusalOf(plugin, document, { n: 10 })).toBeUndefined();
    expect(await refusalOf(plugin, document, { n: 100 })).toBe(refusal);
    expect(await refusalOf(plugin, document, { n: 50 })).toBeUndefined();
    expect(await refusalOf(plugin, document, {})).toBe(
      'operation Clerks has an estimated cost of 5000, more than the limit of 50 (GRAPHQL_MAX_COST)',
    );
    expect(await refusalOf(plugin, document, { n: 100 })).toBe(refusal);
  });

  it('analyses each operation of a document once, however many requests run it', async () => {
    const plugin = graphqlCostPlugin({ maxCost: 50_000 });
    const document = parse(
      'query A($n: Int) { clerks(first: $n) { id } } query B { merchants(first: 3) { id } } query C($t: String!) { __type(name: $t) { name } }',
    );
    const [a, b, c] = operationsOf(document);
    const before = compilations.count;
    for (let i = 0; i < 5; i++) {
      expect(await refusalOf(plugin, document, { n: i }, a)).toBeUndefined();
      expect(await refusalOf(plugin, document, {}, b)).toBeUndefined();
      expect(await refusalOf(plugin, document, { t: 'Clerk' }, c)).toBeUndefined();
    }
    expect(compilations.count - before).toBe(3);
    // The same text parsed again is another document (Apollo's store had let the first go): analysed anew.
    expect(await refusalOf(plugin, parse(document.loc!.source.body), { n: 1 })).toBeUndefined();
    expect(compilations.count - before).toBe(4);
  });

  it('counts introspection naming its type by a variable with each request own name', async () => {
    const plugin = graphqlCostPlugin({ maxCost: 3 });
    const document = parse('query T($t: String!) { __type(name: $t) { name fields { name } } }');
    expect(await refusalOf(plugin, document, { t: 'NoSuchType' })).toBeUndefined();
    expect(await refusalOf(plugin, document, { t: 'Clerk' })).toMatch(/^operation T has an estimated cost/);
  });
});
