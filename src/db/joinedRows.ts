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
