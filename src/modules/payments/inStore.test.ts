// recordInStorePayment: the payment, its cash and commission transactions, the balance change, its
// events and the idempotency record are written by one statement, or none of them; its guards (the
// total the read saw, the key's primary key) are shown here one at a time, the races in
// test/reliability/payment-races.test.ts (Postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onCitus } from '../../../test/support/citus.js';
import { contendedDb } from '../../../test/support/contention.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { statementsDuring } from '../../../test/support/statements.js';
import { TEST_UNLOCK_KEYS } from '../../../test/support/unlockKeys.js';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../fixtures/demoIds.js';
import { creditInStorePaymentInSteps } from './creditInSteps.js';
import { type InStorePaymentRequest, OPTIMISTIC_ROUNDS, recordInStorePayment } from './inStore.js';
import { creditInStorePayment, type InStoreCredit, isKeyClaimedMeanwhile } from './queries.js';

const NOW = new Date('2026-06-10T15:30:00Z');

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
});
afterAll(async () => database?.destroy());

const count = async (table: string) => Number((await database.db(table).count({ n: '*' }).first())!.n);
const lastNumber = async (sequence: string) =>
  String((await database.db.raw(`select last_value from ${sequence}`)).rows[0].last_value);
const written = async () => ({
  payments: await count('payments'),
  transactions: await count('transactions'),
  events: await count('events'),
  keys: await count('idempotency_keys'),
  paid: (await database.db('finance_orders').where({ partner_id: '1', id: DEMO_ORDER_ID }).first()).total_paid_minor,
  // Nothing numbered either: the payments' and events' sequences stand still.
  paymentNumbers: await lastNumber('payments_id_seq'),
  eventNumbers: await lastNumber('events_sequence'),
});

// Demo order 4000004: 18.00 a month for 12 months, 18.00 paid; Demo Retail's commission is 5%.
const payment = (overrides: Partial<InStorePaymentRequest> = {}): InStorePaymentRequest => ({
  partnerId: '1',
  merchantId: DEMO_MERCHANT_ID,
  clerkId: DEMO_CLERK_ID,
  financeOrderId: DEMO_ORDER_ID,
  amount: '18.00',
  currency: 'USD',
  idempotencyKey: null,
  ...overrides,
});

describe('recordInStorePayment', () => {
  it('records the payment with its cash and commission transactions, and answers the new balance', async () => {
    const claimed = await recordInStorePayment(database.db, payment(), NOW, TEST_UNLOCK_KEYS);
    expect(claimed.replayed).toBe(false);
    expect(claimed.receipt).toMatchObject({
      amountMinor: '1800',
      remainingMinor: '18000',
      currency: 'USD',
      deviceTag: DEMO_DEVICE_TAG,
      fullyPaid: false,
    });
    const transactions = await database
      .db('transactions')
      .where({ partner_id: '1', payment_id: claimed.receipt.paymentId })
      .orderBy('id');
    expect(transactions.map((row) => [row.type, row.amount_minor])).toEqual([
      ['cash', '-1800'],
      ['commission', '90'],
    ]);
  });

  it('with an idempotency key, replays a repeat ("18" is "18.00") writing nothing; refuses other amounts', async () => {
    const first = await recordInStorePayment(
      database.db,
      payment({ amount: '18.00', idempotencyKey: 'pos-1' }),
      NOW,
      TEST_UNLOCK_KEYS,
    );
    const before = await written();
    const repeat = await recordInStorePayment(
      database.db,
      payment({ amount: '18', idempotencyKey: 'pos-1' }),
      NOW,
      TEST_UNLOCK_KEYS,
    );
    expect(repeat).toEqual({ receipt: first.receipt, replayed: true });
    await expect(
      recordInStorePayment(database.db, payment({ amount: '19.00', idempotencyKey: 'pos-1' }), NOW, TEST_UNLOCK_KEYS),
    ).rejects.toMatchObject({
      extensions: { code: 'IDEMPOTENCY_CONFLICT' },
    });
    expect(await written()).toEqual(before);
  });

  it.each([
    ["another partner's store", payment({ merchantId: '2000001' }), 'RESOURCE_NOT_FOUND'],
    ["another partner's clerk", payment({ clerkId: '6001' }), 'RESOURCE_NOT_FOUND'],
    ['more than the balance', payment({ amount: '1000.00' }), 'AMOUNT_EXCEEDS_BALANCE'],
    ["another currency than the order's", payment({ currency: 'MXN' }), 'CURRENCY_MISMATCH'],
    ['too many decimals', payment({ amount: '1.001' }), 'INVALID_PAYMENT_AMOUNT'],
  ])('refuses %s, writing nothing (with an idempotency key, not even the key)', async (_case, refused, code) => {
    const before = await written();
    await expect(
      recordInStorePayment(database.db, { ...refused, idempotencyKey: `refused-${code}` }, NOW, TEST_UNLOCK_KEYS),
    ).rejects.toMatchObject({ extensions: { code } });
    expect(await written()).toEqual(before);
  });
});

describe('recordInStorePayment: what a refusal leaves', () => {
  it('refuses every way in order, writing and numbering nothing: the next payment takes the next id', async () => {
    const before = await recordInStorePayment(database.db, payment({ amount: '1.00' }), NOW, TEST_UNLOCK_KEYS);
    const untouched = await written();
    await recordInStorePayment(
      database.db,
      payment({ amount: '1.00', idempotencyKey: 'taken' }),
      NOW,
      TEST_UNLOCK_KEYS,
    );
    const afterKey = await written();
    const refusals: Array<[Partial<InStorePaymentRequest>, string]> = [
      [{ merchantId: '999999' }, 'RESOURCE_NOT_FOUND'],
      [{ merchantId: '999999', clerkId: '999999', financeOrderId: '999999' }, 'RESOURCE_NOT_FOUND'],
      [{ clerkId: '999999', financeOrderId: '999999' }, 'RESOURCE_NOT_FOUND'],
      [{ financeOrderId: '999999', currency: 'MXN' }, 'RESOURCE_NOT_FOUND'],
      [{ currency: 'MXN', amount: '1.001' }, 'CURRENCY_MISMATCH'],
      [{ amount: '1.001' }, 'INVALID_PAYMENT_AMOUNT'],
      [{ amount: '0' }, 'INVALID_PAYMENT_AMOUNT'],
      [{ amount: '5000.00' }, 'AMOUNT_EXCEEDS_BALANCE'],
      [{ amount: '2.00', idempotencyKey: 'taken' }, 'IDEMPOTENCY_CONFLICT'],
      // A live key answers before any other refusal, as it always has.
      [{ merchantId: '999999', amount: '2.00', idempotencyKey: 'taken' }, 'IDEMPOTENCY_CONFLICT'],
    ];
    const messages: string[] = [];
    for (const [overrides, code] of refusals) {
      const refused = recordInStorePayment(
        database.db,
        payment({ idempotencyKey: 'fresh', ...overrides }),
        NOW,
        TEST_UNLOCK_KEYS,
      );
      await expect(refused, JSON.stringify(overrides)).rejects.toMatchObject({ extensions: { code } });
      messages.push(((await refused.catch((error) => error)) as Error).message);
    }
    // Which one was missing is named in precedence order: store, then clerk, then order.
    expect(messages.slice(0, 4)).toEqual([
      expect.stringMatching(/merchant/),
      expect.stringMatching(/merchant/),
      expect.stringMatching(/clerk/),
      expect.stringMatching(/finance order/),
    ]);
    expect(await written()).toEqual(afterKey);
    const next = await recordInStorePayment(database.db, payment({ amount: '1.00' }), NOW, TEST_UNLOCK_KEYS);
    expect(BigInt(next.receipt.paymentId)).toBe(BigInt(before.receipt.paymentId) + 2n);
    expect(afterKey.paymentNumbers).not.toBe(untouched.paymentNumbers);
  });
});

/**
 * The two writes of a payment decided (inStore.ts PaymentWrite): the one statement, and the steps a
 * distributed database takes. On Citus the service writes in steps alone (decisions.md 49), so only
 * the steps are held to the guards there.
 */
const WRITES = [
  { name: 'one statement', write: creditInStorePayment },
  { name: 'in steps', write: creditInStorePaymentInSteps },
].filter(({ name }) => !onCitus || name === 'in steps');

describe.each(WRITES)("the in-store write's guards ($name)", ({ name, write }) => {
  /** The keys of this write's cases, apart from the other write's (one database for both). */
  const claimedKey = `claimed-${name}`;
  const goneKey = `long-gone-${name}`;
  /** An id from the payments sequence, as the payment's read draws it. */
  const drawId = async () => String((await database.db.raw("select nextval('payments_id_seq') as id")).rows[0].id);
  /** A payment of 1.00 on order 4000004 with the id `id`, as if read when its total was `seen`. */
  const credit = (seen: string, id: string, key: InStoreCredit['key'] = null): InStoreCredit => ({
    row: {
      partner_id: '1',
      id,
      finance_order_id: DEMO_ORDER_ID,
      channel: 'in_store',
      amount_minor: '100',
      currency: 'USD',
      merchant_id: DEMO_MERCHANT_ID,
      clerk_id: DEMO_CLERK_ID,
      vendor_id: null,
      vendor_reference: null,
      received_at: NOW,
      reversible_until: new Date(NOW.getTime() + 72 * 3_600_000),
    },
    totalPaidSeen: seen,
    transactions: [{ type: 'cash', amount_minor: '-100', clerk_id: DEMO_CLERK_ID }],
    events: [{ type: 'payment.recorded', occurredAt: NOW, data: { payment: { id: Number(id) } } }],
    key,
  });
  const receipt = {
    partnerId: '1',
    paymentId: '0',
    amountMinor: '100',
    time: 0,
    deviceTag: DEMO_DEVICE_TAG,
    remainingMinor: '0',
    currency: 'USD',
    nextPayment: null,
    fullyPaid: false,
  };
  const paid = async () =>
    (await database.db('finance_orders').where({ partner_id: '1', id: DEMO_ORDER_ID }).first())
      .total_paid_minor as string;

  it("writes nothing, and numbers nothing, when the order's total is not the one read", async () => {
    const total = await paid();
    const id = await drawId();
    const before = await written();
    expect(await write(database.db, credit((BigInt(total) - 100n).toString(), id))).toBeNull();
    expect(await written()).toEqual(before);
  });

  it('from the total read: the payment with the id it was given, its transaction, its event; every statement names the partner', async () => {
    const id = await drawId();
    const total = await paid();
    const { result, statements } = await statementsDuring(database.db, async () =>
      write(database.db, credit(total, id)),
    );
    const writes = statements.filter((statement) => !/^(begin|commit|savepoint|release)/i.test(statement.sql));
    // One statement; in steps, one per table written (the order, the payment, its transaction, its event).
    expect(writes).toHaveLength(name === 'one statement' ? 1 : 4);
    for (const statement of writes) expect(statement.sql).toMatch(/"?partner_id"?/);
    const event = await database.db('events').where({ id: result!.events[0]!.id }).first();
    expect(event.data).toEqual({ payment: { id: Number(id) } });
    expect(await database.db('transactions').where({ partner_id: '1', payment_id: id })).toHaveLength(1);
  });

  it("fails whole on a live record of the key (another request's, committed meanwhile)", async () => {
    await recordInStorePayment(
      database.db,
      payment({ amount: '1.00', idempotencyKey: claimedKey }),
      NOW,
      TEST_UNLOCK_KEYS,
    );
    const id = await drawId();
    const before = await written();
    const key = {
      key: claimedKey,
      requestHash: 'other',
      receipt,
      expiresAt: new Date(NOW.getTime() + 1000),
      expiredBy: NOW,
    };
    const failed = await write(database.db, credit(await paid(), id, key)).catch((error) => error);
    expect(isKeyClaimedMeanwhile(failed)).toBe(true);
    // Nothing written, and the write numbers nothing itself: the id was drawn before it (by the read).
    expect(await written()).toEqual(before);
  });

  it("replaces an expired record of the key, and leaves the partner's other expired ones to the purge job", async () => {
    await database
      .db('idempotency_keys')
      .where({ partner_id: '1', idempotency_key: claimedKey })
      .update({ expires_at: NOW });
    await database.db('idempotency_keys').insert({
      partner_id: '1',
      idempotency_key: goneKey,
      request_hash: 'x',
      response_status: 200,
      response_body: JSON.stringify(receipt),
      expires_at: NOW,
    });
    const id = await drawId();
    const key = {
      key: claimedKey,
      requestHash: 'anew',
      receipt: { ...receipt, paymentId: id },
      expiresAt: new Date(NOW.getTime() + 1000),
      expiredBy: NOW,
    };
    await write(database.db, credit(await paid(), id, key));
    const records = await database
      .db('idempotency_keys')
      .where({ partner_id: '1' })
      .whereIn('idempotency_key', [claimedKey, goneKey])
      .orderBy('idempotency_key');
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({
      idempotency_key: claimedKey,
      request_hash: 'anew',
      response_body: { ...receipt, paymentId: id },
    });
    expect(records[1]).toMatchObject({ idempotency_key: goneKey, request_hash: 'x' });
  });

  it('fails whole on a record of the key expired only after the time the read compared it with', async () => {
    const id = await drawId();
    const before = await written();
    // The key's record now expires at NOW + 1000: live at NOW, the read's time, though the payment is
    // received later on its partner's sandbox clock.
    const key = {
      key: claimedKey,
      requestHash: 'later',
      receipt,
      expiresAt: new Date(NOW.getTime() + 9000),
      expiredBy: NOW,
    };
    const later = credit(await paid(), id, key);
    later.row = { ...later.row, received_at: new Date(NOW.getTime() + 5000) };
    const failed = await write(database.db, later).catch((error) => error);
    expect(isKeyClaimedMeanwhile(failed)).toBe(true);
    expect(await written()).toEqual(before);
  });
});

describe('recordInStorePayment with its order locked first (a contended order)', () => {
  /** Every unlocked round lost (the order's total moved under each write), then `meanwhile` before the last. */
  const locked = (overrides: Partial<InStorePaymentRequest>, meanwhile?: () => Promise<unknown>) => {
    let lost = 0;
    const db = contendedDb(database.db, {
      lost: OPTIMISTIC_ROUNDS,
      meanwhile: async () => {
        if (++lost === OPTIMISTIC_ROUNDS) await meanwhile?.();
      },
    });
    return recordInStorePayment(db, payment(overrides), NOW, TEST_UNLOCK_KEYS);
  };

  it('records, replays and refuses as the unlocked rounds do, in one transaction', async () => {
    const { result: first, statements } = await statementsDuring(database.db, () =>
      locked({ amount: '2.00', idempotencyKey: 'locked-1' }),
    );
    expect(first.replayed).toBe(false);
    // Each lost round read the facts again (its write found the total moved); then the lock, in one transaction.
    expect(statements.map((statement) => statement.sql)).toEqual([
      ...Array.from({ length: OPTIMISTIC_ROUNDS }, () => expect.stringMatching(/^with facts as materialized/)),
      expect.stringMatching(/^BEGIN/),
      expect.stringMatching(/for update of "o"$/),
      expect.stringMatching(/^with facts as materialized/),
      expect.stringMatching(/^with credited/),
      expect.stringMatching(/^COMMIT/),
    ]);
    // The key claimed by another request while this one lost its rounds: under the lock, a replay or a conflict.
    let claimedMeanwhile: Awaited<ReturnType<typeof recordInStorePayment>> | undefined;
    const otherClaims = (idempotencyKey: string) => async () => {
      claimedMeanwhile = await recordInStorePayment(
        database.db,
        payment({ amount: '2.00', idempotencyKey }),
        NOW,
        TEST_UNLOCK_KEYS,
      );
    };
    const replay = await statementsDuring(database.db, () =>
      locked({ amount: '2', idempotencyKey: 'locked-2' }, otherClaims('locked-2')),
    );
    expect(replay.result).toEqual({ receipt: claimedMeanwhile!.receipt, replayed: true });
    expect(replay.statements.filter((statement) => /for update/.test(statement.sql))).toHaveLength(1);
    const conflict = await statementsDuring(database.db, () =>
      expect(locked({ amount: '3.00', idempotencyKey: 'locked-3' }, otherClaims('locked-3'))).rejects.toMatchObject({
        extensions: { code: 'IDEMPOTENCY_CONFLICT' },
      }),
    );
    expect(conflict.statements.filter((statement) => /for update/.test(statement.sql))).toHaveLength(1);
    const before = await written();
    await expect(locked({ amount: '5000.00' })).rejects.toMatchObject({
      extensions: { code: 'AMOUNT_EXCEEDS_BALANCE' },
    });
    expect(await written()).toEqual(before);
  });
});
