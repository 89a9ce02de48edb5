// Partners' settings for many orders at once: FinanceOrder.repayment of a page of orders reads its
// partners' settings in one statement per request, not one per order.
import DataLoader from 'dataloader';
import type { DbOrTrx } from '../../db/knex.js';
import type { PartnerSettings } from './settings.js';

interface SettingsColumns {
  id: string;
  lock_grace_hours: number;
  lock_reminder_days: number[];
  repayment_days: number[];
  flexible_amount_enabled: boolean;
}

const settingsOf = (row: SettingsColumns): PartnerSettings => ({
  lockGraceHours: row.lock_grace_hours,
  lockReminderDays: row.lock_reminder_days,
  repaymentDays: row.repayment_days,
  flexibleAmountEnabled: row.flexible_amount_enabled,
});

/** The settings of partners by id; an id with no partner is absent. */
export async function partnerSettingsByIds(db: DbOrTrx, ids: readonly string[]): Promise<Map<string, PartnerSettings>> {
  const rows = await db<SettingsColumns>('partners')
    .select('id', 'lock_grace_hours', 'lock_reminder_days', 'repayment_days', 'flexible_amount_enabled')
    .whereIn('id', ids);
  return new Map(rows.map((row) => [String(row.id), settingsOf(row)]));
}

/** A request's loader of partners' settings (an order's partner always exists: its key references it). */
export function partnerSettingsLoader(db: DbOrTrx) {
  return new DataLoader<string, PartnerSettings>(async (ids) => {
    const found = await partnerSettingsByIds(db, ids);
    return ids.map((id) => found.get(id) ?? new Error(`partner ${id} has no row`));
  });
}
