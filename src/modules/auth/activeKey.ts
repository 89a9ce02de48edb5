// THE rule of a live API key, in its two forms: a key works at `now` when it is not revoked and has
// no expiry or expires after `now`. Every lookup that authenticates, counts or reports keys uses these.
import type { Knex } from 'knex';
import type { ApiKeyRow } from './rows.js';

/** Whether `key` works at `now` (the rule above, on a row in hand). */
export function isActiveKey(key: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now: Date): boolean {
  return key.revoked_at === null && (key.expires_at === null || key.expires_at.getTime() > now.getTime());
}

/**
 * The same rule as a condition of a query on api_keys, for `.modify(activeKeyAt(now))`; `alias` is
 * the table's alias when it has one. Its bindings are `now` once, so prepared statements keep their shape.
 */
export function activeKeyAt(now: Date, alias?: string): (query: Knex.QueryBuilder) => void {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return (query) => {
    query
      .whereNull(column('revoked_at'))
      .where((active) => active.whereNull(column('expires_at')).orWhere(column('expires_at'), '>', now));
  };
}
