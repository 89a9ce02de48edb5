// What one GraphQL document may ask for, on both doors (the REST shim's operations go through the same
// Apollo pipeline). Four limits, each refused before anything runs, naming the limit and the value:
// - tokens: the parser itself stops at GRAPHQL_MAX_TOKENS (Apollo's parseOptions.maxTokens), so an
//   oversized document costs no more to refuse than a document of the limit (tokenLimitMessage);
// - depth: fields nested in one another ({ a { b } } is 2; fragments add no level). Introspection adds
//   none: its type references nest deeper than any query of the graph, and its size is counted below;
// - aliases: aliased fields, introspection included, a fragment counted once per spread;
// - cost: the most objects the answer can hold (operationCost.ts), with the request's variables: its
//   plan is made once per document and operation (kept as long as Apollo's document store keeps the
//   document, as the executor keeps its compilation), and only the sizes the variables ask for are
//   counted per request, in didResolveOperation; Apollo caches the validation of a document.
// Each measure is memoised and metered (analysisBudget.ts): its work grows with the document, and a
// document past the budget, or whose fragments inline to too many selections, is refused as too complex.
// Only a request with a credential is measured at all: the door refuses the others once parsed
// (keylessRequests.ts), introspection included (production refuses introspection to everyone).
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import {
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { GRAPHQL_LIMIT_VARIABLES, type GraphQLLimits } from '../../kernel/limitSettings.js';
import type { Context } from '../context.js';
import {
  AnalysisBudgetExceeded,
  AnalysisMeter,
  INLINED_REFUSAL,
  MAX_INLINED_SELECTIONS,
  saturatingAdd,
} from './analysisBudget.js';
import { costWith } from './costPlan.js';
import { compileOperationCost, fragmentsOf, type OperationCostPlan, operationCost } from './operationCost.js';

const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);

interface OperationShape {
  depth: number;
  aliases: number;
  /** Selections with every fragment spread inlined (a spread counts its fragment's whole): what an executor walks. */
  inlined: number;
}

const NOTHING: OperationShape = { depth: 0, aliases: 0, inlined: 0 };

/**
 * Depth, aliases and inlined size of selection sets, each fragment measured once (for each of the
 * two places it can stand: inside introspection or not) and its result counted at every spread, so
 * the work is one step per selection of the document, twice at most.
 */
class ShapeWalk {
  private readonly measured = new Map<string, OperationShape>();
  private readonly walking = new Set<string>();

  constructor(
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly meter: AnalysisMeter,
  ) {}

  /** The shape of an operation's selection set. */
  operation(operation: OperationDefinitionNode): OperationShape {
    return this.of(operation.selectionSet, false);
  }

  private of(set: SelectionSetNode, inIntrospection: boolean): OperationShape {
    let depth = 0;
    let aliases = 0;
    let inlined = 0;
    for (const selection of set.selections) {
      this.meter.step();
      let inner: OperationShape;
      if (selection.kind === Kind.FIELD) {
        const introspection = inIntrospection || INTROSPECTION_FIELDS.has(selection.name.value);
        const below = selection.selectionSet ? this.of(selection.selectionSet, introspection) : NOTHING;
        inner = {
          depth: introspection ? 0 : 1 + below.depth,
          aliases: saturatingAdd(selection.alias ? 1 : 0, below.aliases),
          inlined: saturatingAdd(1, below.inlined),
        };
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = this.of(selection.selectionSet, inIntrospection);
      } else {
        inner = this.fragment(selection.name.value, inIntrospection);
      }
      depth = Math.max(depth, inner.depth);
      aliases = saturatingAdd(aliases, inner.aliases);
      inlined = saturatingAdd(inlined, inner.inlined);
    }
    return { depth, aliases, inlined };
  }

  private fragment(name: string, inIntrospection: boolean): OperationShape {
    const key = `${inIntrospection ? 'i' : 'g'}:${name}`;
    const known = this.measured.get(key);
    if (known) return known;
    const fragment = this.fragments.get(name);
    // An unknown or cyclic fragment is another rule's error; it adds nothing here.
    if (!fragment || this.walking.has(name)) return NOTHING;
    this.walking.add(name);
    const shape = this.of(fragment.selectionSet, inIntrospection);
    this.walking.delete(name);
    this.measured.set(key, shape);
    return shape;
  }
}

/** Depth, aliases and inlined size of one operation; throws AnalysisBudgetExceeded past the meter's budget. */
export function operationShape(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  meter: AnalysisMeter = new AnalysisMeter(),
): OperationShape {
  return new ShapeWalk(fragments, meter).operation(operation);
}

const describeOperation = (operation: OperationDefinitionNode) =>
  operation.name ? `operation ${operation.name.value}` : 'the operation';

/** Refuses an operation deeper or with more aliases than the limits; one error per limit passed. */
export function createOperationShapeRule(limits: Pick<GraphQLLimits, 'maxDepth' | 'maxAliases'>): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    // One walk for the whole document: its operations share the fragments measured and the budget.
    const walk = new ShapeWalk(fragmentsOf(context.getDocument()), new AnalysisMeter());
    return {
      OperationDefinition(operation) {
        const refuse = (message: string) => context.reportError(new GraphQLError(message, { nodes: operation }));
        let shape: OperationShape;
        try {
          shape = walk.operation(operation);
        } catch (error) {
          if (!(error instanceof AnalysisBudgetExceeded)) throw error;
          refuse(error.message);
          return false;
        }
        const { depth, aliases, inlined } = shape;
        const what = describeOperation(operation);
        if (inlined > MAX_INLINED_SELECTIONS) refuse(INLINED_REFUSAL);
        if (depth > limits.maxDepth) {
          refuse(
            `${what} is ${depth} levels deep, more than the limit of ${limits.maxDepth} (${GRAPHQL_LIMIT_VARIABLES.maxDepth})`,
          );
        }
        if (aliases > limits.maxAliases) {
          refuse(
            `${what} uses ${aliases} aliases, more than the limit of ${limits.maxAliases} (${GRAPHQL_LIMIT_VARIABLES.maxAliases})`,
          );
        }
        return false; // measured whole: nothing inside needs visiting
      },
    };
  };
}

// graphql-js 16 words it "more that".
const PARSER_TOKEN_LIMIT = /^Syntax Error: Document contains more tha[nt] (\d+) tokens\. Parsing aborted\.$/;

/** The parser's refusal of a document over GRAPHQL_MAX_TOKENS, said like the other limits; undefined for any other message. */
export function tokenLimitMessage(message: string): string | undefined {
  const limit = PARSER_TOKEN_LIMIT.exec(message)?.[1];
  return (
    limit &&
    `the document has more than ${limit} tokens, the limit (${GRAPHQL_LIMIT_VARIABLES.maxTokens}); parsing stopped there`
  );
}

const refusedBeforeRunning = (message: string, operation: OperationDefinitionNode) =>
  new GraphQLError(message, {
    nodes: operation,
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } },
  });

/**
 * The refusal of an operation costlier than GRAPHQL_MAX_COST, or too complex to measure within the
 * analysis budget (400 GRAPHQL_VALIDATION_FAILED); undefined within both.
 */
export function costRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
  limits: Pick<GraphQLLimits, 'maxCost'>,
  meter: AnalysisMeter = new AnalysisMeter(),
): GraphQLError | undefined {
  let cost: number;
  try {
    cost = operationCost(schema, document, operation, variables, limits.maxCost, meter);
  } catch (error) {
    if (error instanceof AnalysisBudgetExceeded) return refusedBeforeRunning(error.message, operation);
    throw error;
  }
  return refusalOfCost(cost, operation, limits);
}

function refusalOfCost(
  cost: number,
  operation: OperationDefinitionNode,
  limits: Pick<GraphQLLimits, 'maxCost'>,
): GraphQLError | undefined {
  if (cost <= limits.maxCost) return undefined;
  // A cost past counting (saturated, or introspection stopped at the budget) is said as such.
  const estimate = cost >= Number.MAX_SAFE_INTEGER ? 'above the limit' : `of ${cost}, more than the limit`;
  return refusedBeforeRunning(
    `${describeOperation(operation)} has an estimated cost ${estimate} of ${limits.maxCost} (${GRAPHQL_LIMIT_VARIABLES.maxCost})`,
    operation,
  );
}

/** What is kept of an operation's analysis: its cost's plan, or that it is too complex to measure. */
type KeptAnalysis = OperationCostPlan | { readonly kind: 'too complex'; readonly message: string };

function analysisOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  limits: Pick<GraphQLLimits, 'maxCost'>,
): KeptAnalysis {
  try {
    return compileOperationCost(schema, document, operation, limits.maxCost);
  } catch (error) {
    if (error instanceof AnalysisBudgetExceeded) return { kind: 'too complex', message: error.message };
    throw error;
  }
}

/**
 * Per request, once the operation is known: an operation costlier than GRAPHQL_MAX_COST, or too
 * complex to measure, is refused (400 GRAPHQL_VALIDATION_FAILED) before it runs. (A request without
 * a credential never gets here: the door refuses it once parsed, keylessRequests.ts.) Each operation
 * is analysed once: Apollo's document store hands the same document (and so the same operation node)
 * for the same text, and the plans live as long as it keeps them, bounded as the executor's are.
 */
export function graphqlCostPlugin(limits: Pick<GraphQLLimits, 'maxCost'>): ApolloServerPlugin<Context> {
  const analyses = new WeakMap<OperationDefinitionNode, KeptAnalysis>();
  const hooks: GraphQLRequestListener<Context> = {
    async didResolveOperation({ request, document, operation, schema }) {
      if (!operation) return; // Apollo has refused the request already
      let analysis = analyses.get(operation);
      if (!analysis) {
        analysis = analysisOf(schema, document, operation, limits);
        analyses.set(operation, analysis);
      }
      const variables = request.variables ?? {};
      let refusal: GraphQLError | undefined;
      switch (analysis.kind) {
        case 'known':
          refusal = refusalOfCost(analysis.cost, operation, limits);
          break;
        case 'sized':
          refusal = refusalOfCost(costWith(analysis, variables), operation, limits);
          break;
        case 'whole':
          refusal = costRefusal(schema, document, operation, variables, limits);
          break;
        default:
          refusal = refusedBeforeRunning(analysis.message, operation);
      }
      if (refusal) throw refusal;
    },
  };
  return {
    async requestDidStart() {
      return hooks;
    },
  };
}
