// What a piece of work sends, as Citus would route it (decisions.md 48): each statement with the tenant
// tables it leaves without partner_id pinned (partnerScope.ts) and whether it locks rows. A statement
// with none unpinned runs on one shard; one that locks rows must be such a statement. The background
// chores' tests hold to it every statement but the lock-free probes that find the partners with work.
import type { Db } from '../../src/db/knex.js';
import { partnerScope } from './partnerScope.js';
import { readScopeTables } from './shardCatalogue.js';
import { statementsDuring } from './statements.js';

export interface ScopedStatement {
  sql: string;
  locksRows: boolean;
  /** The tenant tables left without a partner_id pin (empty: one shard on Citus). */
  unpinned: string[];
}

const LOCKS_ROWS = /\bfor\s+(?:no\s+key\s+)?(?:update|share)\b/i;
const TRANSACTION_CONTROL = /^\s*(?:begin|commit|rollback|savepoint|release)\b/i;

/** The statements `work` sends, transaction control left out, each with what it leaves unpinned. */
export async function scopedStatementsDuring<T>(
  db: Db,
  work: () => Promise<T>,
): Promise<{ result: T; statements: ScopedStatement[] }> {
  const scope = await readScopeTables(db);
  const { result, statements } = await statementsDuring(db, work);
  return {
    result,
    statements: statements
      .filter(({ sql }) => !TRANSACTION_CONTROL.test(sql))
      .map(({ sql }) => ({ sql, locksRows: LOCKS_ROWS.test(sql), unpinned: partnerScope(sql, scope).problems })),
  };
}
