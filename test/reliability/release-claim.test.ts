// A payoff's release claimed beside a writer holding its order (docs/decisions.md 44), on Postgres: the
// claim reads the order's row shared-locked and skips it while another transaction holds it, so a
// reversal under way is never overtaken by the release. Held and let go: the next claim releases, once.
// Held while the payoff is taken back (as a reversal leaves the order): the next claim writes nothing.
// Neither side waits on the other. Time moves as the sandbox clock moves it (shiftPartnerTimeline).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { recordInStorePayment } from '../../src/modules/payments/inStore.js';
import { shiftPartnerTimeline } from '../../src/modules/timeline/schedule.js';
import { fireAllDueInstants } from '../../src/modules/timeline/scheduler.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { addTwinOrders } from '../support/twinOrders.js';
import { TEST_UNLOCK_KEYS } from '../support/unlockKeys.js';

const DEMO = '1';
const DAY_MS = 86_400_000;
const WINDOW_MS = 72 * 3_600_000; // Demo Retail's reversal window, the default

describe.runIf(onPostgres)('a release claimed while its order is held (Postgres)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.destroy();
  });
  const db = () => database.db;

  const releaseState = async (id: string) =>
    (await db()('lock_timeline').where({ partner_id: DEMO, finance_order_id: id, kind: 'release' }).first('state'))
      ?.state as string | undefined;
  const released = async (id: string) =>
    Number(
      (
        await db()('events')
          .where({ partner_id: DEMO, type: 'device.released' })
          .whereRaw(`data->'financeOrder'->>'id' = ?`, [id])
          .count({ n: '*' })
      )[0]!.n,
    );

  /** Pays each order off at real time, then moves Demo Retail's pending instants past the window. */
  async function completedPayoffs(first: number, count: number): Promise<string[]> {
    const ids = await addTwinOrders(db(), first, count, new Date(Date.now() - 10 * DAY_MS));
    for (const financeOrderId of ids) {
      const paid = await recordInStorePayment(
        db(),
        {
          partnerId: DEMO,
          merchantId: DEMO_MERCHANT_ID,
          clerkId: DEMO_CLERK_ID,
          financeOrderId,
          amount: '198.00',
          currency: 'USD',
          idempotencyKey: null,
        },
        new Date(),
        TEST_UNLOCK_KEYS,
      );
      expect(paid.receipt.fullyPaid).toBe(true);
      expect(await releaseState(financeOrderId)).toBe('pending');
    }
    await db().transaction((trx) =>
      shiftPartnerTimeline(trx, DEMO, WINDOW_MS + 60_000, new Date(Date.now() + WINDOW_MS + 60_000)),
    );
    return ids;
  }

  it('held, then let go: the claim skips it, the next one releases it once', async () => {
    const [held, free] = (await completedPayoffs(9500001, 2)) as [string, string];
    const holder = await db().transaction();
    try {
      await holder('finance_orders').where({ partner_id: DEMO, id: held }).forUpdate().first('id');
      // Two claims at once, beside the holder: neither waits for it.
      await Promise.all([fireAllDueInstants(db()), fireAllDueInstants(db())]);
      expect(await releaseState(held)).toBe('pending');
      expect(await released(held)).toBe(0);
      expect(await releaseState(free)).toBe('fired');
      expect(await released(free)).toBe(1);
    } finally {
      await holder.rollback();
    }
    await Promise.all([fireAllDueInstants(db()), fireAllDueInstants(db())]);
    expect(await releaseState(held)).toBe('fired');
    expect(await released(held)).toBe(1);
    expect(await released(free)).toBe(1);
  });

  it('held while the payoff is taken back: the next claim writes nothing', async () => {
    const [id] = (await completedPayoffs(9500011, 1)) as [string];
    await db().transaction(async (trx) => {
      await trx('finance_orders').where({ partner_id: DEMO, id }).forUpdate().first('id');
      await fireAllDueInstants(db());
      expect(await releaseState(id)).toBe('pending');
      // What a reversal leaves of the order (its own timeline change would cancel the instant too).
      await trx('finance_orders')
        .where({ partner_id: DEMO, id })
        .update({ total_paid_minor: trx.raw('total_paid_minor - 19800'), release_at: null });
    });
    await fireAllDueInstants(db());
    expect(await releaseState(id)).toBe('skipped');
    expect(await released(id)).toBe(0);
  });
});
