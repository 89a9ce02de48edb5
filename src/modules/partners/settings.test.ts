import { describe, expect, it } from 'vitest';
import { changedSettings, DEFAULT_PARTNER_SETTINGS, settingsOfColumns } from './settings.js';

describe('changedSettings', () => {
  it('keeps what is not given, and orders reminders furthest first, repayment days shortest first', () => {
    expect(changedSettings(DEFAULT_PARTNER_SETTINGS, { lockReminderDays: [1, 7, 3], repaymentDays: [30, 1] })).toEqual({
      lockGraceHours: 0,
      lockReminderDays: [7, 3, 1],
      repaymentDays: [1, 30],
      flexibleAmountEnabled: true,
      offlineLockDays: 7,
      simControlEnabled: false,
      reversalWindowHours: 72,
    });
    expect(changedSettings(DEFAULT_PARTNER_SETTINGS, { offlineLockDays: 90, simControlEnabled: true })).toEqual({
      ...DEFAULT_PARTNER_SETTINGS,
      offlineLockDays: 90,
      simControlEnabled: true,
    });
    expect(changedSettings(DEFAULT_PARTNER_SETTINGS, { lockGraceHours: null, flexibleAmountEnabled: false })).toEqual({
      ...DEFAULT_PARTNER_SETTINGS,
      flexibleAmountEnabled: false,
    });
  });

  it('takes the bounds themselves: grace 0 and 720, no reminder, 10 entries, 30 and 366 days', () => {
    const ten = Array.from({ length: 10 }, (_, index) => index + 1);
    expect(
      changedSettings(DEFAULT_PARTNER_SETTINGS, { lockGraceHours: 720, lockReminderDays: [] }).lockGraceHours,
    ).toBe(720);
    expect(
      changedSettings(DEFAULT_PARTNER_SETTINGS, { lockReminderDays: [...ten.slice(0, 9), 30] }).lockReminderDays,
    ).toHaveLength(10);
    expect(
      changedSettings(DEFAULT_PARTNER_SETTINGS, { repaymentDays: [...ten.slice(0, 9), 366] }).repaymentDays,
    ).toHaveLength(10);
  });

  it.each([
    [{ lockGraceHours: -1 }],
    [{ lockGraceHours: 721 }],
    [{ lockGraceHours: 1.5 }],
    [{ lockReminderDays: [31] }],
    [{ lockReminderDays: [0] }],
    [{ lockReminderDays: [2, 2] }],
    [{ repaymentDays: [] }],
    [{ repaymentDays: [367] }],
    [{ offlineLockDays: 0 }],
    [{ offlineLockDays: 91 }],
    [{ offlineLockDays: 2.5 }],
    [{ repaymentDays: Array.from({ length: 11 }, (_, index) => index + 1) }],
  ])('refuses %j with INVALID_PARTNER_SETTINGS', (change) => {
    expect(() => changedSettings(DEFAULT_PARTNER_SETTINGS, change)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARTNER_SETTINGS' }),
    );
  });
});

describe('settingsOfColumns', () => {
  it('reads int[] as an array or as its text form', () => {
    const columns = {
      lock_grace_hours: 2,
      repayment_days: '{7,30}',
      flexible_amount_enabled: false,
      offline_lock_days: 3,
      sim_control_enabled: true,
      reversal_window_hours: 24,
    };
    expect(settingsOfColumns({ ...columns, lock_reminder_days: [3, 1] })).toEqual({
      lockGraceHours: 2,
      lockReminderDays: [3, 1],
      repaymentDays: [7, 30],
      flexibleAmountEnabled: false,
      offlineLockDays: 3,
      simControlEnabled: true,
      reversalWindowHours: 24,
    });
    expect(settingsOfColumns({ ...columns, lock_reminder_days: '{}' }).lockReminderDays).toEqual([]);
  });
});
