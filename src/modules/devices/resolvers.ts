import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { operatorActor } from '../audit/record.js';
import { readablePartner, requireOperator, requirePrincipal } from '../auth/principal.js';
import { column } from '../columns.js';
import { optionalText, requireId, requireText } from '../inputs.js';
import { connectionResolvers, idCursorOf, pageAfter, pageOf, pageOfList, parseIdCursor } from '../pages.js';
import { requireExistingPartner } from '../partners/guards.js';
import { withCatalogue } from './catalogue.js';
import { createDevice, createDeviceFamily, createDeviceModel } from './create.js';
import { deviceListingOf } from './listing.js';
import { devicesPrecede, listDeviceFamilies, listDevices } from './queries.js';
import { DEVICE_CURSOR, DEVICE_MODEL_CURSOR, type DeviceModelRow, type DeviceParent, IMEI } from './rows.js';

export const deviceResolvers: Resolvers = {
  Query: {
    // The catalogue is global reference data: any authenticated caller may read it.
    deviceFamilies: (_root, { first, after }, ctx, info) => {
      requirePrincipal(ctx);
      return listDeviceFamilies(ctx.reads.db, pageOf(pageSizeOf(info, first), after));
    },
    devices: async (_root, { first, after, filter, partnerId: requested }, ctx, info) => {
      // Partner keys their own partner's, operators any (decisions.md 1); retail and vendors FORBIDDEN.
      const partnerId = readablePartner(ctx, requested, ['partner']);
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(DEVICE_CURSOR, after) : undefined;
      // The filter is checked whoever asks, so a bad value is refused even where nothing could match.
      const listing = deviceListingOf(partnerId ?? null, filter, {
        policies: ctx.partnerPolicies,
        realNow: ctx.now(),
      });
      if (partnerId === undefined) return { rows: [], hasNextPage: false, previousExists: null };
      return pageAfter(
        afterId,
        limit,
        (after, count) =>
          listDevices(ctx.reads.db, listing, { after, limit: count }).then((rows) => rows.map(withCatalogue)),
        (after) => devicesPrecede(ctx.reads.db, listing, after),
      );
    },
  },
  Mutation: {
    createDeviceFamily: async (_root, { name }, ctx) => {
      requireOperator(ctx);
      return createDeviceFamily(ctx.primary, operatorActor(ctx), requireText('name', name));
    },
    createDeviceModel: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const familyId = requireId('device family', input.familyId);
      if (!(await ctx.reads.loaders.devices.familyById.load(familyId))) throw notFound('device family', familyId);
      const row = {
        family_id: familyId,
        make_model: requireText('input.makeModel', input.makeModel),
        name: requireText('input.name', input.name),
      };
      return createDeviceModel(ctx.primary, operatorActor(ctx), row);
    },
    createDevice: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.primary, input.partnerId);
      const customerId = requireId('customer', input.customerId);
      const modelId = requireId('device model', input.modelId);
      const imei = input.imei.trim();
      if (!IMEI.test(imei)) throw invalidArgument('input.imei', 'must be 15 or 16 digits');
      // The partner's customer the device is registered to (the database's key only says it exists).
      if (!(await ctx.reads.loaders.customers.byKey.load({ partnerId, id: customerId })))
        throw notFound('customer', customerId);
      const device = await createDevice(ctx.primary, operatorActor(ctx), {
        partner_id: partnerId,
        customer_id: customerId,
        model_id: modelId,
        tag: requireText('input.tag', input.tag, 64),
        imei,
        sim_number: optionalText('input.simNumber', input.simNumber, 32),
        phone_number: optionalText('input.phoneNumber', input.phoneNumber, 32),
        description: optionalText('input.description', input.description),
      });
      return withCatalogue(device);
    },
  },
  DeviceFamily: {
    // A family's models are few: read whole by the loader, paged here.
    models: async (family, { first, after }, ctx, info) => {
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(DEVICE_MODEL_CURSOR, after) : undefined;
      return pageOfList(await ctx.reads.loaders.devices.modelsOfFamily.load(family.id), limit, afterId);
    },
  },
  DeviceModelConnection: connectionResolvers((model: DeviceModelRow) => idCursorOf(DEVICE_MODEL_CURSOR, model.id)),
  DeviceConnection: connectionResolvers((device: DeviceParent) => idCursorOf(DEVICE_CURSOR, device.id)),
  DeviceModel: {
    makeModel: column('make_model'),
    family: async (model, _args, ctx) => (await ctx.reads.loaders.devices.familyById.load(model.family_id))!,
  },
  Device: {
    simNumber: column('sim_number'),
    phoneNumber: column('phone_number'),
    lastSeen: column('last_seen_at'),
    lastCheckin: (device) =>
      device.last_checkin_at
        ? { at: device.last_checkin_at, simNumber: device.last_sim_number, appVersion: device.last_app_version }
        : null,
    // Model and family come joined with the device row, made into objects as it was read (withCatalogue).
    model: column('model'),
    family: column('family'),
    customer: (device, _args, ctx) =>
      device.customer_id
        ? ctx.reads.loaders.customers.byKey.load({ partnerId: device.partner_id, id: device.customer_id })
        : null,
    // The rule devices/queries.ts silentSql filters by (decisions.md 22): the last check-in, else the
    // first order's time (the device's orders come from the loader, one statement for a page's devices).
    silentSince: async (device, _args, ctx) => {
      if (device.last_checkin_at) return device.last_checkin_at;
      const orders = await ctx.reads.loaders.financeOrders.ofDevice.load({
        partnerId: device.partner_id,
        id: device.id,
      });
      let first: Date | null = null;
      for (const order of orders) if (first === null || order.ordered_at < first) first = order.ordered_at;
      return first;
    },
    // financeOrder, validThrough, secureStatus: the device's current order's (financeOrders/resolvers.ts).
  },
};
