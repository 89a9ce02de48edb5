import type { DbOrTrx } from '../../db/knex.js';
import { prepared, runShaped, type ShapedStatement } from '../../db/prepared.js';
import { turnBatchesPerDatabase } from '../../db/turnBatches.js';
import { activeKeyAt } from './activeKey.js';
import type { ApiKeyRow } from './rows.js';

const COLUMNS = [
  'id',
  'key_hash',
  'display_prefix',
  'kind',
  'partner_id',
  'vendor_id',
  'operator_id',
  'label',
  'created_at',
  'expires_at',
  'revoked_at',
] as const;

/**
 * The statement of findActiveApiKey: the key with this hash if it is neither revoked nor expired at
 * `now`, one unique-index lookup. Every authenticated request runs it (compiled once, a prepared
 * statement); on Postgres the request limits run it inside their own (pipeline/rateLimits/postgresCounts.ts).
 */
export function activeKeyByHash(db: DbOrTrx, keyHash: string, now: Date): ShapedStatement {
  return {
    shape: 'api key by hash',
    values: [keyHash, now, 1],
    build: () =>
      db('api_keys')
        .select(...COLUMNS)
        .where({ key_hash: keyHash })
        .modify(activeKeyAt(now))
        .first(),
  };
}

async function findActiveApiKey(db: DbOrTrx, keyHash: string, now: Date): Promise<ApiKeyRow | undefined> {
  const [key] = await runShaped<ApiKeyRow>(db, activeKeyByHash(db, keyHash, now));
  return key;
}

/** The lookups by hash taken in turns (findActiveApiKeyInTurns): a batch is one hash's, run as of its newest lookup's time. */
const lookupsInTurns = turnBatchesPerDatabase(async (db: DbOrTrx, times: Date[], keyHash: string) => {
  const key = await findActiveApiKey(db, keyHash, times[times.length - 1]!);
  return times.map(() => key && { ...key });
});

/**
 * findActiveApiKey, with the lookups of one hash that arrive while its statement runs answered
 * together by the next one (db/turnBatches.ts), as of the newest one's time: that statement starts
 * after each of them asked, so none is answered from before it asked (a key revoked by then is not
 * found). A busy key, a chain's point of sale behind one key, costs one statement a turn.
 */
export function findActiveApiKeyInTurns(db: DbOrTrx, keyHash: string, now: Date): Promise<ApiKeyRow | undefined> {
  return lookupsInTurns(db).submit(keyHash, now);
}

/** An active key, and where it last wrote (api_key_writes): the replica serves its reads once it has replayed that. */
type ApiKeyWithWrite = ApiKeyRow & { written_lsn: string | null };

/**
 * findActiveApiKey with the key's last write position, in the same statement (no extra round trip):
 * the lookup when a read replica is configured. `key` is `{ key_hash }` or `{ id }`.
 */
export async function findActiveApiKeyWithWrite(
  db: DbOrTrx,
  key: { key_hash: string } | { id: string },
  now: Date,
): Promise<ApiKeyWithWrite | undefined> {
  const [column, value] = 'key_hash' in key ? ['k.key_hash', key.key_hash] : ['k.id', key.id];
  const [found] = await runShaped<ApiKeyWithWrite>(db, {
    shape: `api key with its write by ${column}`,
    values: [value, now, 1],
    build: () =>
      db('api_keys as k')
        .select(...COLUMNS.map((name) => `k.${name}`), db.raw('w.lsn::text as written_lsn'))
        .leftJoin('api_key_writes as w', 'w.key_id', 'k.id')
        .where(column, value)
        .modify(activeKeyAt(now, 'k'))
        .first(),
  });
  return found;
}

/**
 * Records that key `keyId` just wrote: the primary's WAL position now, after its commit. Never moves
 * backwards (two instances recording at once). Run on the primary, before the write's answer is sent.
 */
export async function recordKeyWrite(db: DbOrTrx, keyId: string): Promise<void> {
  await prepared(
    db('api_key_writes')
      .insert({ key_id: keyId, lsn: db.raw('pg_current_wal_lsn()'), written_at: db.fn.now() })
      .onConflict('key_id')
      .merge({ lsn: db.raw('greatest(api_key_writes.lsn, excluded.lsn)'), written_at: db.raw('excluded.written_at') }),
  );
}

/** The key with this id if it is neither revoked nor expired at `now` (checked on every token use). */
export function findActiveApiKeyById(db: DbOrTrx, id: string, now: Date): Promise<ApiKeyRow | undefined> {
  return db<ApiKeyRow>('api_keys')
    .select(...COLUMNS)
    .where({ id })
    .modify(activeKeyAt(now))
    .first();
}

/** Of the keys `ids`, those neither revoked nor expired at `now`: one statement for a whole instance's connections. */
export async function activeApiKeyIds(db: DbOrTrx, ids: readonly string[], now: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows: Array<{ id: string }> = await db('api_keys').select('id').whereIn('id', ids).modify(activeKeyAt(now));
  return new Set(rows.map((row) => String(row.id)));
}

export function apiKeyById(db: DbOrTrx, id: string): Promise<ApiKeyRow | undefined> {
  return db<ApiKeyRow>('api_keys')
    .select(...COLUMNS)
    .where({ id })
    .first();
}

/** Keys, newest first, optionally of one partner or one vendor. */
/** API keys, newest first; at most `limit` (the graph's page), or all (the keys CLI). */
export function listApiKeys(
  db: DbOrTrx,
  filter: { partnerId?: string; vendorId?: string },
  limit?: number,
): Promise<ApiKeyRow[]> {
  const query = db<ApiKeyRow>('api_keys')
    .select(...COLUMNS)
    .orderBy('id', 'desc');
  if (limit !== undefined) query.limit(limit);
  if (filter.partnerId) query.where({ partner_id: filter.partnerId });
  if (filter.vendorId) query.where({ vendor_id: filter.vendorId });
  return query;
}

export async function insertApiKey(
  db: DbOrTrx,
  row: Omit<ApiKeyRow, 'id' | 'created_at' | 'revoked_at'>,
): Promise<ApiKeyRow> {
  const [inserted] = await db<ApiKeyRow>('api_keys')
    .insert(row)
    .returning([...COLUMNS]);
  return inserted as ApiKeyRow;
}

/** Inserts an operator; returns its id. */
export async function insertOperator(db: DbOrTrx, name: string): Promise<string> {
  const [operator] = await db('operators').insert({ name }).returning('id');
  return operator.id as string;
}

/** Revokes a key now, once: a key already revoked keeps its first revocation time. */
export async function revokeApiKey(db: DbOrTrx, id: string, now: Date): Promise<ApiKeyRow | undefined> {
  await db('api_keys').where({ id }).whereNull('revoked_at').update({ revoked_at: now });
  return apiKeyById(db, id);
}
