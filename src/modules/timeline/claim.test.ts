// The claim's skip rule (docs/decisions.md 18 and 37), as a property over random reminder lists and
// random claim lags, on the database (the rule is the claim's SQL). One deadline of demo order 4000004:
// the partner's clock moved to a moment past some of its instants (each 0 to 5 minutes late, some
// instants passed over without a claim), real time running a random while between moves, then one
// claim at real time; the lock is always claimed at last. Real time is the claim's argument, so
// nothing waits. Whatever the lags: a reminder is written exactly when no later instant of its
// deadline was due at its claim, and the lock is written once.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { DEMO_ORDER_ID } from '../../fixtures/demoIds.js';
import { claimDueInstants } from './claim.js';
import { shiftPartnerTimeline } from './schedule.js';

const DAY_MS = 86_400_000;
const DEMO = '1';
/** The deadline's lockAt, and real time when the run starts (the clock then on real time). */
const LOCK_AT = new Date('2026-09-01T12:00:00Z');
const REAL_START = new Date('2026-08-01T12:00:00Z');

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.destroy());

/** One claim: the partner's clock moved to `lagMs` past instant `index`, real time `realStepMs` on. */
interface Step {
  index: number;
  lagMs: number;
  realStepMs: number;
}

const run = fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 6 }).chain((reminderDays) => {
  const instants = reminderDays.length + 1;
  const step = (index: number) =>
    fc.record({
      index: fc.constant(index),
      lagMs: fc.integer({ min: 0, max: 5 * 60_000 }),
      realStepMs: fc.integer({ min: 0, max: 120_000 }),
    });
  // Each reminder claimed at its instant or passed over; the lock always claimed.
  const steps = fc
    .tuple(
      ...Array.from({ length: instants - 1 }, (_, index) => fc.option(step(index), { nil: undefined })),
      step(instants - 1),
    )
    .map((chosen) => chosen.filter((claim): claim is Step => claim !== undefined));
  return fc.record({ reminderDays: fc.constant(reminderDays), steps });
});

describe('the claim over random lags', () => {
  it('writes a reminder exactly when no later instant of its deadline is due at its claim, and the lock once', async () => {
    const db = database.db;
    await fc.assert(
      fc.asyncProperty(run, async ({ reminderDays, steps }) => {
        await db('lock_timeline').delete();
        // The deadline's instants, earliest first, made on real time (offset 0).
        const days = [...reminderDays].sort((a, b) => b - a);
        const dueAt = [...days.map((d) => LOCK_AT.getTime() - d * DAY_MS), LOCK_AT.getTime()];
        await db('lock_timeline').insert(
          dueAt.map((due, index) => ({
            partner_id: DEMO,
            finance_order_id: DEMO_ORDER_ID,
            kind: index < days.length ? 'reminder' : 'lock',
            days_left: index < days.length ? days[index] : null,
            lock_at: LOCK_AT,
            due_at: new Date(due),
            fire_at: new Date(due),
          })),
        );
        let real = REAL_START.getTime();
        let offset = 0;
        const expected = new Map<number, string>();
        const seen = new Map<number, string>();
        for (const { index, lagMs, realStepMs } of steps) {
          // The clock moves as setSandboxClock moves it: pending instants by the same delta.
          real += realStepMs;
          const partnerNow = dueAt[index]! + lagMs;
          await db.transaction((trx) =>
            shiftPartnerTimeline(trx, DEMO, partnerNow - real - offset, new Date(partnerNow)),
          );
          offset = partnerNow - real;
          // A reminder the move passed over is skipped by the move itself; the rest by the claim.
          const claimed = await db.transaction((trx) => claimDueInstants(trx, DEMO, new Date(real), 100));
          for (const instant of claimed) seen.set(instant.due_at.getTime(), instant.state);
          const passed = await db('lock_timeline').where({ state: 'skipped' });
          for (const row of passed) if (!seen.has(row.due_at.getTime())) seen.set(row.due_at.getTime(), row.state);
          // The model: every instant due now and not claimed before is claimed; a reminder is skipped
          // when a later instant of the deadline is due too.
          for (const due of dueAt) {
            if (due > partnerNow || expected.has(due)) continue;
            const isLock = due === LOCK_AT.getTime();
            const overtaken = dueAt.some((later) => later > due && later <= partnerNow);
            expected.set(due, !isLock && overtaken ? 'skipped' : 'fired');
          }
          expect(seen).toEqual(expected);
        }
        expect(seen.get(LOCK_AT.getTime())).toBe('fired');
        const rows = await db('lock_timeline').select('kind', 'state');
        expect(rows.filter((row) => row.kind === 'lock').map((row) => row.state)).toEqual(['fired']);
        expect(rows.filter((row) => row.state === 'pending')).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });
});
