import type { DbOrTrx } from '../../db/knex.js';
import type { ApiKeyRow } from './rows.js';

/** The key with this hash if it is neither revoked nor expired at `now`; one unique-index lookup. */
export function findActiveApiKey(db: DbOrTrx, keyHash: string, now: Date): Promise<ApiKeyRow | undefined> {
  return db<ApiKeyRow>('api_keys')
    .where({ key_hash: keyHash })
    .whereNull('revoked_at')
    .where((active) => active.whereNull('expires_at').orWhere('expires_at', '>', now))
    .first();
}
