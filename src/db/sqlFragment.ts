// SQL that travels with its own values (after pg-sql2's fragments): a part of a statement written in
// one module carries its bindings with its text, so a statement composed of parts from several modules
// can't pair a placeholder with another part's value. The text keeps knex's ? placeholders, so a
// fragment runs as knex.raw(fragment.sql, fragment.bindings) or db/prepared.ts runSql.
import type { Knex } from 'knex';

/** A piece of SQL and the values of its ? placeholders, in order. */
export class SqlFragment {
  constructor(
    readonly sql: string,
    readonly bindings: readonly Knex.RawBinding[],
  ) {}
}

/**
 * sql`... ${value} ...`: each interpolated value becomes a ? with that value bound; an interpolated
 * fragment brings its own text and bindings, in its place.
 */
export function sql(strings: TemplateStringsArray, ...parts: ReadonlyArray<SqlFragment | Knex.RawBinding>) {
  let text = strings[0]!;
  const bindings: Knex.RawBinding[] = [];
  parts.forEach((part, i) => {
    if (part instanceof SqlFragment) {
      text += part.sql;
      bindings.push(...part.bindings);
    } else {
      text += '?';
      bindings.push(part);
    }
    text += strings[i + 1]!;
  });
  return new SqlFragment(text, bindings);
}

/** Text written in the code (a CTE's name, a condition without values): never a value from a request. */
export const sqlText = (text: string): SqlFragment => new SqlFragment(text, []);

/** The fragments one after another, `separator` between them. */
export function joinSql(fragments: readonly SqlFragment[], separator: string): SqlFragment {
  return new SqlFragment(
    fragments.map((fragment) => fragment.sql).join(separator),
    fragments.flatMap((fragment) => fragment.bindings),
  );
}
