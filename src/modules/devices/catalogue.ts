// A device's catalogue model and family as the graph answers them: objects made from the columns its
// row joins (deviceSources), once, as the row is read, so the executor reads Device.model and
// Device.family as columns instead of calling a resolver for each (decisions.md 47).
import type { ComputedField } from '../../db/joinedRows.js';
import type { DeviceFamilyRow, DeviceModelRow, DeviceParent, DeviceRow } from './rows.js';

const modelOf = (id: string, familyId: string, makeModel: string, name: string): DeviceModelRow => ({
  id,
  family_id: familyId,
  make_model: makeModel,
  name,
});

const familyOf = (id: string, name: string): DeviceFamilyRow => ({ id, name });

/** The two, as fields a row reader makes from the joined columns (a listing's, for the device it joins). */
export const DEVICE_CATALOGUE: readonly ComputedField[] = [
  { name: 'model', from: ['model_id', 'family_id', 'model_make_model', 'model_name'], compute: modelOf },
  { name: 'family', from: ['family_id', 'family_name'], compute: familyOf },
];

/** A device's row with its model and family, as the graph answers a Device from it. */
export function withCatalogue(row: DeviceRow): DeviceParent {
  return {
    ...row,
    model: modelOf(row.model_id, row.family_id, row.model_make_model, row.model_name),
    family: familyOf(row.family_id, row.family_name),
  };
}
