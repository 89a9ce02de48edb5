// The stored unlock keys brought under the first sealing key (docs/decisions.md 35): a key still in
// clear (written before sealing, or by an instance of the release before during a rollout) is sealed,
// and a key sealed under another listed key is sealed again under the first (rotation). Run by the
// worker at its start and every hour, and at once by npm run keys -- seal-unlock-keys. A batch at a
// time, each in its own transaction, skipping the rows another worker holds: instances never wait on
// each other, and a run stopped half-way leaves every row either as it was or done.
//
// A partner at a time, the same on every backend, since Citus locks rows only in a statement it runs on
// one shard (decisions.md 48): a read with no row lock lists the partners with a key to seal (Citus reads
// every shard), then each partner's keys are sealed in batches whose statements are pinned to it.
import type { Knex } from 'knex';
import type { Db, DbOrTrx } from '../../db/knex.js';
import { sealingKeyIdOf, type UnlockKeySealer, unlockKeyOfRow } from './sealing.js';

const BATCH = 500;

/** The key id a stored seal names (its second dot-separated part: sealing.ts's format). */
const SEAL_KEY_ID = "split_part(unlock_key_sealed, '.', 2)";

/** `SEAL_KEY_ID in (ids)` (or `not in`), its values bound; an empty list is false (or true). */
function sealKeyIdAmong(ids: readonly string[], among: boolean): [string, string[]] {
  if (ids.length === 0) return [among ? 'false' : 'true', []];
  return [`${SEAL_KEY_ID} ${among ? 'in' : 'not in'} (${ids.map(() => '?').join(', ')})`, [...ids]];
}

interface StoredUnlockKeyRow {
  partner_id: string;
  id: string;
  device_id: string;
  key_hash: string;
  unlock_key: string | null;
  unlock_key_sealed: string | null;
}

/** What a run changed: keys sealed from clear, and keys sealed again under the first key. */
interface SealingRun {
  sealed: number;
  resealed: number;
}

/** The keys to seal: in clear, or sealed under a listed key but the first (a key no longer listed cannot be opened here). */
function whereDue(due: Knex.QueryBuilder, sealer: UnlockKeySealer): Knex.QueryBuilder {
  const others = sealer.keyIds.filter((id) => id !== sealer.sealingKeyId);
  return due.where((clause) => clause.whereNotNull('unlock_key').orWhereRaw(...sealKeyIdAmong(others, true)));
}

/** The partners with a key to seal, by id: no row locked, so it may read every partner's rows. */
async function partnersWithKeysDue(db: Db, sealer: UnlockKeySealer): Promise<string[]> {
  const rows: Array<{ partner_id: string | number }> = await whereDue(
    db('device_credentials').distinct('partner_id'),
    sealer,
  ).orderBy('partner_id');
  return rows.map((row) => String(row.partner_id));
}

/** One batch of the partner's keys in one transaction: the rows it takes are locked until they are written. */
async function sealBatch(db: Db, sealer: UnlockKeySealer, partnerId: string): Promise<SealingRun & { taken: number }> {
  return db.transaction(async (trx) => {
    const rows: StoredUnlockKeyRow[] = await whereDue(
      trx('device_credentials')
        .select('partner_id', 'id', 'device_id', 'key_hash', 'unlock_key', 'unlock_key_sealed')
        .where({ partner_id: partnerId }),
      sealer,
    )
      .limit(BATCH)
      .forUpdate()
      .skipLocked();
    if (rows.length === 0) return { taken: 0, sealed: 0, resealed: 0 };
    const sealedRows = rows.map((row) => {
      const binding = {
        partnerId: String(row.partner_id),
        deviceId: String(row.device_id),
        credentialKeyHash: row.key_hash,
      };
      try {
        return { id: String(row.id), sealed: sealer.seal(unlockKeyOfRow(sealer, row, binding)!, binding) };
      } catch (error) {
        // The row to look at (its seal was changed): the batch writes nothing, the next run tries again.
        throw new Error(`device credential ${row.id} of partner ${row.partner_id}: ${(error as Error).message}`);
      }
    });
    // One statement for the batch, pinned to the partner: each row's seal written and its clear key emptied together.
    await trx.raw(
      `update device_credentials as dc set unlock_key_sealed = v.sealed, unlock_key = null
       from jsonb_to_recordset(?::jsonb) as v (id int8, sealed text)
       where dc.partner_id = ? and dc.id = v.id`,
      [JSON.stringify(sealedRows), partnerId],
    );
    const sealed = rows.filter((row) => row.unlock_key !== null).length;
    return { taken: rows.length, sealed, resealed: rows.length - sealed };
  });
}

/** Seals every clear key and reseals every key under a listed key but the first; answers how many of each. */
export async function sealStoredUnlockKeys(db: Db, sealer: UnlockKeySealer): Promise<SealingRun> {
  const run: SealingRun = { sealed: 0, resealed: 0 };
  for (const partnerId of await partnersWithKeysDue(db, sealer)) {
    for (;;) {
      const batch = await sealBatch(db, sealer, partnerId);
      run.sealed += batch.sealed;
      run.resealed += batch.resealed;
      if (batch.taken < BATCH) break;
    }
  }
  return run;
}

/** The stored seals no listed key opens, by the key id they name (the start refuses while there is any). */
export async function sealsUnderUnlistedKeys(
  db: DbOrTrx,
  sealer: UnlockKeySealer,
): Promise<Array<{ keyId: string; count: number }>> {
  const rows: Array<{ key_id: string; n: string | number }> = await db('device_credentials')
    .select(db.raw(`${SEAL_KEY_ID} as key_id`), db.raw('count(*) as n'))
    .whereNotNull('unlock_key_sealed')
    .whereRaw(...sealKeyIdAmong(sealer.keyIds, false))
    .groupByRaw(SEAL_KEY_ID)
    .orderBy('key_id');
  return rows.map((row) => ({ keyId: row.key_id, count: Number(row.n) }));
}

/**
 * The listed key ids whose key does not open the seals that name them: one stored seal under each is
 * opened (another key given the same id, say; the start refuses while there is any).
 */
export async function listedKeysThatDoNotOpen(db: DbOrTrx, sealer: UnlockKeySealer): Promise<string[]> {
  const samples: StoredUnlockKeyRow[] = await db('device_credentials')
    // One row per key id (Postgres's distinct on, ordered by it).
    .select(db.raw(`distinct on (${SEAL_KEY_ID}) partner_id, id, device_id, key_hash, unlock_key, unlock_key_sealed`))
    .whereRaw(...sealKeyIdAmong(sealer.keyIds, true))
    .orderByRaw(SEAL_KEY_ID);
  return samples.flatMap((row) => {
    try {
      sealer.open(row.unlock_key_sealed!, {
        partnerId: String(row.partner_id),
        deviceId: String(row.device_id),
        credentialKeyHash: row.key_hash,
      });
      return [];
    } catch {
      return [sealingKeyIdOf(row.unlock_key_sealed!)!];
    }
  });
}
