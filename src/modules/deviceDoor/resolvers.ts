// The graph's side of the device door (docs/decisions.md 19): one device by id or tag, and a device's
// credential issued (shown once, audited without it) or revoked (34).
import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import type { Context } from '../../pipeline/context.js';
import { callerActor } from '../audit/record.js';
import { readablePartner } from '../auth/principal.js';
import { withCatalogue } from '../devices/catalogue.js';
import { deviceById, findDevice } from '../devices/queries.js';
import type { DeviceParent } from '../devices/rows.js';
import { issueDeviceCredential } from './credentials.js';
import { revokeDeviceCredential } from './revocation.js';

/** The device a credential mutation names: operators any, partner and retail keys their own partner's (another's is "not found"). */
async function credentialDevice(ctx: Context, deviceId: string): Promise<DeviceParent> {
  const partnerId = readablePartner(ctx, null);
  const device =
    partnerId === undefined || !isDatabaseId(deviceId) ? undefined : await deviceById(ctx.primary, deviceId, partnerId);
  if (!device) throw notFound('device', deviceId);
  return withCatalogue(device);
}

export const deviceDoorResolvers: Resolvers = {
  Query: {
    device: async (_root, { id, tag }, ctx) => {
      if ((id == null) === (tag == null)) throw invalidArgument('id', 'give exactly one of id and tag');
      const partnerId = readablePartner(ctx, null);
      if (partnerId === undefined) return null;
      if (id != null) {
        if (!isDatabaseId(id)) return null;
        if (partnerId !== null) return ctx.reads.loaders.devices.byKey.load({ partnerId, id });
        const device = await deviceById(ctx.reads.db, id, null);
        return device ? withCatalogue(device) : null;
      }
      const device = await findDevice(ctx.reads.db, 'tag', tag!, partnerId);
      return device ? withCatalogue(device) : null;
    },
  },
  Mutation: {
    issueDeviceCredential: async (_root, { deviceId }, ctx) => {
      const device = await credentialDevice(ctx, deviceId);
      const now = ctx.partnerPolicies.nowFor(device.partner_id);
      const { credential } = await issueDeviceCredential(
        ctx.primary,
        callerActor(ctx),
        { partnerId: device.partner_id, deviceId: device.id },
        now,
        ctx.unlockKeys,
      );
      return { credential, device };
    },
    revokeDeviceCredential: async (_root, { deviceId }, ctx) => {
      const device = await credentialDevice(ctx, deviceId);
      const now = ctx.partnerPolicies.nowFor(device.partner_id);
      const { revoked } = await revokeDeviceCredential(
        ctx.primary,
        callerActor(ctx),
        { partnerId: device.partner_id, deviceId: device.id },
        now,
      );
      return { revoked, device };
    },
  },
};
