// Reversals racing on real Postgres (PGlite runs one statement at a time), decisions.md 44: twenty
// reversals of one payment at once are one reversal and nineteen PAYMENT_ALREADY_REVERSED (the order's
// lock, and past it the unique (partner_id, payment_id)); under one Idempotency-Key, one reversal and
// nineteen replays of it; payments and reversals at once on one order leave its running total the sum
// of the payments that stand. ledger:check finds each ledger clean.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import { recordInStorePayment } from '../../src/modules/payments/inStore.js';
import { type Reverser, reversePayment } from '../../src/modules/payments/reverse.js';
import type { PaymentReversalParent } from '../../src/modules/payments/rows.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { TEST_UNLOCK_KEYS } from '../support/unlockKeys.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const db = () => fixture.database.db;
const clocks = { nowFor: () => NOW };
const OPERATOR: Reverser = { kind: 'operator', operatorId: '1', keyId: '1' };

const pay = async (amount: string) =>
  (
    await recordInStorePayment(
      db(),
      {
        partnerId: '1',
        merchantId: DEMO_MERCHANT_ID,
        clerkId: DEMO_CLERK_ID,
        financeOrderId: DEMO_ORDER_ID,
        amount,
        currency: 'USD',
        idempotencyKey: null,
      },
      NOW,
      TEST_UNLOCK_KEYS,
    )
  ).receipt.paymentId;

const reverse = (paymentId: string, idempotencyKey: string | null = null) =>
  reversePayment(
    db(),
    { reverser: OPERATOR, payment: { by: 'id', partnerId: null, id: paymentId }, reason: 'raced', idempotencyKey },
    clocks,
  );

/** Runs all at once; the answers and the refusals' codes. */
async function race<T>(attempts: Array<() => Promise<T>>) {
  const settled = await Promise.allSettled(attempts.map((attempt) => attempt()));
  return {
    done: settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : [])),
    refused: settled.flatMap((outcome) =>
      outcome.status === 'rejected'
        ? [(outcome.reason as { extensions?: { code?: string } }).extensions?.code ?? String(outcome.reason)]
        : [],
    ),
  };
}

const totalPaid = async () =>
  BigInt((await db()('finance_orders').where({ partner_id: 1, id: DEMO_ORDER_ID }).first()).total_paid_minor);

/** The sum of the order's payments no reversal took back. */
const standing = async () =>
  BigInt(
    (
      await db()('payments as p')
        .where({ 'p.partner_id': 1, 'p.finance_order_id': DEMO_ORDER_ID })
        .whereNotExists((q) =>
          q.from('payment_reversals as r').whereRaw('r.partner_id = p.partner_id and r.payment_id = p.id'),
        )
        .sum({ total: 'p.amount_minor' })
        .first()
    )?.total ?? 0,
  );

const expectLedgerClean = async () => expect((await checkLedger(db())).problems).toEqual([]);

describe.skipIf(!onPostgres)('reversals racing (Postgres)', () => {
  it('twenty reversals of one payment at once: one reversal, nineteen PAYMENT_ALREADY_REVERSED', async () => {
    const before = await totalPaid();
    const paymentId = await pay('9');
    const { done, refused } = await race(Array.from({ length: 20 }, () => () => reverse(paymentId)));
    expect(done).toHaveLength(1);
    expect(refused).toEqual(Array.from({ length: 19 }, () => 'PAYMENT_ALREADY_REVERSED'));
    expect(await totalPaid()).toBe(before);
    expect(await db()('payment_reversals').where({ payment_id: paymentId })).toHaveLength(1);
    expect(await db()('transactions').where({ payment_id: paymentId })).toHaveLength(4);
    expect(
      await db()('events').where({ type: 'payment.reversed' }).whereRaw(`data->'payment'->>'id' = ?`, [paymentId]),
    ).toHaveLength(1);
    await expectLedgerClean();
  });

  it('twenty reversals under one Idempotency-Key at once: one reversal, nineteen replays of its answer', async () => {
    const paymentId = await pay('4');
    const { done, refused } = await race(Array.from({ length: 20 }, () => () => reverse(paymentId, 'race-key')));
    expect(refused).toEqual([]);
    const made = done.filter((answer: PaymentReversalParent) => !answer.replayed);
    expect(made).toHaveLength(1);
    for (const answer of done)
      expect(answer).toEqual({ ...made[0], replayed: answer.replayed, payment: answer.payment });
    expect(await db()('payment_reversals').where({ payment_id: paymentId })).toHaveLength(1);
    await expectLedgerClean();
  });

  it('ten payments and ten reversals on one order at once: the running total is the payments that stand', async () => {
    const earlier: string[] = [];
    for (let i = 0; i < 10; i++) earlier.push(await pay('1'));
    const { done, refused } = await race<unknown>([
      ...Array.from({ length: 10 }, () => () => pay('1')),
      ...earlier.map((paymentId) => () => reverse(paymentId)),
    ]);
    expect(refused).toEqual([]);
    expect(done).toHaveLength(20);
    expect(await totalPaid()).toBe(await standing());
    expect(await db()('payment_reversals').whereIn('payment_id', earlier)).toHaveLength(10);
    await expectLedgerClean();
  });

  it('past the lock, the unique (partner_id, payment_id) answers PAYMENT_ALREADY_REVERSED, never a failure', async () => {
    const paymentId = await pay('2');
    const payment = await db()('payments').where({ partner_id: 1, id: paymentId }).first();
    // A reversal written without the order's lock (as a bug would), not yet committed: the rule's own
    // reversal passes every refusal, then waits on the unique key, and fails on it once this commits.
    const rogue = await db().transaction();
    const [first] = await rogue('payment_reversals')
      .insert({
        partner_id: 1,
        payment_id: paymentId,
        finance_order_id: payment.finance_order_id,
        amount_minor: payment.amount_minor,
        currency: 'USD',
        reason: 'rogue',
        reversed_by: 'operator',
        reversed_at: NOW,
      })
      .returning('id');
    const reversal = reverse(paymentId).then(
      () => 'reversed',
      (error: { extensions?: { code?: string; reversalId?: string } }) => error.extensions,
    );
    // Waits until the rule's insert waits on the rogue one's key (polled, never timed).
    for (;;) {
      const [{ waiting }] = (
        await db().raw(
          `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
      ).rows;
      if (waiting > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await rogue.commit();
    expect(await reversal).toEqual({ code: 'PAYMENT_ALREADY_REVERSED', reversalId: String(first.id) });
    await db()('payment_reversals').where({ id: first.id }).delete();
  });
});
