// Device credentials (docs/decisions.md 19): dvc_<32 random base62 characters><6-character CRC32
// checksum>, like API keys (../auth/keys.ts): the prefix tells what leaked, the checksum refuses a
// mistyped or truncated credential before any database read. Only its SHA-256 is stored, beside the
// unlock key derived from it (offline unlock codes), sealed with a key the database does not hold
// (decisions.md 35); a device has at most one live credential.
import { createHmac } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Db, DbOrTrx } from '../../db/knex.js';
import { base62, secretBase62 } from '../../kernel/base62.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { hashApiKey } from '../auth/keys.js';
import { deviceOfCredentialHash, recordDeviceCredential } from '../directories.js';
import type { UnlockKeySealer } from '../unlockCodes/sealing.js';
import { revokeCredential } from './revocation.js';

const PREFIX = 'dvc_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const SHAPE = /^dvc_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;
/** The message of the unlock key's HMAC: a device derives the same key from its credential. */
const UNLOCK_KEY_MESSAGE = 'dfs-unlock-key-v1';

function checksumOf(text: string): string {
  return base62(crc32(Buffer.from(text, 'utf8')) >>> 0, CHECKSUM_LENGTH);
}

/** A new random credential: ~190 random bits, prefix, checksum. */
export function generateDeviceCredential(): string {
  const head = `${PREFIX}${secretBase62(BODY_LENGTH)}`;
  return `${head}${checksumOf(head)}`;
}

/** Whether `credential` has the shape and checksum of one the service generated (no read). */
export function couldBeDeviceCredential(credential: string): boolean {
  const match = SHAPE.exec(credential);
  return match !== null && checksumOf(`${PREFIX}${match[1]}`) === match[2];
}

/** HMAC-SHA256(key = the credential's text, message = "dfs-unlock-key-v1"), hex. */
export function unlockKeyOfCredential(credential: string): string {
  return createHmac('sha256', credential).update(UNLOCK_KEY_MESSAGE, 'utf8').digest('hex');
}

/** The device a credential opens, or null (a typo is refused by its checksum before any read). */
export async function deviceOfCredential(
  db: DbOrTrx,
  credential: string,
): Promise<{ partnerId: string; deviceId: string } | null> {
  if (!couldBeDeviceCredential(credential)) return null;
  // The global directory holds live credentials only (decisions.md 48): one primary-key lookup, whatever the partner.
  return (await deviceOfCredentialHash(db, hashApiKey(credential))) ?? null;
}

/**
 * Issues a new credential for a device, in the caller's transaction: ends the live one (if any), stores
 * the new one's hash and its unlock key sealed by `unlockKeys` (bound to the row: decisions.md 35), and
 * clears the enrolled SIM (the next check-in enrols its SIM). Returns the credential (shown once) and
 * whether a previous one was ended.
 */
async function issueCredential(
  trx: DbOrTrx,
  device: { partnerId: string; deviceId: string },
  now: Date,
  unlockKeys: UnlockKeySealer,
): Promise<{ credential: string; replacedPrevious: boolean }> {
  // Ending the live one is a revocation's one write (its row and its directory entry), not a second copy of it.
  const replacedPrevious = await revokeCredential(trx, device, now);
  const credential = generateDeviceCredential();
  const keyHash = hashApiKey(credential);
  await trx('device_credentials').insert({
    partner_id: device.partnerId,
    device_id: device.deviceId,
    key_hash: keyHash,
    unlock_key_sealed: unlockKeys.seal(unlockKeyOfCredential(credential), {
      partnerId: device.partnerId,
      deviceId: device.deviceId,
      credentialKeyHash: keyHash,
    }),
    created_at: now,
  });
  await recordDeviceCredential(trx, { key_hash: keyHash, partner_id: device.partnerId, device_id: device.deviceId });
  await trx('devices')
    .where({ partner_id: device.partnerId, id: device.deviceId })
    .update({ enrolled_sim_number: null });
  return { credential, replacedPrevious };
}

/** Issues a device's credential as `actor`, audited in the same transaction (never the credential). */
export function issueDeviceCredential(
  db: Db,
  actor: AuditActor,
  device: { partnerId: string; deviceId: string },
  now: Date,
  unlockKeys: UnlockKeySealer,
): Promise<{ credential: string; replacedPrevious: boolean }> {
  return audited(
    db,
    actor,
    (trx) => issueCredential(trx, device, now, unlockKeys),
    (issued) => ({
      action: 'device.credential.issue',
      subjectKind: 'device',
      subjectId: device.deviceId,
      partnerId: device.partnerId,
      // Never the credential, its hash or its unlock key.
      details: { replacedPrevious: issued.replacedPrevious },
    }),
  );
}
