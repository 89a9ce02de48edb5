// A row of another table read in the same statement as the rows it belongs to: selected under a
// prefix (prefix__field) and taken back out of each result row. One statement instead of a round
// trip per table; used by the transaction listing (its links) and a lookup's orders (their devices).

/** Where each field of a row comes from in a statement: field -> qualified column. */
export type RowSources = Readonly<Record<string, string>>;

/** The columns of one table under its alias, as RowSources. */
export function sourcesOf(alias: string, columns: readonly string[]): RowSources {
  return Object.fromEntries(columns.map((column) => [column, `${alias}.${column}`]));
}

export interface JoinedRow<Row> {
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
 * A reader of result rows: each into a row of `own` columns with, under `into`, each joined row taken
 * out of its prefix__field columns (null when its id is null). Compiled once per set of columns into
 * a function with literal property names, so every row is built in one object shape: the loop of
 * keyed stores per row that joinedRow's take does cost about three times as much on a page of links.
 */
export function rowReader<Row>(
  own: readonly string[],
  joined: ReadonlyArray<{ prefix: string; fields: readonly string[] }>,
  into: string,
): (result: Record<string, unknown>) => Row {
  const names = [...own, into, ...joined.flatMap(({ prefix, fields }) => [prefix, ...fields])];
  const odd = names.find((name) => !NAME.test(name));
  if (odd !== undefined) throw new Error(`not a column name: ${JSON.stringify(odd)}`);
  const column = (name: string) => `r[${JSON.stringify(name)}]`;
  const links = joined.map(({ prefix, fields }) => {
    const row = fields.map((field) => `${JSON.stringify(field)}: ${column(`${prefix}__${field}`)}`).join(', ');
    return `${JSON.stringify(prefix)}: ${column(`${prefix}__id`)} == null ? null : { ${row} }`;
  });
  const body = [
    ...own.map((name) => `${JSON.stringify(name)}: ${column(name)}`),
    `${JSON.stringify(into)}: { ${links.join(', ')} }`,
  ];
  // The names are checked above and quoted as JSON strings: the source holds nothing but them.
  return new Function('r', `return { ${body.join(', ')} };`) as (result: Record<string, unknown>) => Row;
}
