// The device catalogue (families and models, global) and a partner's devices: each created with its
// audit record in one transaction; a name, IMEI or tag already taken is refused by name.
import type { Db } from '../../db/knex.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { isUniqueViolation } from '../inputs.js';
import { deviceModelsByIds, insertDevice, insertDeviceFamily, insertDeviceModel } from './queries.js';
import type { DeviceFamilyRow, DeviceModelRow, DeviceRow } from './rows.js';

/** A unique violation as the argument it concerns; any other error as it is. */
function refusedAsTaken(error: unknown, argument: string, problem: string): unknown {
  return isUniqueViolation(error) ? invalidArgument(argument, problem) : error;
}

export async function createDeviceFamily(db: Db, actor: AuditActor, name: string): Promise<DeviceFamilyRow> {
  try {
    return await audited(
      db,
      actor,
      (trx) => insertDeviceFamily(trx, name),
      (family) => ({
        action: 'device_family.create',
        subjectKind: 'device_family',
        subjectId: family.id,
        details: { name },
      }),
    );
  } catch (error) {
    throw refusedAsTaken(error, 'name', 'is already a device family');
  }
}

export async function createDeviceModel(
  db: Db,
  actor: AuditActor,
  model: Omit<DeviceModelRow, 'id'>,
): Promise<DeviceModelRow> {
  try {
    return await audited(
      db,
      actor,
      (trx) => insertDeviceModel(trx, model),
      (row) => ({
        action: 'device_model.create',
        subjectKind: 'device_model',
        subjectId: row.id,
        details: { familyId: model.family_id, makeModel: row.make_model },
      }),
    );
  } catch (error) {
    throw refusedAsTaken(error, 'input.makeModel', 'is already a device model');
  }
}

/** A new device always has its holder: the customer it is registered to. */
type NewDevice = Parameters<typeof insertDevice>[1] & { customer_id: string };

/**
 * A device of one of the partner's customers (the caller found the customer), of a model in the
 * catalogue (else RESOURCE_NOT_FOUND).
 */
export async function createDevice(db: Db, actor: AuditActor, device: NewDevice): Promise<DeviceRow> {
  const { partner_id: partnerId, model_id: modelId } = device;
  try {
    return await audited(
      db,
      actor,
      async (trx) => {
        const [model] = await deviceModelsByIds(trx, [modelId]);
        if (!model) throw notFound('device model', modelId);
        return insertDevice(trx, device);
      },
      (row) => ({
        action: 'device.create',
        subjectKind: 'device',
        subjectId: row.id,
        partnerId,
        details: { tag: row.tag, modelId },
      }),
    );
  } catch (error) {
    throw refusedAsTaken(error, 'input', 'names an IMEI or device tag that is already registered');
  }
}
