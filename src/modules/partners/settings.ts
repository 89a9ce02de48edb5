// STAND-IN: a partner's lock policy, as the split of the work names it; the foundation's file replaces this one.
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

/** One statement. */
export async function partnerSettingsOf(db: Db, partnerId: string): Promise<PartnerSettings> {
  const row = await db('partners')
    .where({ id: partnerId })
    .first('lock_grace_hours', 'lock_reminder_days', 'repayment_days', 'flexible_amount_enabled');
  if (!row) return DEFAULT_PARTNER_SETTINGS;
  return {
    lockGraceHours: row.lock_grace_hours,
    lockReminderDays: row.lock_reminder_days,
    repaymentDays: row.repayment_days,
    flexibleAmountEnabled: row.flexible_amount_enabled,
  };
}
