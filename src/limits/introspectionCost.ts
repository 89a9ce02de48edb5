// What an introspection field (__schema, __type) costs: the objects its answer really holds, counted by
// walking the selection over this schema (the answer is fixed by the schema, so its size is known
// exactly, and a multiplying estimate would refuse Apollo Sandbox's own query). Aliases and fragment
// spreads count every time they repeat a part, so 30 aliases of 30 aliases cost what they would
// answer. The walk stops as soon as the count passes the budget: its work is bounded by the budget.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLDirective,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql';

/** An object of the introspection answer, by its introspection type. */
type Introspected =
  | { kind: '__Schema' }
  | { kind: '__Type'; type: GraphQLType }
  | { kind: '__Field'; field: GraphQLField<unknown, unknown> }
  | { kind: '__InputValue'; value: GraphQLArgument | GraphQLInputField }
  | { kind: '__EnumValue' }
  | { kind: '__Directive'; directive: GraphQLDirective };

class BudgetExceeded extends Error {}

class IntrospectionWalk {
  private count = 0;
  private readonly walking = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly variables: Readonly<Record<string, unknown>>,
    private readonly budget: number,
  ) {}

  root(node: FieldNode): number {
    try {
      if (node.name.value === '__schema') this.visit(node.selectionSet, { kind: '__Schema' });
      else {
        const name = node.arguments?.find((argument) => argument.name.value === 'name')?.value;
        const typeName =
          name?.kind === Kind.VARIABLE ? this.variables[name.name.value] : name && valueFromASTUntyped(name);
        const type = typeof typeName === 'string' ? this.schema.getType(typeName) : undefined;
        if (type) this.visit(node.selectionSet, { kind: '__Type', type });
      }
      return this.count;
    } catch (error) {
      // Past the budget the answer is refused whatever its size: say so without counting on.
      if (error instanceof BudgetExceeded) return Number.POSITIVE_INFINITY;
      throw error;
    }
  }

  /** Counts `object` and what the selection set selects of it. */
  private visit(set: SelectionSetNode | undefined, object: Introspected): void {
    this.count += 1;
    if (this.count > this.budget) throw new BudgetExceeded();
    if (set) this.select(set, object);
  }

  private select(set: SelectionSetNode, object: Introspected): void {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        for (const child of this.children(object, selection.name.value)) this.visit(selection.selectionSet, child);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        this.select(selection.selectionSet, object);
      } else {
        const fragment = this.fragments.get(selection.name.value);
        if (!fragment || this.walking.has(fragment.name.value)) continue;
        this.walking.add(fragment.name.value);
        this.select(fragment.selectionSet, object);
        this.walking.delete(fragment.name.value);
      }
    }
  }

  /** The introspection objects a field of `object` answers with (none for a scalar field). */
  private children(object: Introspected, field: string): Introspected[] {
    const asType = (type: GraphQLType | null | undefined): Introspected[] => (type ? [{ kind: '__Type', type }] : []);
    const asValues = (values: readonly (GraphQLArgument | GraphQLInputField)[]): Introspected[] =>
      values.map((value) => ({ kind: '__InputValue', value }));
    switch (object.kind) {
      case '__Schema':
        if (field === 'types') return Object.values(this.schema.getTypeMap()).map((type) => ({ kind: '__Type', type }));
        if (field === 'queryType') return asType(this.schema.getQueryType());
        if (field === 'mutationType') return asType(this.schema.getMutationType());
        if (field === 'subscriptionType') return asType(this.schema.getSubscriptionType());
        if (field === 'directives')
          return this.schema.getDirectives().map((directive) => ({ kind: '__Directive', directive }));
        return [];
      case '__Type': {
        const type = object.type;
        if (field === 'ofType') return isListType(type) || isNonNullType(type) ? asType(type.ofType) : [];
        const named = isListType(type) || isNonNullType(type) ? undefined : getNamedType(type);
        if (!named) return [];
        if (field === 'fields' && (isObjectType(named) || isInterfaceType(named))) {
          return Object.values(named.getFields()).map((definition) => ({ kind: '__Field', field: definition }));
        }
        if (field === 'interfaces' && (isObjectType(named) || isInterfaceType(named)))
          return named.getInterfaces().flatMap(asType);
        if (field === 'possibleTypes' && isAbstractType(named))
          return this.schema.getPossibleTypes(named).flatMap(asType);
        if (field === 'enumValues' && isEnumType(named)) return named.getValues().map(() => ({ kind: '__EnumValue' }));
        if (field === 'inputFields' && isInputObjectType(named)) return asValues(Object.values(named.getFields()));
        return [];
      }
      case '__Field':
        if (field === 'args') return asValues(object.field.args);
        if (field === 'type') return asType(object.field.type);
        return [];
      case '__InputValue':
        return field === 'type' ? asType(object.value.type) : [];
      case '__Directive':
        return field === 'args' ? asValues(object.directive.args) : [];
      default:
        return [];
    }
  }
}

/** The objects the answer to one introspection field holds; Infinity once past `budget` (the walk stops there). */
export function introspectionCost(
  schema: GraphQLSchema,
  node: FieldNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Readonly<Record<string, unknown>>,
  budget: number,
): number {
  return new IntrospectionWalk(schema, fragments, variables, budget).root(node);
}
