// The SQL statements a piece of work sends through a knex instance, in order, with the rows each
// returned: what the suites that pin a request's round trips count and read (test/statements-*,
// test/graph-n-plus-one, test/scaling-invariants).
//
// Not counted: the request limits' own statements on Postgres (src/limits/postgresCounts.ts): they
// run on a connection taken from the same pool, outside knex's query events. A credentialed request
// adds one (its address's failed authentications and its key's count; an anonymous one adds one), the
// same for every route, so the budgets pin each route's own statements.
import type { Db } from '../../src/db/knex.js';

export interface SentStatement {
  sql: string;
  /** Rows the statement returned; null until it answered (or when it failed). */
  rows: number | null;
}

interface QueryEvent {
  sql: string;
  __knexQueryUid: string;
}

export async function statementsDuring<T>(
  db: Db,
  work: () => Promise<T>,
): Promise<{ result: T; statements: SentStatement[] }> {
  const statements: SentStatement[] = [];
  const byUid = new Map<string, SentStatement>();
  const onQuery = (query: QueryEvent) => {
    const sent: SentStatement = { sql: query.sql, rows: null };
    statements.push(sent);
    byUid.set(query.__knexQueryUid, sent);
  };
  const onResponse = (response: unknown, query: QueryEvent) => {
    const sent = byUid.get(query.__knexQueryUid);
    if (sent)
      sent.rows = Array.isArray(response)
        ? response.length
        : ((response as { rows?: unknown[] } | undefined)?.rows?.length ?? 1);
  };
  db.on('query', onQuery).on('query-response', onResponse);
  try {
    return { result: await work(), statements };
  } finally {
    db.off('query', onQuery).off('query-response', onResponse);
  }
}
