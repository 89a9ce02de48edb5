import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { callerActor } from '../audit/record.js';
import { readablePartner } from '../auth/principal.js';
import { connectionResolvers, pageAfter } from '../pages.js';
import { checkedCommand } from './inputs.js';
import { commandDeviceById, commandsOfDevice, commandsPrecede } from './queries.js';
import { commandStatusOf, type DeviceCommandRow } from './rows.js';
import { sendDeviceCommand } from './send.js';

export const deviceCommandResolvers: Resolvers = {
  Mutation: {
    sendDeviceCommand: async (_root, { input }, ctx) => {
      // Operators (null: any partner's device) and partner keys; retail and vendor keys are FORBIDDEN.
      const partnerId = readablePartner(ctx, null, ['partner'])!;
      // The input first: a refusal reads nothing and writes nothing (decisions.md 20).
      checkedCommand(input);
      // Another partner's device is not found, never forbidden (decisions.md 1).
      const device = isDatabaseId(input.deviceId)
        ? await commandDeviceById(ctx.primary, input.deviceId, partnerId)
        : undefined;
      if (!device) throw notFound('device', input.deviceId);
      return sendDeviceCommand(
        ctx.primary,
        callerActor(ctx),
        device,
        input,
        ctx.partnerPolicies.nowFor(device.partner_id),
      );
    },
  },
  DeviceCommand: {
    status: (command, _args, ctx) => commandStatusOf(command, ctx.partnerPolicies.nowFor(command.partner_id)),
    createdAt: (command) => command.created_at,
    deliveredAt: (command) => command.delivered_at,
    acknowledgedAt: (command) => command.acknowledged_at,
  },
  // A command's cursor is its id: Device.commands takes it back as `after`.
  DeviceCommandConnection: connectionResolvers((command: DeviceCommandRow) => command.id),
  Device: {
    // Whoever reached the device reads its commands: a page of them in SQL, newest first.
    commands: (device, { first, after }, ctx, info) => {
      const limit = pageSizeOf(info, first);
      if (after != null && !isDatabaseId(after))
        throw invalidArgument('after', 'must be the id of the last command of the previous page');
      const key = { partnerId: device.partner_id, id: device.id };
      return pageAfter(
        after ?? undefined,
        limit,
        (before, count) => commandsOfDevice(ctx.reads.db, key, before, count),
        (before) => commandsPrecede(ctx.reads.db, key, before),
      );
    },
  },
};
