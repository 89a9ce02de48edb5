// A payoff's change of the lock timeline (decisions.md 44): inside its reversal window the release is
// an instant at releaseAt (its fire_at in real time, the partner's clock offset taken off) and the
// payoff writes no release; a window of 0 releases at once, as before; a locked device is unlocked
// until releaseAt.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_SETTINGS } from '../partners/settings.js';
import type { TimelineOrder } from './eventData.js';
import { type TimelineChange, timelineEventsOf, timelinePlanOf } from './schedule.js';

const HOUR = 3_600_000;
const order: TimelineOrder = {
  id: '4000004',
  currency: 'USD',
  monthly_cost_minor: '1800',
  weekly_cost_minor: '400',
  months: 12,
  total_paid_minor: '21600',
  ordered_at: new Date('2026-05-01T00:00:00Z'),
  device_tag: 'DTSTBBB',
  device_imei: '123456789012347',
};

/** A payoff at the partner's `now`, `aheadMs` ahead of real time, its window closing at `releaseAt`. */
function payoff(releaseAt: Date | null, aheadMs = 0): TimelineChange {
  return {
    partnerId: '1',
    financeOrderId: order.id,
    before: { lockAt: new Date('2026-07-01T00:00:00Z') },
    after: { lockAt: null, fullyPaid: true, releaseAt },
    now: new Date(Date.now() + aheadMs),
    settings: DEFAULT_PARTNER_SETTINGS,
  };
}

describe('a payoff on the lock timeline', () => {
  it('inside its window: one release instant at releaseAt, in real time by the clock offset, no release now', () => {
    const change = payoff(null, 10 * 24 * HOUR);
    const releaseAt = new Date(change.now.getTime() + 72 * HOUR);
    change.after.releaseAt = releaseAt;
    const plan = timelinePlanOf(change);
    expect(plan).toMatchObject({ moving: true, lockAt: releaseAt });
    expect(plan.instants.map((row) => [row.kind, row.days_left, row.due_at])).toEqual([
      ['release', null, releaseAt.toISOString()],
    ]);
    // fire_at: releaseAt less the 10 days the partner runs ahead (at most the test's own time late).
    const fireAt = Date.parse(plan.instants[0]!.fire_at);
    expect(fireAt).toBeGreaterThanOrEqual(releaseAt.getTime() - 10 * 24 * HOUR);
    expect(fireAt).toBeLessThan(releaseAt.getTime() - 10 * 24 * HOUR + 60_000);
    const { events, guarded } = timelineEventsOf(change, order);
    // A locked device is unlocked until releaseAt (written only if the payoff lifted its lock).
    expect(events.map((event) => [event.type, (event.data as any).financeOrder.lockAt])).toEqual([
      ['device.unlocked', Math.floor(releaseAt.getTime() / 1000)],
    ]);
    expect(guarded.has(events[0]!)).toBe(true);
  });

  it('with a window of 0 (releaseAt its own time) or none: released at once, no instant', () => {
    const none = payoff(null);
    expect(timelinePlanOf(none).instants).toEqual([]);
    const { events, guarded } = timelineEventsOf(none, order);
    expect(events.map((event) => event.type)).toEqual(['device.released']);
    expect(guarded.size).toBe(0);
    const atOnce = payoff(null);
    atOnce.after.releaseAt = atOnce.now;
    expect(timelinePlanOf(atOnce)).toMatchObject({ moving: true, lockAt: null, instants: [] });
    expect(timelineEventsOf(atOnce, order).events.map((event) => event.type)).toEqual(['device.released']);
  });
});
