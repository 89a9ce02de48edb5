// A row of another table read in the same statement as the rows it belongs to: selected under a
// prefix (prefix__field) and taken back out of each result row. One statement instead of a round
// trip per table; used by the transaction listing (its links) and a lookup's orders (their devices).
import type { Knex } from 'knex';
import type { DbOrTrx } from './knex.js';

/** Where each field of a row comes from in a statement: field -> qualified column. */
export type RowSources = Readonly<Record<string, string>>;

/** The columns of one table under its alias, as RowSources. */
export function sourcesOf(alias: string, columns: readonly string[]): RowSources {
  return Object.fromEntries(columns.map((column) => [column, `${alias}.${column}`]));
}

interface JoinedRow<Row> {
  /** The select list: each source as prefix__field. */
  select: string[];
  /** The row out of a result row; null when the join found none (its id is null). */
  take: (result: Record<string, unknown>) => Row | null;
}

/** How to select a joined row under `prefix` and take it back (the pairs are computed once: take runs per row). */
export function joinedRow<Row>(prefix: string, sources: RowSources): JoinedRow<Row> {
  const names = Object.keys(sources).map((field) => [`${prefix}__${field}`, field] as const);
  const idName = `${prefix}__id`;
  return {
    select: Object.entries(sources).map(([field, source]) => `${source} as ${prefix}__${field}`),
    take: (result) => {
      if (result[idName] == null) return null;
      const row: Record<string, unknown> = {};
      for (const [name, field] of names) row[field] = result[name];
      return row as Row;
    },
  };
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * A statement's answer with each row as an array of its values, in its columns' order (`rowMode:
 * 'array'`, which pg and the embedded database both take): what a rowReader reads.
 */
export interface ArrayRows {
  rows: unknown[][];
  fields: ReadonlyArray<{ name: string }>;
}

/** Asks for `query`'s rows as arrays (ArrayRows): a raw query's answer then carries its columns' names. */
export function inArrays(query: Knex.Raw): Knex.Raw {
  return query.options({ rowMode: 'array' });
}

/** A built query as its raw statement, its rows asked for as arrays (a builder's answer would be its rows alone). */
export function builtInArrays(db: DbOrTrx, query: Knex.QueryBuilder): Knex.Raw {
  const { sql, bindings } = query.toSQL();
  return inArrays(db.raw(sql, bindings));
}

/**
 * A row read along under `prefix` (prefix__field columns), with its own computed fields; `alsoAs`: the
 * same row at the top of the row it belongs to too, under that name (what a column read can reach).
 */
export interface JoinedFields {
  prefix: string;
  fields: readonly string[];
  computed?: ReadonlyArray<ComputedField>;
  alsoAs?: string;
}

/** A field of a row made from some of its columns as it is read (rowReader). */
export interface ComputedField {
  name: string;
  from: readonly string[];
  compute: (...values: never[]) => unknown;
}

/** Reads a statement's rows (ArrayRows) into rows of one shape. */
export type RowReader<Row> = (answer: ArrayRows) => Row[];

/** Column lists a reader keeps compiled: one per statement text it reads, and those are few. */
const MAX_COMPILED = 16;

/**
 * A reader of result rows: each into a row of `own` columns with, under `into`, each joined row taken
 * out of its prefix__field columns (null when its id is null). The rows come as arrays: otherwise pg
 * builds an object per row, a keyed store per column, which in the service's profile cost 1.8 times
 * what it cost the bare list for the same statement, and the reader built a second object from it. Compiled once per column
 * list into a function with literal property names and positions, so every row is built in one object
 * shape: the loop of keyed stores per row that joinedRow's take does cost about three times as much
 * on a page of links. Each of `computed` is a field made from some of the row's columns as the row is
 * read (its `from` columns passed to `compute`, in their order), in the same object literal; a joined
 * row's own `computed` likewise from its columns, each only when the row reads all of its columns. A
 * joined row with `alsoAs` is the same object at the top of its row too, where an executor reads it
 * as a column (a nested one it cannot).
 */
export function rowReader<Row>(
  own: readonly string[],
  joined: ReadonlyArray<JoinedFields>,
  into: string,
  computed: ReadonlyArray<ComputedField> = [],
): RowReader<Row> {
  // A joined row's computed fields are those whose columns it reads.
  const joinedComputed = joined.map(({ fields, computed: made = [] }) =>
    made.filter(({ from }) => from.every((column) => fields.includes(column))),
  );
  const everyComputed = [...computed, ...joinedComputed.flat()];
  const names = [
    ...own,
    into,
    ...joined.flatMap(({ prefix, fields, alsoAs }) => [prefix, ...fields, ...(alsoAs === undefined ? [] : [alsoAs])]),
    ...everyComputed.flatMap(({ name, from }) => [name, ...from]),
  ];
  const odd = names.find((name) => !NAME.test(name));
  if (odd !== undefined) throw new Error(`not a column name: ${JSON.stringify(odd)}`);
  const compile = (columns: readonly string[]) => {
    const column = (name: string) => {
      const position = columns.indexOf(name);
      if (position < 0) throw new Error(`the statement read has no column ${name}`);
      return `r[${position}]`;
    };
    // Each computed field calls c[i], its place in everyComputed, on the columns it is made of.
    let next = 0;
    const made = (from: (name: string) => string) => (field: ComputedField) =>
      `${JSON.stringify(field.name)}: c[${next++}](${field.from.map(from).join(', ')})`;
    const body = [...own.map((name) => `${JSON.stringify(name)}: ${column(name)}`), ...computed.map(made(column))];
    // Each joined row made once, as j<i>: under `into`, and at the top too where it is also asked there.
    const joinedRows = joined.map(({ prefix, fields }, i) => {
      const inPrefix = (field: string) => column(`${prefix}__${field}`);
      const row = [
        ...fields.map((field) => `${JSON.stringify(field)}: ${inPrefix(field)}`),
        ...joinedComputed[i]!.map(made(inPrefix)),
      ].join(', ');
      return `j${i} = ${column(`${prefix}__id`)} == null ? null : { ${row} }`;
    });
    body.push(
      `${JSON.stringify(into)}: { ${joined.map(({ prefix }, i) => `${JSON.stringify(prefix)}: j${i}`).join(', ')} }`,
    );
    joined.forEach(({ alsoAs }, i) => {
      if (alsoAs !== undefined) body.push(`${JSON.stringify(alsoAs)}: j${i}`);
    });
    const locals = joinedRows.length > 0 ? `const ${joinedRows.join(', ')}; ` : '';
    // The names are checked above and quoted as JSON strings, the positions are numbers: the source holds nothing else.
    const read = new Function('c', `return (r) => { ${locals}return { ${body.join(', ')} }; };`);
    return read(everyComputed.map(({ compute }) => compute)) as (values: unknown[]) => Row;
  };
  const compiled = new Map<string, (values: unknown[]) => Row>();
  return (answer) => {
    const columns = answer.fields.map((field) => field.name);
    const key = columns.join(',');
    let read = compiled.get(key);
    if (!read) {
      read = compile(columns);
      if (compiled.size < MAX_COMPILED) compiled.set(key, read);
    }
    return answer.rows.map(read);
  };
}
