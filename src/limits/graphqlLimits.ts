// What one GraphQL document may ask for, checked as validation rules before anything runs, on both
// doors (the REST shim's operations go through the same Apollo pipeline). Measures, per operation,
// following fragment spreads:
// - depth: fields nested in one another ({ a { b } } is 2); inline fragments and spreads add none.
// - aliases: aliased fields (a fragment counts once per spread).
// - cost, a static estimate: every field costs 1 (__typename 0), plus what it selects times its size.
//   A field returning a list has size `first` when it has that argument, else the `first` of the
//   connection field right above it (transactions(first: 5) { nodes }), else 10. A `first` given as a
//   variable counts its default, else 10. Other fields have size 1. Nesting multiplies; the sum
//   saturates at Number.MAX_SAFE_INTEGER. Inline fragments on different types are all added (an upper bound).
// - tokens: the lexical tokens of the whole document (graphql's Lexer; comments are not tokens).
// Introspection (__schema, __type) is neither deep nor costly here: outside production, Apollo
// Sandbox's introspection query must work; in production Apollo refuses introspection anyway.
import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  print,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { GRAPHQL_LIMIT_VARIABLES, type GraphQLLimits } from './settings.js';

/** The size of a list whose length the document does not say. */
export const DEFAULT_LIST_SIZE = 10;

export interface OperationMeasure {
  depth: number;
  aliases: number;
  cost: number;
}

const NOTHING: OperationMeasure = { depth: 0, aliases: 0, cost: 0 };
const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);

const addCost = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a + b);
const mulCost = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a * b);

/** Measures one operation's selections; fragment measures are kept per size, so a fragment spread many times is walked once. */
class OperationMeter {
  private readonly fragmentMeasures = new Map<string, OperationMeasure>();
  private readonly walking = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly operation: OperationDefinitionNode,
  ) {}

  measure(): OperationMeasure {
    const root = this.schema.getRootType(this.operation.operation) ?? undefined;
    return this.selectionSet(this.operation.selectionSet, root, undefined);
  }

  /** `size`: the `first` of the connection field this selection set belongs to, for its list fields. */
  private selectionSet(set: SelectionSetNode, parent: GraphQLNamedType | undefined, size: number | undefined): OperationMeasure {
    let depth = 0;
    let aliases = 0;
    let cost = 0;
    for (const selection of set.selections) {
      let inner: OperationMeasure;
      if (selection.kind === Kind.FIELD) {
        inner = this.field(selection, parent, size);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
        inner = this.selectionSet(selection.selectionSet, type ?? undefined, size);
      } else {
        inner = this.fragment(selection.name.value, size);
      }
      depth = Math.max(depth, inner.depth);
      aliases += inner.aliases;
      cost = addCost(cost, inner.cost);
    }
    return { depth, aliases, cost };
  }

  private field(field: FieldNode, parent: GraphQLNamedType | undefined, size: number | undefined): OperationMeasure {
    const aliases = field.alias ? 1 : 0;
    const name = field.name.value;
    if (name === '__typename' || INTROSPECTION_FIELDS.has(name)) return { depth: 1, aliases, cost: 0 };
    const definition = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[name] : undefined;
    const returnsList = definition ? isListType(getNullableType(definition.type)) : false;
    const first = this.firstArgument(field);
    const selected = field.selectionSet
      ? this.selectionSet(field.selectionSet, definition ? getNamedType(definition.type) : undefined, returnsList ? undefined : first)
      : NOTHING;
    const times = returnsList ? (first ?? size ?? DEFAULT_LIST_SIZE) : 1;
    return { depth: 1 + selected.depth, aliases: aliases + selected.aliases, cost: addCost(1, mulCost(times, selected.cost)) };
  }

  private fragment(name: string, size: number | undefined): OperationMeasure {
    const key = `${name}/${size ?? ''}`;
    const known = this.fragmentMeasures.get(key);
    if (known) return known;
    const definition = this.fragments.get(name);
    // An unknown or cyclic fragment is another rule's error; it adds nothing here.
    if (!definition || this.walking.has(name)) return NOTHING;
    this.walking.add(name);
    const measure = this.selectionSet(definition.selectionSet, this.schema.getType(definition.typeCondition.name.value) ?? undefined, size);
    this.walking.delete(name);
    this.fragmentMeasures.set(key, measure);
    return measure;
  }

  /** A field's `first` argument when the document fixes it: a literal, or a variable's default. */
  private firstArgument(field: FieldNode): number | undefined {
    const value = field.arguments?.find((argument) => argument.name.value === 'first')?.value;
    let literal = value;
    if (value?.kind === Kind.VARIABLE) {
      literal = this.operation.variableDefinitions?.find((definition) => definition.variable.name.value === value.name.value)?.defaultValue;
    }
    return literal?.kind === Kind.INT ? Math.max(0, Number(literal.value)) : undefined;
  }
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/** Depth, aliases and estimated cost of one operation of `document`. */
export function measureOperation(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): OperationMeasure {
  return new OperationMeter(schema, fragmentsOf(document), operation).measure();
}

/** The number of lexical tokens of the document's source text. */
export function countTokens(document: DocumentNode): number {
  const lexer = new Lexer(document.loc?.source ?? new Source(print(document)));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
}

/** Every measure of a document, its operations' highest. */
export function measureDocument(schema: GraphQLSchema, document: DocumentNode): OperationMeasure & { tokens: number } {
  const fragments = fragmentsOf(document);
  const measure = { depth: 0, aliases: 0, cost: 0, tokens: countTokens(document) };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const operation = new OperationMeter(schema, fragments, definition).measure();
    measure.depth = Math.max(measure.depth, operation.depth);
    measure.aliases = Math.max(measure.aliases, operation.aliases);
    measure.cost = Math.max(measure.cost, operation.cost);
  }
  return measure;
}

const describeOperation = (operation: OperationDefinitionNode) => (operation.name ? `operation ${operation.name.value}` : 'the operation');

/** Refuses a document of more than `maxTokens` tokens. */
export function createMaxTokensRule(maxTokens: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    Document(document) {
      let tokens: number;
      try {
        tokens = countTokens(document);
      } catch {
        return; // not lexable: the parser already said so
      }
      if (tokens > maxTokens) {
        context.reportError(
          new GraphQLError(`the document has ${tokens} tokens, more than the limit of ${maxTokens} (${GRAPHQL_LIMIT_VARIABLES.maxTokens})`),
        );
      }
    },
  });
}

/** Refuses an operation deeper, with more aliases, or costlier than the limits; one error per limit passed. */
export function createOperationLimitsRule(limits: Omit<GraphQLLimits, 'maxTokens'>): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = fragmentsOf(context.getDocument());
    return {
      OperationDefinition(operation) {
        const { depth, aliases, cost } = new OperationMeter(context.getSchema(), fragments, operation).measure();
        const what = describeOperation(operation);
        const refuse = (message: string) => context.reportError(new GraphQLError(message, { nodes: operation }));
        if (depth > limits.maxDepth) {
          refuse(`${what} is ${depth} levels deep, more than the limit of ${limits.maxDepth} (${GRAPHQL_LIMIT_VARIABLES.maxDepth})`);
        }
        if (aliases > limits.maxAliases) {
          refuse(`${what} uses ${aliases} aliases, more than the limit of ${limits.maxAliases} (${GRAPHQL_LIMIT_VARIABLES.maxAliases})`);
        }
        if (cost > limits.maxCost) {
          refuse(`${what} has an estimated cost of ${cost}, more than the limit of ${limits.maxCost} (${GRAPHQL_LIMIT_VARIABLES.maxCost})`);
        }
        return false; // measured whole: nothing inside needs visiting
      },
    };
  };
}

/** The validation rules for Apollo's `validationRules`. */
export function graphqlLimitRules(limits: GraphQLLimits): ValidationRule[] {
  return [createMaxTokensRule(limits.maxTokens), createOperationLimitsRule(limits)];
}
