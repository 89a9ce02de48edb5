import type { DbOrTrx } from '../../db/knex.js';
import { globalIdLoader } from '../tenancy.js';
import { partnersByIds } from './queries.js';
import { partnerSettingsLoader } from './settingsLoader.js';

export function createPartnerLoaders(db: DbOrTrx) {
  return {
    byId: globalIdLoader((ids) => partnersByIds(db, ids)),
    settings: partnerSettingsLoader(db),
  };
}
