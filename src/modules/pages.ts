// A page of a list field: at most `first` rows (the field's @listSize bound, src/kernel/listSize.ts), after
// the row named by `after`. Lists ordered by id page in SQL; short lists that a DataLoader reads whole
// (an order's payments, a partner's stores under `partners`) are sliced. Below: what every cursor
// connection shares (edges, pageInfo, the cursors of the connections ordered by id).
import type { Knex } from 'knex';
import { invalidArgument } from '../kernel/errors.js';
import { isDatabaseId } from '../kernel/ids.js';

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

// Cursor connections (the Relay specification): every connection of the graph pages forward only
// (first, after), each edge carries its cursor, and pageInfo says where the page stands.

/** An edge of a connection: a row and the cursor that continues after it. */
export interface EdgeParent<Row> {
  cursor: string;
  node: Row;
}

/** What a connection's pageInfo resolves to. */
export interface PageInfoParent {
  hasNextPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
  /**
   * Whether the listing holds an edge at or before the page's `after` cursor: asked only when
   * hasPreviousPage is selected (a statement of its own); null on a first page, where none can.
   */
  previousExists: (() => Promise<boolean>) | null;
}

/** A page's rows as edges. */
export function edgesOf<Row>(rows: readonly Row[], cursorOf: (row: Row) => string): Array<EdgeParent<Row>> {
  return rows.map((row) => ({ cursor: cursorOf(row), node: row }));
}

/** A page's pageInfo: its cursors from its first and last rows. */
export function pageInfoOf<Row>(
  rows: readonly Row[],
  hasNextPage: boolean,
  cursorOf: (row: Row) => string,
  previousExists: (() => Promise<boolean>) | null,
): PageInfoParent {
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    hasNextPage,
    startCursor: first === undefined ? null : cursorOf(first),
    endCursor: last === undefined ? null : cursorOf(last),
    previousExists,
  };
}

/** A page of a cursor connection as its resolvers take it (each connection's parent type extends it). */
export interface ConnectionPage<Row> {
  rows: Row[];
  hasNextPage: boolean;
  previousExists: (() => Promise<boolean>) | null;
}

/** A connection's edges, nodes and pageInfo, its rows' cursors written by `cursorOf`. */
export function connectionResolvers<Row>(cursorOf: (row: Row) => string) {
  return {
    edges: (page: ConnectionPage<Row>) => edgesOf(page.rows, cursorOf),
    nodes: (page: ConnectionPage<Row>) => page.rows,
    pageInfo: (page: ConnectionPage<Row>) => pageInfoOf(page.rows, page.hasNextPage, cursorOf, page.previousExists),
  };
}

/**
 * A page of `limit` rows after `after`: one row more is read to tell whether a next page exists, and
 * whether rows precede the page is asked of `precede` only if hasPreviousPage is selected.
 */
export async function pageAfter<Row, Position>(
  after: Position | undefined,
  limit: number,
  read: (after: Position | undefined, limit: number) => Promise<Row[]>,
  precede: (after: Position) => Promise<boolean>,
): Promise<ConnectionPage<Row>> {
  const rows = await read(after, limit + 1);
  return {
    rows: rows.slice(0, limit),
    hasNextPage: rows.length > limit,
    previousExists: after !== undefined ? () => precede(after) : null,
  };
}

/**
 * A page of a connection over a short list a DataLoader reads whole (a customer's orders, a family's
 * models), in the list's own order: `first` rows after the row whose id is `afterId`. A cursor whose
 * row has left the list gives an empty page.
 */
export function pageOfList<Row extends { id: string }>(
  rows: readonly Row[],
  first: number,
  afterId: string | undefined,
): ConnectionPage<Row> {
  if (afterId === undefined)
    return { rows: rows.slice(0, first), hasNextPage: rows.length > first, previousExists: null };
  const start = rows.findIndex((row) => row.id === afterId) + 1;
  if (start === 0) return { rows: [], hasNextPage: false, previousExists: async () => false };
  return {
    rows: rows.slice(start, start + first),
    hasNextPage: rows.length > start + first,
    previousExists: async () => true,
  };
}

/** PageInfo's one computed field; the others are the parent's own. */
export const pageInfoResolvers = {
  PageInfo: {
    hasPreviousPage: (info: PageInfoParent): Promise<boolean> | boolean => info.previousExists?.() ?? false,
  },
};

/**
 * The opaque cursor of a connection ordered by id: the connection's name and the row's id, so a
 * cursor of one connection is refused by another.
 */
export function idCursorOf(connection: string, id: string): string {
  return Buffer.from(`${connection}:${id}`).toString('base64url');
}

/** The id an idCursorOf cursor names; INVALID_ARGUMENT (after) for anything else. */
export function parseIdCursor(connection: string, cursor: string): string {
  const text = Buffer.from(cursor.slice(0, 100), 'base64url').toString('utf8');
  const id = text.startsWith(`${connection}:`) ? text.slice(connection.length + 1) : '';
  if (!isDatabaseId(id)) throw invalidArgument('after', 'is not a cursor of this connection');
  return id;
}
