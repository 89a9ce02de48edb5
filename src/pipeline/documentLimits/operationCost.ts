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
// the document, not with the answer it describes. Measured without variables it is a plan
// (compileOperationCost): the cost with every size a variable asks for left open, so a document seen
// again costs only those sizes and the sums over them (costPlan.ts costWith).
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
import { AnalysisMeter, saturatingAdd } from './analysisBudget.js';
import { type Count, Counts, type Open, type Step, sizeWithin } from './costPlan.js';
import { IntrospectionCount } from './introspectionCost.js';

/** A list whose bound the SDL does not give (a schema test forbids it): counted as long as this. */
const UNDECLARED_LIST_SIZE = 1000;

/**
 * What a selection set costs inside a connection whose list fields are sized `size`: fixed + perItem
 * x size (the size only ever multiplies the sized list fields), so one measure serves every `first`.
 */
interface Affine {
  fixed: Count;
  perItem: Count;
}

const ZERO: Affine = { fixed: 0, perItem: 0 };

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
  readonly counts = new Counts();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly operation: OperationDefinitionNode,
    /** The request's variables; absent: a plan, each size a variable asks for left open. */
    private readonly variables: Readonly<Record<string, unknown>> | undefined,
    /** Introspection stops counting past this: the answer is refused anyway. */
    budget: number,
    private readonly meter: AnalysisMeter,
  ) {
    this.introspection = new IntrospectionCount(schema, fragments, variables ?? {}, meter, budget);
  }

  measure(): Count {
    const root = this.schema.getRootType(this.operation.operation);
    return root ? this.at(this.onObject(this.operation.selectionSet, root, undefined), 0) : 0;
  }

  private at(cost: Affine, size: Count): Count {
    return this.counts.add(cost.fixed, this.counts.multiply(cost.perItem, size));
  }

  /**
   * What a selection set costs on a value of `type`: on an abstract type, its costliest possible type.
   * Inside a connection (sized) the costliest fixed part and the costliest part per item are taken
   * apart, which can only count more; no connection of this graph is abstract, where it is exact.
   */
  private onType(set: SelectionSetNode, type: GraphQLNamedType, sized: readonly string[] | undefined): Affine {
    if (isObjectType(type)) return this.onObject(set, type, sized);
    if (!isAbstractType(type)) return ZERO;
    let fixed: Count = 0;
    let perItem: Count = 0;
    for (const possible of this.schema.getPossibleTypes(type)) {
      this.meter.step();
      const cost = this.onObject(set, possible, sized);
      fixed = this.counts.max(fixed, cost.fixed);
      perItem = this.counts.max(perItem, cost.perItem);
    }
    return { fixed, perItem };
  }

  private onObject(set: SelectionSetNode, type: GraphQLObjectType, sized: readonly string[] | undefined): Affine {
    const key = sized ? `${type.name}:${sized.join(',')}` : type.name;
    let byContext = this.measured.get(set);
    const known = byContext?.get(key);
    if (known) return known;
    let fixed: Count = 0;
    let perItem: Count = 0;
    for (const selection of set.selections) {
      this.meter.step();
      const cost = this.selection(selection, type, sized);
      fixed = this.counts.add(fixed, cost.fixed);
      perItem = this.counts.add(perItem, cost.perItem);
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
      // __type(name: $variable) counts the type the request names: a plan cannot leave that open.
      if (!this.variables && node.arguments?.some((argument) => argument.value.kind === Kind.VARIABLE)) {
        throw new ReadsVariablesWhole();
      }
      return { fixed: saturatingAdd(0, this.introspection.of(node)), perItem: 0 };
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
    const each = this.counts.add(1, this.at(this.onType(node.selectionSet, type, connection), connection ? size : 0));
    // A sized list field of the connection around: as many objects as the connection's size.
    if (isList && !bound && sized?.includes(name)) return { fixed: 0, perItem: each };
    const count = isList ? (bound ? size : UNDECLARED_LIST_SIZE) : 1;
    return { fixed: this.counts.multiply(count, each), perItem: 0 };
  }

  /** The size a bounded field was asked for: its slicing argument within [0, max], else max. */
  private sizeOf(
    node: FieldNode,
    definition: GraphQLField<unknown, unknown>,
    max: number | undefined,
    slicing: string | undefined,
  ): Count {
    if (max === undefined) return 1;
    if (!slicing) return max;
    const given = node.arguments?.find((argument) => argument.name.value === slicing)?.value;
    if (given?.kind === Kind.VARIABLE) {
      const variable = given.name.value;
      // Given (null included: then the list's bound applies), else the variable's default, else the argument's.
      if (this.variables && variable in this.variables) return sizeWithin(this.variables[variable], max);
      const absent = sizeWithin(this.absentValue(variable, definition, slicing), max);
      return this.variables ? absent : this.counts.size(variable, max, absent);
    }
    return sizeWithin(given ? valueFromASTUntyped(given) : this.argumentDefault(definition, slicing), max);
  }

  /** A variable's value when the request does not give it: its default, else the argument's. */
  private absentValue(variable: string, definition: GraphQLField<unknown, unknown>, name: string): unknown {
    const declared = this.operation.variableDefinitions?.find(
      (definition) => definition.variable.name.value === variable,
    );
    return declared?.defaultValue ? valueFromASTUntyped(declared.defaultValue) : this.argumentDefault(definition, name);
  }

  private argumentDefault(definition: GraphQLField<unknown, unknown>, name: string): unknown {
    return definition.args.find((argument) => argument.name === name)?.defaultValue;
  }
}

/** A plan would need the variables for more than list sizes (__type(name: $variable)): measure whole per request. */
class ReadsVariablesWhole extends Error {}

/**
 * An operation's cost with its variables' sizes left open: a known cost, steps over the sizes the
 * request's variables ask for, or (introspection naming its type by a variable) none: measure whole.
 */
export type OperationCostPlan =
  | { readonly kind: 'known'; readonly cost: number }
  | { readonly kind: 'sized'; readonly steps: readonly Step[]; readonly cost: Open }
  | { readonly kind: 'whole' };

/**
 * The plan of `operation`'s cost, for every request's variables: the same walk and the same steps
 * of the meter as a measure with variables (sizes never change the walk), so a document past the
 * budget is past it whatever the variables. Throws AnalysisBudgetExceeded once the meter passes its budget.
 */
export function compileOperationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  budget = Number.MAX_SAFE_INTEGER,
  meter: AnalysisMeter = new AnalysisMeter(),
): OperationCostPlan {
  const walk = new CostMeter(schema, fragmentsOf(document), operation, undefined, budget, meter);
  let cost: Count;
  try {
    cost = walk.measure();
  } catch (error) {
    if (error instanceof ReadsVariablesWhole) return { kind: 'whole' };
    throw error;
  }
  return typeof cost === 'number' ? { kind: 'known', cost } : { kind: 'sized', steps: walk.counts.steps, cost };
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
  // With the variables in hand nothing is left open: every count is known.
  return new CostMeter(schema, fragmentsOf(document), operation, variables, budget, meter).measure() as number;
}
