import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument, notFound } from '../../errors.js';
import { pageSizeOf } from '../../listSize.js';
import { pageOf } from '../pages.js';
import { requireOperator, requirePrincipal } from '../auth/principal.js';
import { IMEI } from '../customers/locate.js';
import { customersByKeys } from '../customers/queries.js';
import { standingOf } from '../financeOrders/terms.js';
import { isUniqueViolation, optionalText, requireId, requireText } from '../inputs.js';
import { audited, operatorActor } from '../audit/record.js';
import { insertAuditEvent } from '../audit/queries.js';
import { requireExistingPartner } from '../partners/guards.js';
import type { Context } from '../../context.js';
import { deviceModelsByIds, insertDevice, insertDeviceFamily, insertDeviceModel, listDeviceFamilies } from './queries.js';
import type { DeviceRow } from './rows.js';

/** The device's current order: the newest one financing it. */
async function currentOrder(device: DeviceRow, ctx: Context) {
  const [newest] = await ctx.loaders.financeOrders.ofDevice.load({ partnerId: device.partner_id, id: device.id });
  return newest ?? null;
}

async function currentStanding(device: DeviceRow, ctx: Context) {
  const order = await currentOrder(device, ctx);
  return order ? standingOf(order, ctx.now()) : null;
}

export const deviceResolvers: Resolvers = {
  Query: {
    // The catalogue is global reference data: any authenticated caller may read it.
    deviceFamilies: (_root, { first, after }, ctx, info) => {
      requirePrincipal(ctx);
      return listDeviceFamilies(ctx.db, pageOf(pageSizeOf(info, first), after));
    },
  },
  Mutation: {
    createDeviceFamily: async (_root, { name }, ctx) => {
      requireOperator(ctx);
      const familyName = requireText('name', name);
      try {
        return await audited(
          ctx,
          (trx) => insertDeviceFamily(trx, familyName),
          (family) => ({ action: 'device_family.create', subjectKind: 'device_family', subjectId: family.id, details: { name: familyName } }),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw invalidArgument('name', 'is already a device family');
        throw error;
      }
    },
    createDeviceModel: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const familyId = requireId('device family', input.familyId);
      if (!(await ctx.loaders.devices.familyById.load(familyId))) throw notFound('device family', familyId);
      const row = { family_id: familyId, make_model: requireText('input.makeModel', input.makeModel), name: requireText('input.name', input.name) };
      try {
        return await audited(
          ctx,
          (trx) => insertDeviceModel(trx, row),
          (model) => ({ action: 'device_model.create', subjectKind: 'device_model', subjectId: model.id, details: { familyId, makeModel: model.make_model } }),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw invalidArgument('input.makeModel', 'is already a device model');
        throw error;
      }
    },
    createDevice: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.db, input.partnerId);
      const customerId = requireId('customer', input.customerId);
      const modelId = requireId('device model', input.modelId);
      const imei = input.imei.trim();
      if (!IMEI.test(imei)) throw invalidArgument('input.imei', 'must be 15 or 16 digits');
      const actor = operatorActor(ctx);
      return ctx.db.transaction(async (trx) => {
        const [customer] = await customersByKeys(trx, [{ partnerId, id: customerId }]);
        if (!customer) throw notFound('customer', customerId);
        const [model] = await deviceModelsByIds(trx, [modelId]);
        if (!model) throw notFound('device model', modelId);
        try {
          const device = await insertDevice(trx, {
            partner_id: partnerId,
            customer_id: customerId,
            model_id: modelId,
            tag: requireText('input.tag', input.tag, 64),
            imei,
            sim_number: optionalText('input.simNumber', input.simNumber, 32),
            phone_number: optionalText('input.phoneNumber', input.phoneNumber, 32),
            description: optionalText('input.description', input.description),
          });
          await insertAuditEvent(trx, actor, { action: 'device.create', subjectKind: 'device', subjectId: device.id, partnerId, details: { tag: device.tag, modelId } });
          return device;
        } catch (error) {
          if (isUniqueViolation(error)) throw invalidArgument('input', 'names an IMEI or device tag that is already registered');
          throw error;
        }
      });
    },
  },
  DeviceFamily: {
    models: async (family, { first }, ctx, info) => (await ctx.loaders.devices.modelsOfFamily.load(family.id)).slice(0, pageSizeOf(info, first)),
  },
  DeviceModel: {
    makeModel: (model) => model.make_model,
    family: async (model, _args, ctx) => (await ctx.loaders.devices.familyById.load(model.family_id))!,
  },
  Device: {
    simNumber: (device) => device.sim_number,
    phoneNumber: (device) => device.phone_number,
    lastSeen: (device) => device.last_seen_at,
    // Model and family come joined with the device row: no further query.
    model: (device) => ({ id: device.model_id, family_id: device.family_id, make_model: device.model_make_model, name: device.model_name }),
    family: (device) => ({ id: device.family_id, name: device.family_name }),
    customer: (device, _args, ctx) => (device.customer_id ? ctx.loaders.customers.byKey.load({ partnerId: device.partner_id, id: device.customer_id }) : null),
    financeOrder: (device, _args, ctx) => currentOrder(device, ctx),
    validThrough: async (device, _args, ctx) => (await currentStanding(device, ctx))?.paidThrough ?? null,
    secureStatus: async (device, _args, ctx) => (await currentStanding(device, ctx))?.secureStatus ?? null,
  },
};
