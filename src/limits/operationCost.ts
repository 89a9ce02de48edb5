// The cost of an operation: the most objects its answer can hold, counted before anything runs, with
// the request's variables (a `first` given as a variable counts its value). The rule:
// - every field whose type is an object, interface or union costs 1 per object it can return; scalars,
//   enums and __typename cost nothing (they only add bytes to the objects that carry them);
// - a list's size is its @listSize bound (src/listSize.ts), or fewer when its slicing argument
//   (`first`) asks for fewer: a literal, the request's variable, the variable's default, or the
//   argument's own default; a connection's list fields (nodes, edges) have the connection's size;
// - nesting multiplies; every alias and every fragment spread is counted (aliases are not free);
// - on an interface or union, the costliest of its possible types counts (an object is one type);
// - introspection (__schema, __type) counts the objects its answer really holds (introspectionCost.ts).
// With the default budget (GRAPHQL_MAX_COST 50,000) one full page of 5,000 transactions with up to nine
// linked objects each fits, and so does the legacy list's own page (7 each); a second full page in the
// same document does not, nor do many thin ones (30 aliased pages of ids cost 150,000).
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql';
import { listSizeOf } from '../listSize.js';
import { introspectionCost } from './introspectionCost.js';

/** A list whose bound the SDL does not give (a schema test forbids it): counted as long as this. */
const UNDECLARED_LIST_SIZE = 1000;

const add = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a + b);
const multiply = (a: number, b: number) => Math.min(Number.MAX_SAFE_INTEGER, a * b);

/** The connection a selection set belongs to: its list fields' size. */
interface Sized {
  fields: readonly string[];
  size: number;
}

export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

class CostMeter {
  private readonly walking = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly operation: OperationDefinitionNode,
    private readonly variables: Readonly<Record<string, unknown>>,
    /** Introspection stops counting past this: the answer is refused anyway. */
    private readonly budget: number,
  ) {}

  measure(): number {
    const root = this.schema.getRootType(this.operation.operation);
    return root ? this.onObject(this.operation.selectionSet, root, undefined) : 0;
  }

  /** What a selection set costs on a value of `type`: on an abstract type, its costliest possible type. */
  private onType(set: SelectionSetNode, type: GraphQLNamedType, sized: Sized | undefined): number {
    if (isObjectType(type)) return this.onObject(set, type, sized);
    if (!isAbstractType(type)) return 0;
    let highest = 0;
    for (const possible of this.schema.getPossibleTypes(type))
      highest = Math.max(highest, this.onObject(set, possible, sized));
    return highest;
  }

  private onObject(set: SelectionSetNode, type: GraphQLObjectType, sized: Sized | undefined): number {
    let cost = 0;
    for (const selection of set.selections) cost = add(cost, this.selection(selection, type, sized));
    return cost;
  }

  private selection(selection: SelectionNode, type: GraphQLObjectType, sized: Sized | undefined): number {
    if (selection.kind === Kind.FIELD) return this.field(selection, type, sized);
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      return this.applies(selection.typeCondition?.name.value, type)
        ? this.onObject(selection.selectionSet, type, sized)
        : 0;
    }
    const fragment = this.fragments.get(selection.name.value);
    // An unknown or cyclic fragment is a validation error; it adds nothing here.
    if (!fragment || this.walking.has(fragment.name.value) || !this.applies(fragment.typeCondition.name.value, type))
      return 0;
    this.walking.add(fragment.name.value);
    const cost = this.onObject(fragment.selectionSet, type, sized);
    this.walking.delete(fragment.name.value);
    return cost;
  }

  /** Whether a fragment on `condition` applies to an object of `type`. */
  private applies(condition: string | undefined, type: GraphQLObjectType): boolean {
    if (condition === undefined || condition === type.name) return true;
    const conditionType = this.schema.getType(condition);
    return conditionType !== undefined && isAbstractType(conditionType) && this.schema.isSubType(conditionType, type);
  }

  private field(node: FieldNode, parent: GraphQLObjectType, sized: Sized | undefined): number {
    const name = node.name.value;
    if (name === '__schema' || name === '__type')
      return introspectionCost(this.schema, node, this.fragments, this.variables, this.budget);
    const definition = parent.getFields()[name];
    if (!definition || !node.selectionSet) return 0;
    const type = getNamedType(definition.type);
    if (!isCompositeType(type)) return 0;
    const bound = listSizeOf(this.schema, parent.name, name);
    const size = this.sizeOf(node, definition, bound?.max, bound?.slicingArgument);
    const isList = isListType(getNullableType(definition.type));
    // A connection (a single object with sized list fields) hands its size down; a list is that many objects.
    const inner: Sized | undefined =
      bound && !isList && bound.sizedFields.length ? { fields: bound.sizedFields, size } : undefined;
    const count = isList ? (bound ? size : sized?.fields.includes(name) ? sized.size : UNDECLARED_LIST_SIZE) : 1;
    return multiply(count, add(1, this.onType(node.selectionSet, type, inner)));
  }

  /** The size a bounded field was asked for: its slicing argument within [0, max], else max. */
  private sizeOf(
    node: FieldNode,
    definition: GraphQLField<unknown, unknown>,
    max: number | undefined,
    slicing: string | undefined,
  ): number {
    if (max === undefined) return 1;
    if (!slicing) return max;
    const asked = this.argumentValue(node, definition, slicing);
    return typeof asked === 'number' && Number.isInteger(asked) ? Math.min(max, Math.max(0, asked)) : max;
  }

  /** An argument's value as the request gives it: literal, variable (or its default), or the argument's default. */
  private argumentValue(node: FieldNode, definition: GraphQLField<unknown, unknown>, name: string): unknown {
    const given = node.arguments?.find((argument) => argument.name.value === name)?.value;
    if (given?.kind === Kind.VARIABLE) {
      const variable = given.name.value;
      // Given (null included: then the list's bound applies), else the variable's default, else the argument's.
      if (variable in this.variables) return this.variables[variable];
      const declared = this.operation.variableDefinitions?.find(
        (definition) => definition.variable.name.value === variable,
      );
      if (declared?.defaultValue) return valueFromASTUntyped(declared.defaultValue);
    } else if (given) {
      return valueFromASTUntyped(given);
    }
    return definition.args.find((argument) => argument.name === name)?.defaultValue;
  }
}

/** The most objects the answer to `operation` can hold, with these variables; past `budget` introspection stops counting. */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> = {},
  budget = Number.MAX_SAFE_INTEGER,
): number {
  return new CostMeter(schema, fragmentsOf(document), operation, variables, budget).measure();
}
