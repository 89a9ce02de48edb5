// STAND-IN (owner F): the partner's lock policy, with this signature; the coordinator keeps F's version.
import type { Db } from '../../db/knex.js';

export interface PartnerSettings {
  lockGraceHours: number;
  lockReminderDays: readonly number[];
  repaymentDays: readonly number[];
  flexibleAmountEnabled: boolean;
}

export const DEFAULT_PARTNER_SETTINGS: PartnerSettings = {
  lockGraceHours: 0,
  lockReminderDays: [3, 1],
  repaymentDays: [7, 30],
  flexibleAmountEnabled: true,
};

/** One statement (F's reads the partner's columns; this stand-in answers the defaults). */
export async function partnerSettingsOf(_db: Db, _partnerId: string): Promise<PartnerSettings> {
  return DEFAULT_PARTNER_SETTINGS;
}
