import { describe, expect, it } from 'vitest';
import { EVENT_ID, newEventId } from './ids.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const decode62 = (text: string) => [...text].reduce((value, char) => value * 62 + ALPHABET.indexOf(char), 0);

describe('event ids', () => {
  it('carry the time in milliseconds first, so they sort by the time they were made', () => {
    const at = new Date('2026-11-24T22:51:07.123Z');
    const id = newEventId(at);
    expect(id).toMatch(EVENT_ID);
    expect(decode62(id.slice(4, 14))).toBe(at.getTime());
    const later = newEventId(new Date(at.getTime() + 1));
    expect(later > id).toBe(true);
  });

  it('are unique within one millisecond, across many draws of the random pool', () => {
    const at = new Date();
    const ids = new Set(Array.from({ length: 20_000 }, () => newEventId(at)));
    expect(ids.size).toBe(20_000);
  });

  it('use every character of the alphabet about equally in their random part', () => {
    const counts = new Map<string, number>();
    const at = new Date();
    for (let i = 0; i < 12_500; i++)
      for (const char of newEventId(at).slice(14)) counts.set(char, (counts.get(char) ?? 0) + 1);
    // 200,000 characters: 3,226 each if uniform (a standard deviation of about 56). The bias of
    // taking a byte modulo 62 without skipping 248..255 would give 0..7 a quarter more each (5 bytes in 256, not 4).
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(Math.abs(count - 200_000 / 62)).toBeLessThan(480);
  });
});
