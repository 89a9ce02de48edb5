// How long a list of the graph may be, declared once in the SDL with the directive of the GraphQL cost
// directives draft (`@listSize(assumedSize, slicingArguments, sizedFields)`), and read from there by
// both the resolvers (which never return more) and the cost meter (which counts what they may return).
import { type GraphQLField, type GraphQLResolveInfo, type GraphQLSchema, getDirectiveValues } from 'graphql';
import { invalidArgument } from './errors.js';

interface ListSize {
  /** The most items the list returns (the directive's assumedSize). */
  max: number;
  /** The argument that asks for fewer (`first`), when the list takes one. */
  slicingArgument: string | undefined;
  /** A connection's list fields (`nodes`, `edges`), whose length is the connection's size. */
  sizedFields: readonly string[];
}

const sizesBySchema = new WeakMap<GraphQLSchema, Map<string, ListSize>>();

/** Every field's @listSize, keyed "Type.field"; read once per schema. */
export function listSizesOf(schema: GraphQLSchema): ReadonlyMap<string, ListSize> {
  let sizes = sizesBySchema.get(schema);
  if (sizes) return sizes;
  sizes = new Map();
  const directive = schema.getDirective('listSize');
  if (directive) {
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !('getFields' in type) || !('getInterfaces' in type)) continue;
      for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
        const values = field.astNode ? getDirectiveValues(directive, field.astNode) : undefined;
        if (!values) continue;
        const slicing = values.slicingArguments as string[] | undefined;
        sizes.set(`${type.name}.${field.name}`, {
          max: values.assumedSize as number,
          slicingArgument: slicing?.[0],
          sizedFields: (values.sizedFields as string[] | undefined) ?? [],
        });
      }
    }
  }
  sizesBySchema.set(schema, sizes);
  return sizes;
}

/** The @listSize of `Type.field`, or undefined when it has none. */
export function listSizeOf(schema: GraphQLSchema, typeName: string, fieldName: string): ListSize | undefined {
  return listSizesOf(schema).get(`${typeName}.${fieldName}`);
}

/**
 * How many items the list field being resolved returns: its `first` when given (1 to the field's
 * bound, INVALID_ARGUMENT otherwise), else the bound. A field without @listSize is a schema bug.
 */
export function pageSizeOf(info: GraphQLResolveInfo, first: number | null | undefined): number {
  const size = listSizeOf(info.schema, info.parentType.name, info.fieldName);
  if (!size) throw new Error(`${info.parentType.name}.${info.fieldName} has no @listSize`);
  if (first == null) return size.max;
  if (!Number.isInteger(first) || first < 1 || first > size.max)
    throw invalidArgument('first', `must be from 1 to ${size.max}`);
  return first;
}
