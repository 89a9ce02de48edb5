// What one GraphQL document may ask for, on both doors (the REST shim's operations go through the same
// Apollo pipeline). Four limits, each refused before anything runs, naming the limit and the value:
// - tokens: the parser itself stops at GRAPHQL_MAX_TOKENS (Apollo's parseOptions.maxTokens), so an
//   oversized document costs no more to refuse than a document of the limit (tokenLimitMessage);
// - depth: fields nested in one another ({ a { b } } is 2; fragments add no level). Introspection adds
//   none: its type references nest deeper than any query of the graph, and its size is counted below;
// - aliases: aliased fields, introspection included, a fragment counted once per spread;
// - cost: the most objects the answer can hold (operationCost.ts), with the request's variables, so
//   it is measured per request in didResolveOperation; Apollo caches the validation of a document.
// Introspection needs a credential like any other read, outside production too (production refuses it).
import type { ApolloServerPlugin } from '@apollo/server';
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
import type { Context } from '../context.js';
import { AppError, withHttpStatus } from '../errors.js';
import { GRAPHQL_LIMIT_VARIABLES, type GraphQLLimits } from '../limitSettings.js';
import { fragmentsOf, operationCost } from './operationCost.js';

const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);

export interface OperationShape {
  depth: number;
  aliases: number;
}

/** Depth and aliases of a selection set, following fragment spreads (each fragment walked once per spread). */
function shapeOf(
  set: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  walking: Set<string>,
  inIntrospection: boolean,
): OperationShape {
  let depth = 0;
  let aliases = 0;
  for (const selection of set.selections) {
    let inner: OperationShape;
    if (selection.kind === Kind.FIELD) {
      const introspection = inIntrospection || INTROSPECTION_FIELDS.has(selection.name.value);
      const below = selection.selectionSet
        ? shapeOf(selection.selectionSet, fragments, walking, introspection)
        : { depth: 0, aliases: 0 };
      inner = { depth: introspection ? 0 : 1 + below.depth, aliases: (selection.alias ? 1 : 0) + below.aliases };
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = shapeOf(selection.selectionSet, fragments, walking, inIntrospection);
    } else {
      const fragment = fragments.get(selection.name.value);
      // An unknown or cyclic fragment is another rule's error; it adds nothing here.
      if (!fragment || walking.has(fragment.name.value)) continue;
      walking.add(fragment.name.value);
      inner = shapeOf(fragment.selectionSet, fragments, walking, inIntrospection);
      walking.delete(fragment.name.value);
    }
    depth = Math.max(depth, inner.depth);
    aliases += inner.aliases;
  }
  return { depth, aliases };
}

/** Depth and aliases of one operation. */
export function operationShape(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): OperationShape {
  return shapeOf(operation.selectionSet, fragments, new Set(), false);
}

const describeOperation = (operation: OperationDefinitionNode) =>
  operation.name ? `operation ${operation.name.value}` : 'the operation';

/** Refuses an operation deeper or with more aliases than the limits; one error per limit passed. */
export function createOperationShapeRule(limits: Pick<GraphQLLimits, 'maxDepth' | 'maxAliases'>): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = fragmentsOf(context.getDocument());
    return {
      OperationDefinition(operation) {
        const { depth, aliases } = operationShape(operation, fragments);
        const what = describeOperation(operation);
        const refuse = (message: string) => context.reportError(new GraphQLError(message, { nodes: operation }));
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

const selectsIntrospection = (operation: OperationDefinitionNode) =>
  operation.selectionSet.selections.some(
    (selection) => selection.kind === Kind.FIELD && INTROSPECTION_FIELDS.has(selection.name.value),
  );

/** The refusal of an operation costlier than GRAPHQL_MAX_COST (400 GRAPHQL_VALIDATION_FAILED); undefined within it. */
export function costRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
  limits: Pick<GraphQLLimits, 'maxCost'>,
): GraphQLError | undefined {
  const cost = operationCost(schema, document, operation, variables, limits.maxCost);
  if (cost <= limits.maxCost) return undefined;
  // A cost past counting (saturated, or introspection stopped at the budget) is said as such.
  const estimate = cost >= Number.MAX_SAFE_INTEGER ? 'above the limit' : `of ${cost}, more than the limit`;
  return new GraphQLError(
    `${describeOperation(operation)} has an estimated cost ${estimate} of ${limits.maxCost} (${GRAPHQL_LIMIT_VARIABLES.maxCost})`,
    { nodes: operation, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } },
  );
}

/**
 * Per request, once the operation is known: introspection without a valid credential is refused
 * (401, the authentication's own error), and an operation costlier than GRAPHQL_MAX_COST is refused
 * (400 GRAPHQL_VALIDATION_FAILED) before it runs.
 */
export function graphqlCostPlugin(limits: Pick<GraphQLLimits, 'maxCost'>): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation, schema, contextValue }) {
          if (!operation) return; // Apollo has refused the request already
          if (selectsIntrospection(operation) && !contextValue.auth.principal) {
            const failure = contextValue.auth.failure;
            throw withHttpStatus(new AppError(failure.code, `introspection needs a credential: ${failure.message}`));
          }
          const refusal = costRefusal(schema, document, operation, request.variables ?? {}, limits);
          if (refusal) throw refusal;
        },
      };
    },
  };
}
