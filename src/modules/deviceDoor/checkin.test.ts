import { describe, expect, it } from 'vitest';
import type { Standing } from '../financeOrders/terms.js';
import { checkinAnswer, parseCheckinReport } from './checkin.js';

const NOW = new Date('2026-06-10T12:00:00Z');
const S = Math.floor(NOW.getTime() / 1000);
const HOUR = 3600;
const DAY = 24 * HOUR;

function standing(lockAtOffsetSeconds: number | null): Standing {
  const lockAt = lockAtOffsetSeconds === null ? null : new Date((S + lockAtOffsetSeconds) * 1000);
  return {
    repayableMinor: 1000n,
    totalPaidMinor: 0n,
    remainingMinor: lockAt ? 1000n : 0n,
    fullyPaid: lockAt === null,
    paidThrough: lockAt ?? NOW,
    lockAt,
    nextPayment: lockAt,
    secureStatus: lockAt === null ? 'RELEASED' : lockAt > NOW ? 'ACTIVE_AND_SECURED' : 'LOCKED',
    validThrough: lockAt ?? NOW,
    releaseAt: null,
    closedReason: null,
  };
}

const answer = (input: Partial<Parameters<typeof checkinAnswer>[0]>) =>
  checkinAnswer({
    deviceTag: 'T1',
    standing: standing(30 * DAY),
    now: NOW,
    offlineLockDays: 7,
    simLocks: false,
    lockNow: false,
    unlockedUntil: null,
    commands: [],
    sequence: 7,
    nonce: 'n0nce-of-the-request_1',
    unlockCodesThrough: 0,
    ...input,
  });

describe('checkinAnswer', () => {
  it('an active order: UNLOCKED, offline lock after offlineLockDays, never after lockAt; check in again in 6 h', () => {
    expect(answer({})).toEqual({
      deviceTag: 'T1',
      lockState: 'UNLOCKED',
      reason: null,
      lockAt: S + 30 * DAY,
      nextCheckinAt: S + 6 * HOUR,
      offlineLockAt: S + 7 * DAY,
      message: null,
      commands: [],
      issuedAt: S,
      sequence: 7,
      nonce: 'n0nce-of-the-request_1',
      unlockCodesThrough: 0,
    });
    expect(answer({ unlockCodesThrough: 12 }).unlockCodesThrough).toBe(12);
    expect(answer({ standing: standing(2 * HOUR) })).toMatchObject({
      offlineLockAt: S + 2 * HOUR,
      nextCheckinAt: S + 2 * HOUR,
    });
  });

  it('past lockAt: LOCKED for the payment, offline lock at lockAt, check in again in 15 minutes', () => {
    expect(answer({ standing: standing(-HOUR) })).toMatchObject({
      lockState: 'LOCKED',
      reason: 'PAYMENT_OVERDUE',
      lockAt: S - HOUR,
      offlineLockAt: S - HOUR,
      nextCheckinAt: S + 15 * 60,
      message: expect.stringContaining('payment'),
    });
  });

  it('paid off: RELEASED, no deadline, and neither a lock command nor the SIM locks it', () => {
    expect(answer({ standing: standing(null), lockNow: true, simLocks: true })).toMatchObject({
      lockState: 'RELEASED',
      reason: null,
      lockAt: null,
      offlineLockAt: null,
      nextCheckinAt: S + 6 * HOUR,
    });
  });

  it('a temporary unlock lifts a payment lock until it ends; a lock command and the SIM lock win', () => {
    const until = new Date((S + 4 * HOUR) * 1000);
    expect(answer({ standing: standing(-HOUR), unlockedUntil: until })).toMatchObject({
      lockState: 'UNLOCKED',
      lockAt: S + 4 * HOUR,
      offlineLockAt: S + 4 * HOUR,
      nextCheckinAt: S + 4 * HOUR,
    });
    expect(answer({ standing: standing(-HOUR), unlockedUntil: new Date((S - 60) * 1000) }).lockState).toBe('LOCKED');
    expect(answer({ lockNow: true })).toMatchObject({ lockState: 'LOCKED', reason: 'LOCK_COMMAND' });
    expect(answer({ lockNow: true, simLocks: true })).toMatchObject({ lockState: 'LOCKED', reason: 'SIM_MISMATCH' });
  });

  it('no order: UNLOCKED, still bound to check in within offlineLockDays', () => {
    expect(answer({ standing: null, offlineLockDays: 3 })).toMatchObject({
      lockState: 'UNLOCKED',
      lockAt: null,
      offlineLockAt: S + 3 * DAY,
    });
  });
});

describe('parseCheckinReport', () => {
  const NONCE = 'AAAAAAAAAAAAAAAA';
  it('reads the report, ignoring members it does not know', () => {
    expect(parseCheckinReport({ imei: '123456789012347', appVersion: '1', nonce: NONCE, extra: { x: 1 } })).toEqual({
      imei: '123456789012347',
      simNumber: null,
      appVersion: '1',
      acknowledged: [],
      nonce: NONCE,
    });
    const longest = `${'-_'.repeat(32)}${'aZ09'.repeat(16)}`;
    expect(parseCheckinReport({ imei: '123456789012347', appVersion: '1', nonce: longest }).nonce).toBe(longest);
  });

  it.each([
    [{}, 'needs nonce'],
    [{ nonce: null }, 'needs nonce'],
    [{ nonce: 'A'.repeat(15) }, 'bad nonce'],
    [{ nonce: 'A'.repeat(129) }, 'bad nonce'],
    [{ nonce: `${'A'.repeat(20)}=` }, 'bad nonce'],
    [{ nonce: `${'A'.repeat(20)}+/` }, 'bad nonce'],
    [{ nonce: 1234567890123456 }, 'bad nonce'],
  ])('refuses the nonce of %j with INVALID_REQUEST_BODY naming it (decisions.md 34)', (nonce, problem) => {
    expect(() => parseCheckinReport({ imei: '123456789012347', appVersion: '1', ...nonce })).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST_BODY', message: expect.stringContaining(problem) }),
    );
  });

  it.each([
    [null],
    [[]],
    [{ appVersion: '1' }],
    [{ imei: '12345', appVersion: '1' }],
    [{ imei: '123456789012347' }],
    [{ imei: '123456789012347', appVersion: '1', simNumber: '' }],
    [{ imei: '123456789012347', appVersion: '1', acknowledged: [1] }],
  ])('refuses %j with INVALID_REQUEST_BODY', (body) => {
    const withNonce = body && typeof body === 'object' && !Array.isArray(body) ? { nonce: NONCE, ...body } : body;
    expect(() => parseCheckinReport(withNonce)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST_BODY' }));
  });
});
