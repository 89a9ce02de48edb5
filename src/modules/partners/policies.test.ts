import { describe, expect, it } from 'vitest';
import { PartnerPolicies, type PartnerPolicy } from './policies.js';
import { DEFAULT_PARTNER_SETTINGS } from './settings.js';

const REAL = new Date('2026-11-27T12:00:00Z');
const policy = (revision: string, offsetMs: number | null, lockGraceHours = 0): PartnerPolicy => ({
  partnerId: '1',
  revision,
  settings: { ...DEFAULT_PARTNER_SETTINGS, lockGraceHours },
  offsetMs,
});

describe('PartnerPolicies', () => {
  it('gives a partner on a sandbox clock real time plus its offset, and every other partner real time', () => {
    const policies = new PartnerPolicies(() => REAL, false);
    policies.apply(policy('1', 3_600_000));
    expect(policies.nowFor('1')).toEqual(new Date(REAL.getTime() + 3_600_000));
    expect(policies.nowFor('2')).toEqual(REAL);
    expect(policies.sandboxClockOf('1')).toEqual({ partnerId: '1', now: policies.nowFor('1'), realNow: REAL });
    expect(policies.sandboxClockOf('2')).toBeNull();
  });

  it('applies policies in revision order: an older one heard late changes nothing', () => {
    const policies = new PartnerPolicies(() => REAL, false);
    policies.apply(policy('3', null, 48));
    policies.apply(policy('2', 1000, 24));
    expect(policies.settingsFor('1').lockGraceHours).toBe(48);
    expect(policies.offsetOf('1')).toBeNull();
    policies.apply(policy('10', 5, 1));
    expect(policies.offsetOf('1')).toBe(5);
  });

  it('in production keeps every clock real, and the settings still apply', () => {
    const policies = new PartnerPolicies(() => REAL, true);
    policies.apply(policy('1', 3_600_000, 12));
    expect(policies.nowFor('1')).toEqual(REAL);
    expect(policies.sandboxOffsets().size).toBe(0);
    expect(policies.settingsFor('1').lockGraceHours).toBe(12);
  });
});
