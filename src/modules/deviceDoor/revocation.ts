// Ending a device's credential without issuing another (docs/decisions.md 34): the door answers it 401
// from then on, and the device's payments carry no unlock code until a new one is issued. Idempotent:
// a device with no live credential is answered so, and nothing is written.
import type { Db, DbOrTrx } from '../../db/knex.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { forgetDeviceCredentials } from '../directories.js';

/** Ends the device's live credential at `now`, in the caller's transaction; whether there was one. */
export async function revokeCredential(
  trx: DbOrTrx,
  device: { partnerId: string; deviceId: string },
  now: Date,
): Promise<boolean> {
  const ended = await trx('device_credentials')
    .where({ partner_id: device.partnerId, device_id: device.deviceId })
    .whereNull('ended_at')
    .update({ ended_at: now });
  if (Number(ended) === 0) return false;
  await forgetDeviceCredentials(trx, device);
  return true;
}

/** Revokes the device's credential as `actor`: audited when one was ended, nothing written when none was live. */
export function revokeDeviceCredential(
  db: Db,
  actor: AuditActor,
  device: { partnerId: string; deviceId: string },
  now: Date,
): Promise<{ revoked: boolean }> {
  return audited(
    db,
    actor,
    async (trx) => ({ revoked: await revokeCredential(trx, device, now) }),
    ({ revoked }) =>
      revoked
        ? {
            action: 'device.credential.revoke',
            subjectKind: 'device',
            subjectId: device.deviceId,
            partnerId: device.partnerId,
            details: {},
          }
        : null,
  );
}
