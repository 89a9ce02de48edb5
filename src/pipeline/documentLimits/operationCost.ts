// The cost of an operation: the most objects its answer can hold, counted before anything runs, with
// the request's variables (a `first` given as a variable counts its value). The rule:
// - every field whose type is an object, interface or union costs 1 per object it can return; scalars,
//   enums and __typename cost nothing (they only add bytes to the objects that carry them);
// - a list's size is its @listSize bound (src/kernel/listSize.ts), or fewer when its slicing argument
//   (`first`) asks for fewer: a literal, the request's variable, the variable's default, or the
//   argument's own default; a connection's list fields (nodes, edges) have the connection's size;
// - nesting multiplies; every alias and every fragment spread is counted (aliases are not free);
// - on an interface or union, the costliest of its possible types counts (an object is one type);
// - introspection (__schema, __type) counts the objects its answer really holds (introspectionCost.ts).
// With the default budget (GRAPHQL_MAX_COST 50,000) one full page of 5,000 transactions with up to nine
// linked objects each fits, and so does the legacy list's own page (7 each); a second full page in the
// same document does not, nor do many thin ones (30 aliased pages of ids cost 150,000).
// The measure is memoised (CostMeter) and its steps budgeted (analysisBudget.ts): its work grows with
// the document, not with the answer it describes.
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
import { listSizeOf } from '../../kernel/listSize.js';
import { AnalysisMeter, saturatingAdd, saturatingMultiply } from './analysisBudget.js';
import { IntrospectionCount } from './introspectionCost.js';

/** A list whose bound the SDL does not give (a schema test forbids it): counted as long as this. */
const UNDECLARED_LIST_SIZE = 1000;

const add = saturatingAdd;
const multiply = saturatingMultiply;

/**
 * What a selection set costs inside a connection whose list fields are sized `size`: fixed + perItem
 * x size (the size only ever multiplies the sized list fields), so one measure serves every `first`.
 */
interface Affine {
  fixed: number;
  perItem: number;
}

const ZERO: Affine = { fixed: 0, perItem: 0 };
const at = (cost: Affine, size: number) => add(cost.fixed, multiply(cost.perItem, size));

export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/**
 * Each selection set is measured once per object type and connection (its sized list fields, or
 * none) it is met in, and the result reused at every other place it is met (a fragment's spreads,
 * an interface's possible types): one step per selection of each such measure.
 */
class CostMeter {
  private readonly walking = new Set<string>();
  private readonly measured = new Map<SelectionSetNode, Map<string, Affine>>();
  private readonly introspection: IntrospectionCount;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly operation: OperationDefinitionNode,
    private readonly variables: Readonly<Record<string, unknown>>,
    /** Introspection stops counting past this: the answer is refused anyway. */
    budget: number,
    private readonly meter: AnalysisMeter,
  ) {
    this.introspection = new IntrospectionCount(schema, fragments, variables, meter, budget);
  }

  measure(): number {
    const root = this.schema.getRootType(this.operation.operation);
    return root ? at(this.onObject(this.operation.selectionSet, root, undefined), 0) : 0;
  }

  /**
   * What a selection set costs on a value of `type`: on an abstract type, its costliest possible type.
   * Inside a connection (sized) the costliest fixed part and the costliest part per item are taken
   * apart, which can only count more; no connection of this graph is abstract, where it is exact.
   */
  private onType(set: SelectionSetNode, type: GraphQLNamedType, sized: readonly string[] | undefined): Affine {
    if (isObjectType(type)) return this.onObject(set, type, sized);
    if (!isAbstractType(type)) return ZERO;
    let fixed = 0;
    let perItem = 0;
    for (const possible of this.schema.getPossibleTypes(type)) {
      this.meter.step();
      const cost = this.onObject(set, possible, sized);
      fixed = Math.max(fixed, cost.fixed);
      perItem = Math.max(perItem, cost.perItem);
    }
    return { fixed, perItem };
  }

  private onObject(set: SelectionSetNode, type: GraphQLObjectType, sized: readonly string[] | undefined): Affine {
    const key = sized ? `${type.name}:${sized.join(',')}` : type.name;
    let byContext = this.measured.get(set);
    const known = byContext?.get(key);
    if (known) return known;
    let fixed = 0;
    let perItem = 0;
    for (const selection of set.selections) {
      this.meter.step();
      const cost = this.selection(selection, type, sized);
      fixed = add(fixed, cost.fixed);
      perItem = add(perItem, cost.perItem);
    }
    const cost = { fixed, perItem };
    if (!byContext) {
      byContext = new Map();
      this.measured.set(set, byContext);
    }
    byContext.set(key, cost);
    return cost;
  }

  private selection(selection: SelectionNode, type: GraphQLObjectType, sized: readonly string[] | undefined): Affine {
    if (selection.kind === Kind.FIELD) return this.field(selection, type, sized);
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      return this.applies(selection.typeCondition?.name.value, type)
        ? this.onObject(selection.selectionSet, type, sized)
        : ZERO;
    }
    const fragment = this.fragments.get(selection.name.value);
    // An unknown or cyclic fragment is a validation error; it adds nothing here.
    if (!fragment || this.walking.has(fragment.name.value) || !this.applies(fragment.typeCondition.name.value, type))
      return ZERO;
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

  private field(node: FieldNode, parent: GraphQLObjectType, sized: readonly string[] | undefined): Affine {
    const name = node.name.value;
    if (name === '__schema' || name === '__type') {
      return { fixed: add(0, this.introspection.of(node)), perItem: 0 };
    }
    const definition = parent.getFields()[name];
    if (!definition || !node.selectionSet) return ZERO;
    const type = getNamedType(definition.type);
    if (!isCompositeType(type)) return ZERO;
    const bound = listSizeOf(this.schema, parent.name, name);
    const size = this.sizeOf(node, definition, bound?.max, bound?.slicingArgument);
    const isList = isListType(getNullableType(definition.type));
    // A connection (a single object with sized list fields) hands its size down; a list is that many objects.
    const connection = bound && !isList && bound.sizedFields.length ? bound.sizedFields : undefined;
    const each = add(1, at(this.onType(node.selectionSet, type, connection), connection ? size : 0));
    // A sized list field of the connection around: as many objects as the connection's size.
    if (isList && !bound && sized?.includes(name)) return { fixed: 0, perItem: each };
    const count = isList ? (bound ? size : UNDECLARED_LIST_SIZE) : 1;
    return { fixed: multiply(count, each), perItem: 0 };
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

/**
 * The most objects the answer to `operation` can hold, with these variables; past `budget`
 * introspection stops counting. Throws AnalysisBudgetExceeded once the meter passes its budget.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> = {},
  budget = Number.MAX_SAFE_INTEGER,
  meter: AnalysisMeter = new AnalysisMeter(),
): number {
  return new CostMeter(schema, fragmentsOf(document), operation, variables, budget, meter).measure();
}
