// The code maker held to decisions.md 21's worked example: devices in the field check codes by that
// text, so any change to the layout, truncation or check digit must fail here first.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { groupedUnlockCode, hoursFieldOf, luhnCheckDigit, releaseCodeOf, unlockCodeOf } from './codes.js';

const KEY = createHmac('sha256', 'dvc_example_credential').update('dfs-unlock-key-v1').digest('hex');
const LOCK_AT = Date.parse('2026-07-15T10:20:00Z') / 1000;

describe('unlock codes', () => {
  it("make decisions.md 21's worked example", () => {
    expect(KEY).toBe('bae434ad4a5b0047bcff0ad2535c083f26a77554e60a55f66f9b3793e0d8aa96');
    expect(hoursFieldOf(LOCK_AT)).toBe(4691);
    expect(unlockCodeOf(KEY, 'DTSTBBB', LOCK_AT, 7)).toBe('070046911590667');
    expect(groupedUnlockCode('070046911590667')).toBe('07004 69115 90667');
    expect(releaseCodeOf(KEY, 'DTSTBBB', 8)).toBe('089999990967470');
  });

  it('round the deadline up to the hour: never less than lockAt, on the hour unchanged', () => {
    const onTheHour = Date.parse('2026-07-15T11:00:00Z') / 1000;
    expect(hoursFieldOf(onTheHour)).toBe(4691);
    expect(hoursFieldOf(onTheHour + 1)).toBe(4692);
  });

  it('change with every input, and take only a counter from 1 to 2^32 - 1 and a 64-digit hex key', () => {
    const code = unlockCodeOf(KEY, 'DTSTBBB', LOCK_AT, 7);
    expect(unlockCodeOf(KEY, 'DTSTBBC', LOCK_AT, 7)).not.toBe(code);
    expect(unlockCodeOf(KEY, 'DTSTBBB', LOCK_AT, 107).slice(8)).not.toBe(code.slice(8));
    expect(() => unlockCodeOf(KEY, 'DTSTBBB', LOCK_AT, 0)).toThrow(RangeError);
    expect(() => unlockCodeOf(KEY, 'DTSTBBB', LOCK_AT, 2 ** 32)).toThrow(RangeError);
    expect(() => unlockCodeOf('not-a-key', 'DTSTBBB', LOCK_AT, 1)).toThrow(RangeError);
  });

  it('check digit: the Luhn rule (7992739871 takes 3)', () => {
    expect(luhnCheckDigit('7992739871')).toBe('3');
  });
});
