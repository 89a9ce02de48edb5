// What an introspection field (__schema, __type) costs: the objects its answer really holds, counted by
// walking the selection over this schema (the answer is fixed by the schema, so its size is known
// exactly, and a multiplying estimate would refuse Apollo Sandbox's own query). Aliases and fragment
// spreads count every time they repeat a part, so 30 aliases of 30 aliases cost what they would
// answer. What a selection set selects of one object of the schema (a type, a field, an argument) is
// counted once and reused wherever they meet again (a fragment's spreads, a type named in many
// places), so the work is bounded by the document's selection sets times the schema's objects, and
// metered by the analysis budget (analysisBudget.ts). Past `budget` objects the count is Infinity.
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
import { type AnalysisMeter, saturatingAdd } from './analysisBudget.js';

/** An object of the introspection answer, by its introspection type. */
type Introspected =
  | { kind: '__Schema' }
  | { kind: '__Type'; type: GraphQLType }
  | { kind: '__Field'; field: GraphQLField<unknown, unknown> }
  | { kind: '__InputValue'; value: GraphQLArgument | GraphQLInputField }
  | { kind: '__EnumValue' }
  | { kind: '__Directive'; directive: GraphQLDirective };

/** The schema's own object behind an introspected one: what a selection set's count is remembered by. */
const ENUM_VALUE = { kind: '__EnumValue' } as const;
function identityOf(object: Introspected, schema: GraphQLSchema): object {
  switch (object.kind) {
    case '__Schema':
      return schema;
    case '__Type':
      return object.type;
    case '__Field':
      return object.field;
    case '__InputValue':
      return object.value;
    case '__Directive':
      return object.directive;
    default:
      return ENUM_VALUE; // an enum value has only scalar fields: every one answers alike
  }
}

class CountPastBudget extends Error {}

/** The introspection fields of one operation, counted with one memory (aliases of __schema share it). */
export class IntrospectionCount {
  private readonly walking = new Set<string>();
  private readonly counted = new Map<SelectionSetNode, Map<object, number>>();
  private readonly built = new Map<object, Map<string, readonly Introspected[]>>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly variables: Readonly<Record<string, unknown>>,
    private readonly meter: AnalysisMeter,
    /** Past this many objects the answer is refused whatever its size: counting stops. */
    private readonly budget: number,
  ) {}

  /** The objects the answer to one introspection field holds; Infinity past the budget. */
  of(node: FieldNode): number {
    try {
      return this.root(node);
    } catch (error) {
      if (error instanceof CountPastBudget) return Number.POSITIVE_INFINITY;
      throw error;
    }
  }

  private root(node: FieldNode): number {
    if (node.name.value === '__schema') return this.visit(node.selectionSet, { kind: '__Schema' });
    const name = node.arguments?.find((argument) => argument.name.value === 'name')?.value;
    const typeName = name?.kind === Kind.VARIABLE ? this.variables[name.name.value] : name && valueFromASTUntyped(name);
    const type = typeof typeName === 'string' ? this.schema.getType(typeName) : undefined;
    return type ? this.visit(node.selectionSet, { kind: '__Type', type }) : 0;
  }

  /** `count` and `objects` more; past the budget the count stops (any part past it is the whole past it). */
  private more(count: number, objects: number): number {
    const sum = saturatingAdd(count, objects);
    if (sum > this.budget) throw new CountPastBudget();
    return sum;
  }

  /** `object` and what the selection set selects of it. */
  private visit(set: SelectionSetNode | undefined, object: Introspected): number {
    return set ? saturatingAdd(1, this.select(set, object)) : 1;
  }

  /** The objects a selection set selects of `object`, counted once per selection set and schema object. */
  private select(set: SelectionSetNode, object: Introspected): number {
    const identity = identityOf(object, this.schema);
    let byObject = this.counted.get(set);
    const known = byObject?.get(identity);
    if (known !== undefined) return known;
    let count = 0;
    for (const selection of set.selections) {
      this.meter.step();
      if (selection.kind === Kind.FIELD) {
        const children = this.childrenOf(object, identity, selection.name.value);
        this.meter.step(children.length);
        for (const child of children) count = this.more(count, this.visit(selection.selectionSet, child));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        count = this.more(count, this.select(selection.selectionSet, object));
      } else {
        const fragment = this.fragments.get(selection.name.value);
        // An unknown or cyclic fragment is a validation error; it adds nothing here.
        if (!fragment || this.walking.has(fragment.name.value)) continue;
        this.walking.add(fragment.name.value);
        try {
          count = this.more(count, this.select(fragment.selectionSet, object));
        } finally {
          this.walking.delete(fragment.name.value);
        }
      }
    }
    if (!byObject) {
      byObject = new Map();
      this.counted.set(set, byObject);
    }
    byObject.set(identity, count);
    return count;
  }

  /** children(), built once per object and field (a type's list of fields is met under many selections). */
  private childrenOf(object: Introspected, identity: object, field: string): readonly Introspected[] {
    let byField = this.built.get(identity);
    if (!byField) {
      byField = new Map();
      this.built.set(identity, byField);
    }
    let children = byField.get(field);
    if (!children) {
      children = this.children(object, field);
      byField.set(field, children);
    }
    return children;
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
