// The SQL statements a piece of work sends through a knex instance, in order, with the rows each
// returned: what the suites that pin a request's round trips count and read (test/statements-*,
// test/graph-n-plus-one, test/scaling-invariants).
//
// On Postgres an API key's lookup by its hash carries the request limits (its address's failed
// authentications and its key's count) in its own statement (src/pipeline/rateLimits/postgresCounts.ts). Not
// counted: the limits' statements of their own, which run on a connection taken from the same pool,
// outside knex's query events: an anonymous request's count, a failed authentication's, and a token's
// key's count; the same for every route, so the budgets pin each route's own statements.
import type { Db } from '../../src/db/knex.js';
import { connectionWaiters } from '../../src/db/poolCounts.js';

export interface SentStatement {
  sql: string;
  /** The values sent with it. */
  bindings: readonly unknown[];
  /** Rows the statement returned; null until it answered (or when it failed). */
  rows: number | null;
}

interface QueryEvent {
  sql: string;
  bindings?: readonly unknown[];
  __knexQueryUid: string;
}

export async function statementsDuring<T>(
  db: Db,
  work: () => Promise<T>,
): Promise<{ result: T; statements: SentStatement[] }> {
  const statements: SentStatement[] = [];
  const byUid = new Map<string, SentStatement>();
  /** Statements sent and not yet answered (or failed). */
  const pending = new Set<string>();
  const onQuery = (query: QueryEvent) => {
    const sent: SentStatement = { sql: query.sql, bindings: query.bindings ?? [], rows: null };
    statements.push(sent);
    byUid.set(query.__knexQueryUid, sent);
    // knex tells no response of a transaction's own statements (BEGIN, COMMIT ...): only the others wait.
    if (!TRANSACTION_CONTROL.test(query.sql)) pending.add(query.__knexQueryUid);
  };
  const onResponse = (response: unknown, query: QueryEvent) => {
    pending.delete(query.__knexQueryUid);
    const sent = byUid.get(query.__knexQueryUid);
    if (sent)
      sent.rows = Array.isArray(response)
        ? response.length
        : ((response as { rows?: unknown[] } | undefined)?.rows?.length ?? 1);
  };
  const onError = (_error: unknown, query: QueryEvent) => pending.delete(query.__knexQueryUid);
  await settled(db);
  db.on('query', onQuery).on('query-response', onResponse).on('query-error', onError);
  try {
    const result = await work();
    // A statement the work started without waiting for it (a read ahead past a list's last page) may
    // still be on its way when the work ends, on a busy machine noticeably so: its answer is waited
    // for, so what it returned is counted rather than read as null.
    for (const started = Date.now(); pending.size > 0 && Date.now() - started < STRAGGLER_WAIT_MS; )
      await new Promise((resolve) => setTimeout(resolve, 10));
    return { result, statements };
  } finally {
    db.off('query', onQuery).off('query-response', onResponse).off('query-error', onError);
  }
}

/**
 * Lets what the set-up left going on its own go out before the count begins: the event log publishes
 * a commit's events a turn of the event loop after it (src/modules/events/log.ts), so a seed's or a
 * previous request's NOTIFY could otherwise land in the work's count. A few turns pass, until no
 * caller waits for a connection of the pool (one waiting would send its statement later) and the
 * statements sent meanwhile have answered. Not "the pool is idle": a test may hold a connection.
 */
async function settled(db: Db): Promise<void> {
  const sent = new Set<string>();
  const onQuery = (query: QueryEvent) => {
    if (!TRANSACTION_CONTROL.test(query.sql)) sent.add(query.__knexQueryUid);
  };
  const onDone = (_answer: unknown, query: QueryEvent) => sent.delete(query.__knexQueryUid);
  db.on('query', onQuery).on('query-response', onDone).on('query-error', onDone);
  try {
    const started = Date.now();
    for (let turns = 0; turns < 3 || connectionWaiters(db) > 0 || sent.size > 0; turns++) {
      if (Date.now() - started > STRAGGLER_WAIT_MS) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    db.off('query', onQuery).off('query-response', onDone).off('query-error', onDone);
  }
}

const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;
/** How long the statements still on their way when the work ends are waited for. */
const STRAGGLER_WAIT_MS = 60_000;

/**
 * The statements with the request limits taken out of the key's: on Postgres the key's lookup by
 * its hash carries them in its own statement (src/pipeline/rateLimits/postgresCounts.ts lookUpAdmitting), as a
 * CTE around the lookup's own text. The bench's bare baselines look the key up alone.
 */
export function withoutRequestLimits(sql: readonly string[]): string[] {
  return sql.map((text) => /^with found as \((.*?)\), blocked as \(/s.exec(text)?.[1] ?? text);
}
