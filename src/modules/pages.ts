// A page of a list field: at most `first` rows (the field's @listSize bound, src/listSize.ts), after
// the row named by `after`. Lists ordered by id page in SQL; short lists that a DataLoader reads whole
// (an order's payments, a partner's stores under `partners`) are sliced.
import type { Knex } from 'knex';
import { invalidArgument } from '../errors.js';
import { isDatabaseId } from '../ids.js';

export interface Page {
  first: number;
  /** The id of the last row of the previous page. */
  after: string | undefined;
}

export function pageOf(first: number, after?: string | null): Page {
  if (after != null && !isDatabaseId(after))
    throw invalidArgument('after', 'must be the id of the last item of the previous page');
  return { first, after: after ?? undefined };
}

/** Restricts a query of rows ordered by `column` (an id) to one page. */
export function limitToPage<Q extends Knex.QueryBuilder>(query: Q, page: Page, column = 'id'): Q {
  if (page.after !== undefined) query.where(column, '>', page.after);
  return query.orderBy(column).limit(page.first) as Q;
}

/** One page of rows already in id order. */
export function slicePageById<Row extends { id: string }>(rows: readonly Row[], page: Page): Row[] {
  const after = page.after === undefined ? undefined : BigInt(page.after);
  const start = after === undefined ? 0 : rows.findIndex((row) => BigInt(row.id) > after);
  return start < 0 ? [] : rows.slice(start, start + page.first);
}

/** One page of rows in their list's own order, continuing after the row whose id is `after` (none: an empty page). */
export function slicePageByPosition<Row extends { id: string }>(rows: readonly Row[], page: Page): Row[] {
  const start = page.after === undefined ? 0 : rows.findIndex((row) => row.id === page.after) + 1;
  return start <= 0 && page.after !== undefined ? [] : rows.slice(start, start + page.first);
}
