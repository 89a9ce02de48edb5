// A partner's lock policy (decisions.md 15): the grace after paid-through before a device locks, the
// reminders before the lock, the repayment options in days, and whether any amount may be paid. The
// rules of the values, their defaults, and their reading; the change itself is ../partnerPolicy/changes.ts.
import type { DbOrTrx } from '../../db/knex.js';
import { AppError } from '../../kernel/errors.js';

export interface PartnerSettings {
  lockGraceHours: number;
  lockReminderDays: readonly number[];
  repaymentDays: readonly number[];
  flexibleAmountEnabled: boolean;
  /** Days a device may go without checking in before it locks by itself (decisions.md 19). */
  offlineLockDays: number;
  /** Whether a SIM other than the enrolled one locks the device at check-in. */
  simControlEnabled: boolean;
  /** Hours a payment may be reversed after it is received, and a payoff's release waits (decisions.md 44). */
  reversalWindowHours: number;
}

/** The graph's PartnerSettings object. */
export type PartnerSettingsParent = PartnerSettings;

export const DEFAULT_PARTNER_SETTINGS: PartnerSettings = Object.freeze({
  lockGraceHours: 0,
  lockReminderDays: Object.freeze([3, 1]),
  repaymentDays: Object.freeze([7, 30]),
  flexibleAmountEnabled: true,
  offlineLockDays: 7,
  simControlEnabled: false,
  reversalWindowHours: 72,
});

/** The columns of `partners` that hold the settings, as the database gives them. */
export interface PartnerSettingsColumns {
  lock_grace_hours: number;
  lock_reminder_days: unknown;
  repayment_days: unknown;
  flexible_amount_enabled: boolean;
  offline_lock_days: number;
  sim_control_enabled: boolean;
  reversal_window_hours: number;
}

export const PARTNER_SETTINGS_COLUMNS = [
  'lock_grace_hours',
  'lock_reminder_days',
  'repayment_days',
  'flexible_amount_enabled',
  'offline_lock_days',
  'sim_control_enabled',
  'reversal_window_hours',
] as const;

/** The bounds of each setting: the mutation's checks, the migration's constraints say the same. */
const SETTINGS_BOUNDS = {
  lockGraceHours: { min: 0, max: 720 },
  lockReminderDays: { entries: 10, minEntries: 0, min: 1, max: 30 },
  repaymentDays: { entries: 10, minEntries: 1, min: 1, max: 366 },
  offlineLockDays: { min: 1, max: 90 },
  reversalWindowHours: { min: 0, max: 720 },
} as const;

/** An int[] as either driver gives it: an array (pg, PGlite) or its text form ("{3,1}"). */
function intArray(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(Number);
  if (typeof value === 'string') {
    const inner = value.replace(/^\{|\}$/g, '');
    return inner === '' ? [] : inner.split(',').map(Number);
  }
  throw new Error(`an int[] column held ${typeof value}`);
}

export function settingsOfColumns(row: PartnerSettingsColumns): PartnerSettings {
  return {
    lockGraceHours: Number(row.lock_grace_hours),
    lockReminderDays: intArray(row.lock_reminder_days),
    repaymentDays: intArray(row.repayment_days),
    flexibleAmountEnabled: Boolean(row.flexible_amount_enabled),
    offlineLockDays: Number(row.offline_lock_days),
    simControlEnabled: Boolean(row.sim_control_enabled),
    reversalWindowHours: Number(row.reversal_window_hours),
  };
}

export function columnsOfSettings(settings: PartnerSettings): PartnerSettingsColumns {
  return {
    lock_grace_hours: settings.lockGraceHours,
    lock_reminder_days: [...settings.lockReminderDays],
    repayment_days: [...settings.repaymentDays],
    flexible_amount_enabled: settings.flexibleAmountEnabled,
    offline_lock_days: settings.offlineLockDays,
    sim_control_enabled: settings.simControlEnabled,
    reversal_window_hours: settings.reversalWindowHours,
  };
}

/** One statement: the partner's settings as stored (the defaults for a partner that does not exist). */
export async function partnerSettingsOf(db: DbOrTrx, partnerId: string): Promise<PartnerSettings> {
  const row = (await db('partners')
    .where({ id: partnerId })
    .first(...PARTNER_SETTINGS_COLUMNS)) as PartnerSettingsColumns | undefined;
  return row ? settingsOfColumns(row) : DEFAULT_PARTNER_SETTINGS;
}

/** What each instance knows of the partners' settings, without a statement (policies.ts). */
export interface PartnerSettingsSource {
  settingsFor(partnerId: string): PartnerSettings;
}

const invalidPartnerSettings = (field: string, problem: string) =>
  new AppError('INVALID_PARTNER_SETTINGS', `the ${field} setting ${problem}`, { field });

/** A change of settings as the mutation takes it: a field absent or null keeps its value. */
export interface PartnerSettingsChange {
  lockGraceHours?: number | null;
  lockReminderDays?: readonly number[] | null;
  repaymentDays?: readonly number[] | null;
  flexibleAmountEnabled?: boolean | null;
  offlineLockDays?: number | null;
  simControlEnabled?: boolean | null;
  reversalWindowHours?: number | null;
}

function checkDays(
  field: string,
  days: readonly number[],
  bounds: (typeof SETTINGS_BOUNDS)['repaymentDays' | 'lockReminderDays'],
) {
  if (days.length > bounds.entries)
    throw invalidPartnerSettings(field, `has ${days.length} entries; at most ${bounds.entries}`);
  if (days.length < bounds.minEntries) throw invalidPartnerSettings(field, `needs at least ${bounds.minEntries} entry`);
  for (const day of days) {
    if (!Number.isInteger(day) || day < bounds.min || day > bounds.max)
      throw invalidPartnerSettings(
        field,
        `holds ${day}; each entry is a whole number of days from ${bounds.min} to ${bounds.max}`,
      );
  }
  if (new Set(days).size !== days.length) throw invalidPartnerSettings(field, 'holds an entry twice');
}

/** A setting that is a whole number within its bounds, or INVALID_PARTNER_SETTINGS naming it. */
function checkWhole(
  field: 'lockGraceHours' | 'offlineLockDays' | 'reversalWindowHours',
  value: number,
  unit: 'hours' | 'days',
): number {
  const { min, max } = SETTINGS_BOUNDS[field];
  if (!Number.isInteger(value) || value < min || value > max)
    throw invalidPartnerSettings(field, `is ${value}; it must be a whole number of ${unit} from ${min} to ${max}`);
  return value;
}

/**
 * The settings after `change`, or INVALID_PARTNER_SETTINGS naming the first bad field (nothing is
 * changed then). Reminders are kept furthest first, repayment days shortest first.
 */
export function changedSettings(current: PartnerSettings, change: PartnerSettingsChange): PartnerSettings {
  const grace = checkWhole('lockGraceHours', change.lockGraceHours ?? current.lockGraceHours, 'hours');
  const offlineLockDays = checkWhole('offlineLockDays', change.offlineLockDays ?? current.offlineLockDays, 'days');
  const reversalWindowHours = checkWhole(
    'reversalWindowHours',
    change.reversalWindowHours ?? current.reversalWindowHours,
    'hours',
  );
  const reminders = change.lockReminderDays ?? current.lockReminderDays;
  checkDays('lockReminderDays', reminders, SETTINGS_BOUNDS.lockReminderDays);
  const repayment = change.repaymentDays ?? current.repaymentDays;
  checkDays('repaymentDays', repayment, SETTINGS_BOUNDS.repaymentDays);
  return {
    lockGraceHours: grace,
    lockReminderDays: [...reminders].sort((a, b) => b - a),
    repaymentDays: [...repayment].sort((a, b) => a - b),
    flexibleAmountEnabled: change.flexibleAmountEnabled ?? current.flexibleAmountEnabled,
    offlineLockDays,
    simControlEnabled: change.simControlEnabled ?? current.simControlEnabled,
    reversalWindowHours,
  };
}
