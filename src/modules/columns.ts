// A field that answers one column of its parent row as it is (`simNumber: column('sim_number')`): a
// resolver like any other to graphql-js, and a mark the jit executor reads (graphqlExecutor.ts
// `columnsInlined`) to compile the field as a property read instead of a resolver call, which on
// graphql-jit costs three closures and a resolve-info object per call (a 5,000-row page calls
// tens of thousands). Only a plain read may be marked: whatever it answers, the scalar's own
// serialization still applies.

const COLUMN = Symbol('column read by the field');

type ColumnRead<Name extends string> = (<Row extends Record<Name, unknown>>(row: Row) => Row[Name]) & {
  readonly [COLUMN]: Name;
};

/**
 * The field's resolver: the parent row's `name` column. In the object form, which graphql-tools copies
 * onto the field as it is (a bare function it binds, and a bound function loses the mark).
 */
export function column<Name extends string>(name: Name): { resolve: ColumnRead<Name> } {
  const read = <Row extends Record<Name, unknown>>(row: Row) => row[name];
  return { resolve: Object.assign(read, { [COLUMN]: name }) as ColumnRead<Name> };
}

/**
 * `column(name)` typed as the field answers it: for a field a row reader made as the row was read (a
 * formatted amount, a joined row), which the generated types cannot see on the parent. An Error kept
 * there is answered as a resolver's throw by both executors.
 */
export function madeColumn<Parent, Value>(name: string): { resolve: (parent: Parent) => Value } {
  return column(name) as unknown as { resolve: (parent: Parent) => Value };
}

/** The column a resolver made by `column` reads; undefined for any other resolver (or a wrapped one). */
export function columnOf(resolve: unknown): string | undefined {
  return typeof resolve === 'function' ? (resolve as Partial<ColumnRead<string>>)[COLUMN] : undefined;
}
