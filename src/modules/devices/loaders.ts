import DataLoader from 'dataloader';
import type { DbOrTrx } from '../../db/knex.js';
import { globalIdLoader, tenantChildrenLoader, tenantKeyLoader } from '../tenancy.js';
import {
  deviceFamiliesByIds,
  deviceModelsByIds,
  deviceModelsOfFamilies,
  devicesByKeys,
  devicesOfCustomers,
} from './queries.js';
import type { DeviceFamilyRow, DeviceModelRow } from './rows.js';

export function createDeviceLoaders(db: DbOrTrx) {
  return {
    byKey: tenantKeyLoader((keys) => devicesByKeys(db, keys)),
    ofCustomer: tenantChildrenLoader(
      (customers) => devicesOfCustomers(db, customers),
      (row) => row.customer_id ?? '',
    ),
    familyById: globalIdLoader<DeviceFamilyRow>((ids) => deviceFamiliesByIds(db, ids)),
    modelById: globalIdLoader<DeviceModelRow>((ids) => deviceModelsByIds(db, ids)),
    modelsOfFamily: new DataLoader<string, DeviceModelRow[]>(async (familyIds) => {
      const rows = await deviceModelsOfFamilies(db, familyIds);
      return familyIds.map((id) => rows.filter((row) => row.family_id === id));
    }),
  };
}
