// The analysis of a document is linear in its size, whatever its fragments do: generated fragment
// graphs (deep chains, wide fan-out, diamonds, cycles) are measured, and the walks' steps are held to
// a constant times the document's tokens. The measures themselves are checked against a direct
// computation over the generated graph (each fragment's measure from those it spreads).
import fc from 'fast-check';
import {
  type DocumentNode,
  type GraphQLSchema,
  isAbstractType,
  Kind,
  Lexer,
  type OperationDefinitionNode,
  parse,
  Source,
  specifiedRules,
  TokenKind,
  validate,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../kernel/limitSettings.js';
import { buildSchema } from '../schema.js';
import {
  ANALYSIS_REFUSAL,
  AnalysisBudgetExceeded,
  AnalysisMeter,
  INLINED_REFUSAL,
  MAX_INLINED_SELECTIONS,
} from './analysisBudget.js';
import { costRefusal, createOperationShapeRule, operationShape } from './graphqlLimits.js';
import { fragmentsOf, operationCost } from './operationCost.js';

let schema: GraphQLSchema;
/** The most object types an abstract type of the schema stands for. */
let possibleTypes: number;
beforeAll(() => {
  schema = buildSchema();
  possibleTypes = Math.max(
    ...Object.values(schema.getTypeMap())
      .filter(isAbstractType)
      .map((type) => schema.getPossibleTypes(type).length),
  );
});

/** A leaf selection and what it measures. */
interface Leaf {
  text: string;
  cost: number;
  depth: number;
  aliases: number;
  inlined: number;
}

/** Where fragments stand: their type, the operation around the first, and the leaves they may select. */
interface Family {
  type: string;
  operation: (spread: string) => string;
  /** The operation's measure, given its fragment's. */
  cost: (inner: number) => number;
  depth: (inner: number) => number;
  /** Selections of the operation around the spread. */
  around: number;
  leaves: Leaf[];
}

const FAMILIES: Family[] = [
  {
    type: 'Query',
    operation: (spread) => `query { ${spread} }`,
    cost: (inner) => inner,
    depth: (inner) => inner,
    around: 0,
    leaves: [
      { text: '__typename', cost: 0, depth: 1, aliases: 0, inlined: 1 },
      { text: 'viewer { kind }', cost: 1, depth: 2, aliases: 0, inlined: 2 },
      { text: 'clerks(first: 2) { id }', cost: 2, depth: 2, aliases: 0, inlined: 2 },
      { text: 'a: viewer { kind }', cost: 1, depth: 2, aliases: 1, inlined: 2 },
    ],
  },
  {
    // An interface: each fragment is measured once for each of its possible types.
    type: 'Transaction',
    operation: (spread) => `query { transactions(start: 0, end: 1, first: 3) { nodes { ${spread} } } }`,
    cost: (inner) => 1 + 3 * (1 + inner),
    depth: (inner) => 2 + inner,
    around: 2,
    leaves: [
      { text: 'id', cost: 0, depth: 1, aliases: 0, inlined: 1 },
      { text: 'merchant { id }', cost: 1, depth: 2, aliases: 0, inlined: 2 },
      { text: 'm: merchant { name }', cost: 1, depth: 2, aliases: 1, inlined: 2 },
    ],
  },
];

/** A fragment of the graph: the fragments it spreads (each some times, maybe inside an inline fragment) and its leaves. */
interface FragmentModel {
  spreads: Array<{ to: number; times: number; inline: boolean }>;
  leaves: number[];
}

interface GraphModel {
  family: number;
  fragments: FragmentModel[];
  /** A spread back to an earlier fragment (or itself): a cycle, which validation refuses. */
  cycle?: { from: number; to: number };
}

const spreadArb = (from: number, count: number, next: boolean) =>
  fc.record({
    to: next ? fc.constant(from + 1) : fc.integer({ min: from + 1, max: count - 1 }),
    times: fc.integer({ min: 1, max: 10 }),
    inline: fc.boolean(),
  });

/** Fragments 0..n-1, each spreading only later ones (a DAG); shape picks chains, diamonds or any DAG. */
const graphArb: fc.Arbitrary<GraphModel> = fc
  .record({
    family: fc.integer({ min: 0, max: FAMILIES.length - 1 }),
    count: fc.integer({ min: 1, max: 9 }),
    shape: fc.constantFrom('chain', 'dag', 'diamond'),
    withCycle: fc.boolean(),
  })
  .chain(({ family, count, shape, withCycle }) => {
    const fragment = (i: number): fc.Arbitrary<FragmentModel> => {
      const last = i === count - 1;
      const spreads: fc.Arbitrary<FragmentModel['spreads']> = last
        ? fc.constant([])
        : shape === 'chain'
          ? fc.array(spreadArb(i, count, true), { minLength: 1, maxLength: 1 })
          : shape === 'diamond'
            ? // Two ways to the same later fragment: i -> i+1 and i -> (i+2 or i+1) -> ...
              fc.tuple(spreadArb(i, count, true), spreadArb(i, count, false)).map((pair) => [...pair])
            : fc.array(spreadArb(i, count, false), { maxLength: 4 });
      const leaves = fc.array(fc.integer({ min: 0, max: FAMILIES[family]!.leaves.length - 1 }), {
        minLength: last ? 1 : 0,
        maxLength: 3,
      });
      return fc.record({ spreads, leaves });
    };
    const cycle = withCycle
      ? fc
          .integer({ min: 0, max: count - 1 })
          .chain((from) => fc.record({ from: fc.constant(from), to: fc.integer({ min: 0, max: from }) }))
      : fc.constant(undefined);
    return fc.record({
      family: fc.constant(family),
      fragments: fc.tuple(...Array.from({ length: count }, (_, i) => fragment(i))),
      cycle,
    });
  });

function documentOf(model: GraphModel): string {
  const family = FAMILIES[model.family]!;
  const definitions = model.fragments.map((fragment, i) => {
    const selections = fragment.leaves.map((leaf) => family.leaves[leaf]!.text);
    for (const spread of fragment.spreads) {
      const text = Array(spread.times).fill(`...F${spread.to}`).join(' ');
      selections.push(spread.inline ? `... on ${family.type} { ${text} }` : text);
    }
    if (model.cycle?.from === i) selections.push(`...F${model.cycle.to}`);
    if (selections.length === 0) selections.push(family.leaves[0]!.text);
    return `fragment F${i} on ${family.type} { ${selections.join(' ')} }`;
  });
  return `${family.operation('...F0')} ${definitions.join(' ')}`;
}

/** Each fragment's measures from those it spreads: what the memoised walks must find (acyclic graphs). */
function expected(model: GraphModel) {
  const family = FAMILIES[model.family]!;
  const measures: Leaf[] = [];
  for (let i = model.fragments.length - 1; i >= 0; i--) {
    const fragment = model.fragments[i]!;
    const leaves = fragment.leaves.length ? fragment.leaves.map((leaf) => family.leaves[leaf]!) : [];
    if (!leaves.length && !fragment.spreads.length) leaves.push(family.leaves[0]!);
    const measure = { text: '', cost: 0, depth: 0, aliases: 0, inlined: 0 };
    for (const leaf of leaves) {
      measure.cost += leaf.cost;
      measure.depth = Math.max(measure.depth, leaf.depth);
      measure.aliases += leaf.aliases;
      measure.inlined += leaf.inlined;
    }
    for (const spread of fragment.spreads) {
      const inner = measures[spread.to]!;
      measure.cost += spread.times * inner.cost;
      measure.depth = Math.max(measure.depth, inner.depth);
      measure.aliases += spread.times * inner.aliases;
      measure.inlined += spread.times * inner.inlined;
    }
    measures[i] = measure;
  }
  const root = measures[0]!;
  return {
    cost: family.cost(root.cost),
    depth: family.depth(root.depth),
    aliases: root.aliases,
    inlined: family.around + root.inlined,
  };
}

/** Whether fragment `from` spreads `to`, directly or through others. */
function reaches(model: GraphModel, from: number, to: number): boolean {
  const seen = new Set<number>();
  const walk = (at: number): boolean => {
    if (at === to) return true;
    if (seen.has(at)) return false;
    seen.add(at);
    return model.fragments[at]!.spreads.some((spread) => walk(spread.to));
  };
  return walk(from);
}

function tokensOf(text: string): number {
  const lexer = new Lexer(new Source(text));
  let tokens = 0;
  while (lexer.advance().kind !== TokenKind.EOF) tokens++;
  return tokens;
}

const operationOf = (document: DocumentNode) =>
  document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;

/** The steps of each measure of `text`, unbounded. */
function stepsOf(text: string) {
  const document = parse(text);
  const operation = operationOf(document);
  const shapeMeter = new AnalysisMeter(Number.POSITIVE_INFINITY);
  const costMeter = new AnalysisMeter(Number.POSITIVE_INFINITY);
  const shape = operationShape(operation, fragmentsOf(document), shapeMeter);
  const cost = operationCost(schema, document, operation, {}, Number.MAX_SAFE_INTEGER, costMeter);
  return { document, operation, shape, cost, shapeSteps: shapeMeter.steps, costSteps: costMeter.steps };
}

describe('the analysis of generated fragment graphs', () => {
  it('takes steps linear in the tokens: shape at most 2 per token, cost at most 2p(p+1) (p: possible types of an abstract type)', () => {
    let worst = 0;
    fc.assert(
      fc.property(graphArb, (model) => {
        const text = documentOf(model);
        const tokens = tokensOf(text);
        const { shape, cost, shapeSteps, costSteps } = stepsOf(text);
        // Shape: one step per selection, for each of two places (in introspection or not).
        expect(shapeSteps).toBeLessThanOrEqual(2 * tokens);
        // Cost: each selection set once per object type (at most p) and connection (sized or not, 2),
        // one step per selection and per possible type of its abstract fields (p + 1).
        expect(costSteps).toBeLessThanOrEqual(2 * possibleTypes * (possibleTypes + 1) * tokens);
        worst = Math.max(worst, shapeSteps / tokens, costSteps / tokens);
        if (!model.cycle) expect({ ...shape, cost }).toEqual(expected(model));
      }),
      { numRuns: 300 },
    );
    expect(worst).toBeGreaterThan(0);
  });

  it('refuses a document whose fragments inline past the limit in validation, and a cycle, without hanging', () => {
    const rules = [...specifiedRules, createOperationShapeRule(DEFAULT_LIMITS.graphql)];
    fc.assert(
      fc.property(graphArb, (model) => {
        const messages = validate(schema, parse(documentOf(model)), rules).map((error) => error.message);
        if (model.cycle) {
          const { from, to } = model.cycle;
          const cyclic = messages.some((message) => message.startsWith('Cannot spread fragment'));
          expect(cyclic).toBe(reaches(model, to, from));
        } else expect(messages.includes(INLINED_REFUSAL)).toBe(expected(model).inlined > MAX_INLINED_SELECTIONS);
      }),
      { numRuns: 200 },
    );
  });

  it('stops a walk past its budget, and the cost refusal says the document is too complex', () => {
    fc.assert(
      fc.property(graphArb, fc.integer({ min: 1, max: 200 }), (model, budget) => {
        const text = documentOf(model);
        const { document, operation, shapeSteps, costSteps } = stepsOf(text);
        const shape = () => operationShape(operation, fragmentsOf(document), new AnalysisMeter(budget));
        if (shapeSteps > budget) expect(shape).toThrow(AnalysisBudgetExceeded);
        else expect(shape).not.toThrow();
        const refusal = costRefusal(schema, document, operation, {}, { maxCost: 1e15 }, new AnalysisMeter(budget));
        if (costSteps > budget) expect(refusal?.message).toBe(ANALYSIS_REFUSAL);
        else expect(refusal).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

/** The bomb: F0 spreads F1 ten times, F1 spreads F2 ten times, ... `levels` fragments, the last `leaf`. */
function fragmentBomb(levels: number, leaf: string, type = 'Query', operation = 'query { ...F0 }'): string {
  const fragments = Array.from({ length: levels }, (_, i) =>
    i === levels - 1
      ? `fragment F${i} on ${type} { ${leaf} }`
      : `fragment F${i} on ${type} { ${Array(10)
          .fill(`...F${i + 1}`)
          .join(' ')} }`,
  );
  return `${operation} ${fragments.join(' ')}`;
}

describe('the fragment bomb of eight levels (10^7 spreads)', () => {
  it.each([
    ['__typename at the root', fragmentBomb(8, '__typename')],
    ['an object field at the root', fragmentBomb(8, 'viewer { kind }')],
    ['under a field', fragmentBomb(8, 'kind', 'Viewer', 'query { viewer { ...F0 } }')],
    ['inside introspection', fragmentBomb(8, 'name', '__Type', 'query { __schema { queryType { ...F0 } } }')],
  ])('%s: measured in under 100 steps, and refused in validation', (_name, text) => {
    const { shape, shapeSteps, costSteps } = stepsOf(text);
    expect(shapeSteps).toBeLessThan(100);
    expect(costSteps).toBeLessThan(100);
    expect(shape.inlined).toBeGreaterThanOrEqual(10_000_000);
    const messages = validate(schema, parse(text), [createOperationShapeRule(DEFAULT_LIMITS.graphql)]).map(
      (error) => error.message,
    );
    expect(messages).toEqual([INLINED_REFUSAL]);
  });
});
