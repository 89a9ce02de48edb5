import DataLoader from 'dataloader';
import type { DbOrTrx } from '../../db/knex.js';
import { globalIdLoader, tenantChildrenLoader, tenantKeyLoader } from '../tenancy.js';
import { withCatalogue } from './catalogue.js';
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
    // The devices the graph answers: each with its model and family (catalogue.ts).
    byKey: tenantKeyLoader((keys) => devicesByKeys(db, keys).then((rows) => rows.map(withCatalogue))),
    ofCustomer: tenantChildrenLoader(
      (customers) => devicesOfCustomers(db, customers).then((rows) => rows.map(withCatalogue)),
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
