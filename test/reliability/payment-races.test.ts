// In-store payments racing on real Postgres (PGlite runs one statement at a time): the one-read,
// one-write payment (src/modules/payments/inStore.ts) keeps every guard under contention, in its
// unlocked rounds, in its locked fallback, and with the two mixed. A payment reaches the lock by losing
// its unlocked rounds (test/support/contention.ts: their writes find the order's total moved). Each scenario checks the sums, that
// every success is exactly one payment with its ledger and events, that refusals wrote nothing, and
// that ledger:check finds the ledger clean.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { formatAmount, money, subtractMoney } from '../../src/kernel/money.js';
import { checkLedger } from '../../src/ledger/check.js';
import type { Claimed } from '../../src/modules/payments/idempotency.js';
import {
  type InStorePaymentRequest,
  OPTIMISTIC_ROUNDS,
  recordInStorePayment,
} from '../../src/modules/payments/inStore.js';
import { onCitus } from '../support/citus.js';
import { contendedDb } from '../support/contention.js';
import { onServer } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { ledgerSnapshot } from '../support/ledger.js';
import { statementsDuring } from '../support/statements.js';
import { TEST_UNLOCK_KEYS } from '../support/unlockKeys.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const db = () => fixture.database.db;

// Demo Retail's order 4000004 owes 198.00 (5% commission); 4000012 owes 240.00; Other Retail's
// MXN order 5000002 owes 192.00 (2.5%).
const ON_4000004 = {
  partnerId: '1',
  merchantId: DEMO_MERCHANT_ID,
  clerkId: DEMO_CLERK_ID,
  financeOrderId: DEMO_ORDER_ID,
  currency: 'USD',
};
const ON_4000012 = {
  partnerId: '1',
  merchantId: '1000201',
  clerkId: '5320',
  financeOrderId: '4000012',
  currency: 'USD',
};
const ON_5000002 = {
  partnerId: '2',
  merchantId: '2000001',
  clerkId: '6001',
  financeOrderId: '5000002',
  currency: 'MXN',
};

/**
 * How many of a payment's unlocked rounds it loses before the race it runs in (none: only the race
 * decides); `inSteps`: its write in steps, as on a database distributed by partner (creditInSteps.ts).
 */
type Rounds = { lostRounds?: number; inSteps?: boolean };
/** One unlocked round of its own, then the lock if the race takes it. */
const ONE_ROUND: Rounds = { lostRounds: OPTIMISTIC_ROUNDS - 1 };
/** Every unlocked round lost: the order locked first. */
const LOCKED: Rounds = { lostRounds: OPTIMISTIC_ROUNDS };
/** Unlocked rounds, each write a transaction of partner-pinned statements (Citus's, decisions.md 48). */
const IN_STEPS: Rounds = { inSteps: true };
/**
 * On Citus the service writes in steps (decisions.md 49), so there every race runs in steps: a lost
 * round and the locked fallback are the one statement's, tried on Postgres.
 */
const onThisServer = (rounds: Rounds): Rounds => (onCitus ? IN_STEPS : rounds);
/** Each case once on this server: on Citus the cases of the one statement's rounds are the case in steps. */
const casesOfThisServer = <Case extends readonly unknown[]>(cases: Case[], roundsOf: (row: Case) => Rounds) =>
  onCitus ? cases.filter((row) => roundsOf(row) === IN_STEPS) : cases;
const pay = (
  order: typeof ON_4000004,
  amount: string,
  idempotencyKey: string | null = null,
  rounds: Rounds = {},
  now = NOW,
): Promise<Claimed> =>
  recordInStorePayment(
    rounds.lostRounds ? contendedDb(db(), { lost: rounds.lostRounds }) : db(),
    { ...order, amount, idempotencyKey } satisfies InStorePaymentRequest,
    now,
    TEST_UNLOCK_KEYS,
    { inSteps: rounds.inSteps ?? onCitus },
  );

/** The write of a round: the one statement, or the first of its steps (the order's total, guarded). */
const ROUND_WRITE = /^(with credited|update "finance_orders" set "total_paid_minor")/;

/** Runs all at once; the successes and the refusals' codes. */
async function race(attempts: Array<() => Promise<Claimed>>) {
  const settled = await Promise.allSettled(attempts.map((attempt) => attempt()));
  const recorded = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const refused = settled.flatMap((outcome) =>
    outcome.status === 'rejected'
      ? [(outcome.reason as { extensions?: { code?: string } }).extensions?.code ?? String(outcome.reason)]
      : [],
  );
  return { recorded, refused };
}

const totalPaid = async (order: typeof ON_4000004) =>
  (await db()('finance_orders').where({ partner_id: order.partnerId, id: order.financeOrderId }).first())
    .total_paid_minor as string;

/** Every recorded payment is one row with its cash (and commission) transactions and its events, in order. */
async function expectEachRecordedOnce(order: typeof ON_4000004, recorded: Claimed[]) {
  const ids = recorded.map((claimed) => claimed.receipt.paymentId);
  const payments = await db()('payments').where({ partner_id: order.partnerId }).whereIn('id', ids);
  expect(payments).toHaveLength(ids.length);
  for (const claimed of recorded) {
    const id = claimed.receipt.paymentId;
    const transactions = await db()('transactions')
      .where({ partner_id: order.partnerId, payment_id: id })
      .orderBy('id');
    expect(transactions[0]).toMatchObject({ type: 'cash', amount_minor: `-${claimed.receipt.amountMinor}` });
    expect(transactions.slice(1).map((row) => row.type)).toEqual(transactions.length > 1 ? ['commission'] : []);
    const events = await db()('events')
      .where({ partner_id: order.partnerId })
      .whereIn(
        'id',
        claimed.events!.map((event) => event.id),
      )
      .orderBy('sequence');
    // payment.recorded first, then its transactions, then the payoff if it paid the order off (its
    // device's release waits for the payoff's reversal window, decisions.md 44), then its unlock if the
    // order had been locked (4000012 was: its lock fired when the demo was loaded), numbered in that
    // order; only the first two kinds name this payment.
    const device = events.map((event) => event.type).filter((type) => type.startsWith('device.'));
    expect(events.map((event) => event.type)).toEqual([
      'payment.recorded',
      ...transactions.map(() => 'transaction.created'),
      ...(claimed.receipt.fullyPaid ? ['finance_order.paid_off'] : []),
      ...device,
    ]);
    expect([[], ['device.unlocked']]).toContainEqual(device);
    // A payoff releases nothing yet; it unlocks a locked device until its releaseAt.
    if (claimed.receipt.fullyPaid) expect(device).not.toContain('device.released');
    for (const event of events.filter((event) => ['payment.recorded', 'transaction.created'].includes(event.type)))
      expect(String(event.data.payment.id)).toBe(id);
    expect(events[0]!.data.financeOrder.remainingBalance).toBe(
      formatAmount(claimed.receipt.remainingMinor, claimed.receipt.currency),
    );
  }
}

async function expectLedgerClean() {
  expect((await checkLedger(db())).problems).toEqual([]);
}

describe.skipIf(!onServer)('in-store payments racing on one order (a real server)', () => {
  it.each(
    casesOfThisServer(
      [
        ['in unlocked rounds', {}, 40],
        ['with one unlocked round, then the lock', ONE_ROUND, 30],
        ['with the order locked first', LOCKED, 30],
        ['in unlocked rounds, each written in steps', IN_STEPS, 20],
      ] as const,
      (row) => row[1],
    ),
  )('%s: N payments at once all land, none lost, each once, numbered without a gap', async (_case, rounds, n) => {
    const before = await totalPaid(ON_4000004);
    const snapshot = await ledgerSnapshot(db());
    const { result, statements } = await statementsDuring(db(), () =>
      race(Array.from({ length: n }, () => () => pay(ON_4000004, '1.00', null, rounds))),
    );
    const { recorded, refused } = result;
    // The race happened: unlocked, writes lost to a moved total and were read and decided again.
    const writes = statements.filter((statement) => ROUND_WRITE.test(statement.sql)).length;
    const locks = statements.filter((statement) => /for update/.test(statement.sql)).length;
    if (rounds === LOCKED) expect([writes, locks]).toEqual([n, n]);
    else expect(writes).toBeGreaterThan(n);
    expect(refused).toEqual([]);
    expect(recorded).toHaveLength(n);
    expect(await totalPaid(ON_4000004)).toBe((BigInt(before) + BigInt(n) * 100n).toString());
    // No lost update: the receipts saw every intermediate balance exactly once.
    const owed = subtractMoney(money(21600n, 'USD'), money(before, 'USD')).minor;
    expect(recorded.map((claimed) => BigInt(claimed.receipt.remainingMinor)).sort((a, b) => Number(a - b))).toEqual(
      Array.from({ length: n }, (_, i) => owed - BigInt(n - i) * 100n),
    );
    const after = await ledgerSnapshot(db());
    expect(after.payments - snapshot.payments).toBe(n);
    expect(after.transactions - snapshot.transactions).toBe(2 * n); // cash and 5% commission each
    await expectEachRecordedOnce(ON_4000004, recorded);
    // A round that lost the race wrote nothing and drew no number: the new ids are one unbroken run.
    const ids = recorded.map((claimed) => BigInt(claimed.receipt.paymentId)).sort((a, b) => Number(a - b));
    expect(ids[ids.length - 1]! - ids[0]!).toBe(BigInt(n - 1));
    await expectLedgerClean();
  });

  it.each([
    ['in unlocked rounds', onThisServer({}), ON_4000012, 24],
    ['with the order locked first', onThisServer(LOCKED), ON_5000002, 19],
  ] as const)(
    '%s: payments that together exceed the balance: exactly the ones that fit land',
    async (_case, rounds, order, fit) => {
      const snapshot = await ledgerSnapshot(db());
      const { recorded, refused } = await race(
        Array.from({ length: 40 }, () => () => pay(order, '10.00', null, rounds)),
      );
      expect(recorded).toHaveLength(fit);
      expect(refused).toEqual(Array(40 - fit).fill('AMOUNT_EXCEEDS_BALANCE'));
      expect(await totalPaid(order)).toBe(String(fit * 1000));
      expect((await ledgerSnapshot(db())).payments - snapshot.payments).toBe(fit);
      // Never below zero; what is left is less than one more payment. The last one to fit saw it.
      const remaining = recorded.map((claimed) => BigInt(claimed.receipt.remainingMinor));
      expect(remaining.every((minor) => minor >= 0n)).toBe(true);
      expect(remaining.reduce((a, b) => (a < b ? a : b))).toBe(BigInt(order === ON_4000012 ? 0 : 200));
      await expectEachRecordedOnce(order, recorded);
      await expectLedgerClean();
    },
  );
});

describe.skipIf(!onServer)('in-store payments racing on one Idempotency-Key (a real server)', () => {
  it.each(
    casesOfThisServer(
      [
        ['in unlocked rounds', 'race-same-unlocked', {}],
        ['with the order locked first', 'race-same-locked', LOCKED],
        ['in unlocked rounds, each written in steps', 'race-same-steps', IN_STEPS],
      ] as const,
      (row) => row[2],
    ),
  )('%s: 20 requests with one key record one payment; all answer its receipt', async (_case, key, rounds) => {
    const snapshot = await ledgerSnapshot(db());
    const { recorded, refused } = await race(
      Array.from({ length: 20 }, () => () => pay(ON_4000004, '3.00', key, rounds)),
    );
    expect(refused).toEqual([]);
    expect(recorded.filter((claimed) => !claimed.replayed)).toHaveLength(1);
    for (const claimed of recorded) expect(claimed.receipt).toEqual(recorded[0]!.receipt);
    const after = await ledgerSnapshot(db());
    expect(after.payments - snapshot.payments).toBe(1);
    expect(after.idempotencyKeys - snapshot.idempotencyKeys).toBe(1);
    const record = await db()('idempotency_keys').where({ partner_id: 1, idempotency_key: key }).first();
    expect(record.response_body).toEqual(recorded[0]!.receipt);
    await expectEachRecordedOnce(
      ON_4000004,
      recorded.filter((claimed) => !claimed.replayed),
    );
    await expectLedgerClean();
  });

  it('one key with ten different amounts at once: one lands, nine are IDEMPOTENCY_CONFLICT', async () => {
    const snapshot = await ledgerSnapshot(db());
    const { recorded, refused } = await race(
      Array.from(
        { length: 10 },
        (_, i) => () => pay(ON_4000004, `${i + 1}.00`, 'race-amounts', onThisServer(i % 2 ? ONE_ROUND : LOCKED)),
      ),
    );
    expect(recorded).toHaveLength(1);
    expect(refused).toEqual(Array(9).fill('IDEMPOTENCY_CONFLICT'));
    expect((await ledgerSnapshot(db())).payments - snapshot.payments).toBe(1);
    const records = await db()('idempotency_keys').where({ partner_id: 1, idempotency_key: 'race-amounts' });
    expect(records.map((record) => record.response_body)).toEqual([recorded[0]!.receipt]);
    await expectLedgerClean();
  });

  it('a key already used, reused at once by ten requests with other amounts: all IDEMPOTENCY_CONFLICT, nothing written', async () => {
    const first = await pay(ON_4000004, '1.00', 'race-reused');
    const snapshot = await ledgerSnapshot(db());
    const { recorded, refused } = await race(
      Array.from(
        { length: 10 },
        (_, i) => () => pay(ON_4000004, `${i + 2}.00`, 'race-reused', onThisServer(i % 2 ? ONE_ROUND : LOCKED)),
      ),
    );
    expect(recorded).toEqual([]);
    expect(refused).toEqual(Array(10).fill('IDEMPOTENCY_CONFLICT'));
    expect(await ledgerSnapshot(db())).toEqual(snapshot);
    const record = await db()('idempotency_keys').where({ partner_id: 1, idempotency_key: 'race-reused' }).first();
    expect(record.response_body).toEqual(first.receipt);
  });

  it('an expired key taken anew by ten requests at once: one new payment, the others replay it', async () => {
    const old = await pay(ON_4000004, '1.00', 'race-expired');
    const later = new Date(NOW.getTime() + 25 * 3_600_000);
    const { recorded, refused } = await race(
      Array.from({ length: 10 }, () => () => pay(ON_4000004, '4.00', 'race-expired', {}, later)),
    );
    expect(refused).toEqual([]);
    const fresh = recorded.filter((claimed) => !claimed.replayed);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.receipt.paymentId).not.toBe(old.receipt.paymentId);
    expect(new Set(recorded.map((claimed) => claimed.receipt.paymentId))).toEqual(
      new Set([fresh[0]!.receipt.paymentId]),
    );
    const records = await db()('idempotency_keys').where({ partner_id: 1, idempotency_key: 'race-expired' });
    expect(records.map((record) => record.response_body)).toEqual([fresh[0]!.receipt]);
    await expectLedgerClean();
  });

  it('payments with keys of their own, all at once on one order: each lands once, with its key', async () => {
    const snapshot = await ledgerSnapshot(db());
    const { recorded, refused } = await race(
      Array.from(
        { length: 20 },
        (_, i) => () =>
          pay(ON_4000004, '0.50', `race-own-${i}`, onThisServer({ lostRounds: OPTIMISTIC_ROUNDS - (i % 3) })),
      ),
    );
    expect(refused).toEqual([]);
    expect(recorded.filter((claimed) => claimed.replayed)).toEqual([]);
    const after = await ledgerSnapshot(db());
    expect(after.payments - snapshot.payments).toBe(20);
    expect(after.idempotencyKeys - snapshot.idempotencyKeys).toBe(20);
    await expectEachRecordedOnce(ON_4000004, recorded);
    await expectLedgerClean();
  });
});
