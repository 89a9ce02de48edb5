// The executor of the Apollo pipeline (GRAPHQL_EXECUTOR): graphql-jit compiles each validated document
// once into a function that runs its selection without graphql-js's per-field interpretation, and
// Apollo hands it every query and mutation of both doors through its gateway interface (parse,
// validation, every plugin hook and formatError stay Apollo's). What jit cannot compile, what it
// would answer differently (docs/architecture.md#graphql-execution) and subscriptions run on graphql-js's own
// execute, so every answer is the one graphql-js gives.
import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { MapperKind, mapSchema } from '@graphql-tools/utils';
import {
  BREAK,
  type DocumentNode,
  type ExecutionResult,
  execute,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNullableType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  parse,
  printSchema,
  type SelectionSetNode,
  TypeInfo,
  type ValueNode,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Logger } from 'pino';
import { activeSpan, inActiveSpan, tracingStarted, untraced } from '../kernel/tracing.js';
import { columnOf } from '../modules/columns.js';
import type { Context } from './context.js';

type GatewayInterface = ApolloServerOptionsWithGateway<Context>['gateway'];

/** One execution: what Apollo's gateway executor is given, reduced to what executing needs. */
interface Execution {
  document: DocumentNode;
  /** The operation Apollo resolved from the document and the request's operationName; absent: none matched. */
  operation: OperationDefinitionNode | undefined;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
  contextValue: Context;
}

/** Counts since start: which executor ran (the tests assert jit really did). */
export interface ExecutorStats {
  /** Documents (per operation name) compiled by graphql-jit. */
  compiledDocuments: number;
  /** Documents (per operation name) left to graphql-js: jit could not compile them, or would answer them differently. */
  graphqlJsDocuments: number;
  jitExecutions: number;
  graphqlJsExecutions: number;
}

interface JitExecutor {
  execute(execution: Execution): Promise<ExecutionResult> | ExecutionResult;
  stats: ExecutorStats;
}

/** A document's plan: its compiled query, or graphql-js when jit could not compile it. */
type Plan = CompiledQuery | 'graphql-js';

// The graphql instrumentation's record of an execution, on the context: its resolver wrappers (which it
// installed on the schema's fields) open their spans under the span it names (tracing on only).
const OTEL_GRAPHQL_DATA = Symbol.for('opentelemetry.graphql_data');

// A client's operation name in a log line is cut to this (the error messages cut theirs to the same).
const LOGGED_NAME_LENGTH = 64;

export function createJitExecutor(schema: GraphQLSchema, logger: Logger): JitExecutor {
  const stats: ExecutorStats = {
    compiledDocuments: 0,
    graphqlJsDocuments: 0,
    jitExecutions: 0,
    graphqlJsExecutions: 0,
  };
  // Apollo's document store hands the same DocumentNode for the same text: each is compiled once.
  const plans = new WeakMap<DocumentNode, Map<string, Plan>>();
  // Derived at the first compilation, once the resolvers are final (tracing wraps them at load()).
  let compiledSchema: GraphQLSchema | undefined;

  const compile = (
    document: DocumentNode,
    operation: OperationDefinitionNode,
    operationName: string | undefined,
  ): Plan => {
    if (answeredDifferentlyByJit(schema, document, operation)) {
      stats.graphqlJsDocuments++;
      return 'graphql-js';
    }
    let refusal: unknown;
    try {
      // jit walks every fragment spread again for each field it collects (no memory of fragments): the
      // shape rule has refused any document that inlines to more than MAX_INLINED_SELECTIONS.
      compiledSchema ??= columnsInlined(schema);
      const compiled = compileQuery(compiledSchema, document, operationName);
      if (isCompiledQuery(compiled)) {
        stats.compiledDocuments++;
        return compiled;
      }
      refusal = compiled.errors?.map((error) => error.message);
    } catch (error) {
      refusal = error;
    }
    stats.graphqlJsDocuments++;
    logger.warn(
      { operationName: operationName?.slice(0, LOGGED_NAME_LENGTH), refusal },
      'graphql-jit could not compile a document; it runs on graphql-js',
    );
    return 'graphql-js';
  };

  const planOf = (
    document: DocumentNode,
    operation: OperationDefinitionNode,
    operationName: string | undefined,
  ): Plan => {
    let byName = plans.get(document);
    if (!byName) {
      byName = new Map();
      plans.set(document, byName);
    }
    const key = operationName ?? '';
    let plan = byName.get(key);
    if (plan === undefined) {
      plan = compile(document, operation, operationName);
      byName.set(key, plan);
    }
    return plan;
  };

  const onGraphqlJs = (execution: Execution) => {
    stats.graphqlJsExecutions++;
    return execute({
      schema,
      document: execution.document,
      contextValue: execution.contextValue,
      variableValues: execution.variables,
      operationName: execution.operationName,
    });
  };

  const onJit = (compiled: CompiledQuery, execution: Execution): Promise<ExecutionResult> | ExecutionResult => {
    stats.jitExecutions++;
    const result = compiled.query(undefined, execution.contextValue, execution.variables);
    return isPromiseLike(result)
      ? result.then((settled) => asGraphqlJsResult(settled, execution))
      : asGraphqlJsResult(result, execution);
  };

  const run = (execution: Execution): Promise<ExecutionResult> | ExecutionResult => {
    const { operation } = execution;
    // No operation matched (graphql-js says why), and subscriptions (their door is graphql-ws's).
    if (!operation || operation.operation === 'subscription') return onGraphqlJs(execution);
    const plan = planOf(execution.document, operation, execution.operationName);
    if (plan === 'graphql-js') return onGraphqlJs(execution);
    // Tracing on: the operation's span is ours (graphql-js's execute, which the instrumentation wraps, is not called).
    if (!tracingStarted()) return onJit(plan, execution);
    return inActiveSpan(spanNameOf(operation), tracedAttributes(operation), () => onJit(plan, tracedBy(execution)));
  };

  // A jit result with no data is a request error (its variables refused, before any resolver ran):
  // graphql-js says it, in its own words, which Apollo knows as BAD_USER_INPUT.
  function asGraphqlJsResult(
    result: ExecutionResult,
    execution: Execution,
  ): Promise<ExecutionResult> | ExecutionResult {
    if (!('data' in result)) return onGraphqlJs(execution);
    if (!result.errors?.length) return { data: result.data };
    return { errors: result.errors.map(asGraphqlJsError), data: result.data };
  }

  return { stats, execute: run };
}

/**
 * The schema jit compiles: `schema` with every field whose resolver is a plain column read
 * (modules/columns.ts) left without one and named as the column, so that jit, which reads an
 * unresolved field of the parent by its field definition's name, compiles it as `parent.<column>`
 * (its answer still goes through the scalar's serialization). graphql-js, and validation, keep
 * `schema` as it is; a wrapped resolver (tracing's, the list counter's) carries no mark and is called.
 */
export function columnsInlined(schema: GraphQLSchema): GraphQLSchema {
  const inlined: Array<{ type: string; field: string; column: string }> = [];
  const derived = mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (config, field, type) => {
      const column = columnOf(config.resolve);
      if (column === undefined) return config;
      inlined.push({ type, field, column });
      return { ...config, resolve: undefined };
    },
  });
  for (const { type, field, column } of inlined) {
    (derived.getType(type) as GraphQLObjectType).getFields()[field]!.name = column;
  }
  return derived;
}

/**
 * Whether graphql-jit would run `operation` otherwise than graphql-js does:
 * - introspection (`__schema`, `__type`): jit answers it from the schema it compiles, whose column
 *   fields are named as their columns (columnsInlined), where the graph's names must be answered;
 * - a mutation of several root fields: once one fails whose type is non-null, graphql-js runs none of
 *   the rest (the data is null), where jit would still run them, and write;
 * - a variable inside a literal of a custom scalar (the JSON scalar: `notification: { amount: $a }`):
 *   jit reads the literal once, at compilation, without the variables; graphql-js reads it with them.
 */
function answeredDifferentlyByJit(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): boolean {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const rootFields = rootFieldNames(operation.selectionSet, fragments, new Set());
  if (rootFields.some((name) => INTROSPECTION_ROOT_FIELDS.has(name))) return true;
  if (operation.operation === 'mutation' && rootFields.length > 1) return true;
  return hasVariableInScalarLiteral(schema, document);
}

/** The root fields that answer from the schema itself (`__typename` answers a type's name, which no mapping renames). */
const INTROSPECTION_ROOT_FIELDS = new Set(['__schema', '__type']);

/** The names of the fields an operation selects at its root, through its fragments (each fragment once). */
function rootFieldNames(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  spread: Set<string>,
): string[] {
  const names: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) names.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      names.push(...rootFieldNames(selection.selectionSet, fragments, spread));
    else if (!spread.has(selection.name.value)) {
      spread.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) names.push(...rootFieldNames(fragment.selectionSet, fragments, spread));
    }
  }
  return names;
}

function hasVariableInScalarLiteral(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  const check = (type: unknown, node: ValueNode) => {
    if (
      type &&
      isScalarType(getNullableType(type as Parameters<typeof getNullableType>[0])) &&
      containsVariable(node)
    ) {
      found = true;
      return BREAK;
    }
    return undefined;
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      // An object's position is the input type; a list's, its parent's (TypeInfo has entered the items).
      ObjectValue: (node) => check(typeInfo.getInputType(), node),
      ListValue: (node) => check(typeInfo.getParentInputType(), node),
    }),
  );
  return found;
}

function containsVariable(node: ValueNode): boolean {
  let found = false;
  visit(node, {
    Variable: () => {
      found = true;
      return BREAK;
    },
  });
  return found;
}

function isPromiseLike<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown })?.then === 'function';
}

/**
 * graphql-jit's field error as graphql-js's locatedError makes it: its message, locations and path,
 * the original error, and the original's extensions (or none): Apollo reads `extensions.code` of
 * every error and formatError the original underneath.
 */
function asGraphqlJsError(error: GraphQLError): GraphQLError {
  const original = error.originalError;
  const extensions =
    error.extensions ?? (original as { extensions?: GraphQLError['extensions'] } | undefined)?.extensions;
  const located = new GraphQLError(error.message, { path: error.path, originalError: original, extensions });
  // No AST nodes come with jit's error: its locations, computed from them, are carried over as they are.
  (located as { locations: GraphQLError['locations'] }).locations = error.locations;
  if (original?.stack) located.stack = original.stack;
  return located;
}

/** The span of an execution, named as the graphql instrumentation names its own. */
function spanNameOf(operation: OperationDefinitionNode): string {
  return operation.name ? `${operation.operation} ${operation.name.value}` : operation.operation;
}

function tracedAttributes(operation: OperationDefinitionNode) {
  return {
    'graphql.executor': 'jit',
    'graphql.operation.type': operation.operation,
    ...(operation.name ? { 'graphql.operation.name': operation.name.value } : {}),
  };
}

/** The execution with the instrumentation's record on its context: resolver spans nest under the active span. */
function tracedBy(execution: Execution): Execution {
  (execution.contextValue as unknown as Record<symbol, unknown>)[OTEL_GRAPHQL_DATA] = {
    source: execution.document,
    span: activeSpan(),
    fields: {},
  };
  return execution;
}

/**
 * Apollo's gateway for `schema`: it loads once (no schema updates), and its executor runs every
 * operation Apollo has parsed, validated and resolved, after the plugins' executionDidStart.
 */
export function jitGateway(schema: GraphQLSchema, executor: JitExecutor): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => {};
    },
    async load() {
      // Tracing on: the graphql instrumentation wraps the schema's resolvers (for their spans) on the
      // first graphql-js execute; it must happen before jit compiles, which takes the resolvers as they are.
      if (tracingStarted()) untraced(() => execute({ schema, document: parse('{ __typename }') }));
      return {
        executor: async (requestContext) =>
          executor.execute({
            document: requestContext.document,
            operation: requestContext.operation ?? undefined,
            operationName: requestContext.request.operationName,
            variables: requestContext.request.variables,
            contextValue: requestContext.context as Context,
          }),
      };
    },
    async stop() {},
  };
}
