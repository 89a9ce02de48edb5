// closeFinanceOrder: in one transaction the order closed with what it cleared, the clearing adjustment
// and its transaction, the timeline stopped, a returned device back in stock, the events and the audit
// record; every refusal before a write. ledger:check proves the close and names a close gone wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { DEMO_DEVICE_TAG, DEMO_ORDER_ID } from '../../fixtures/demoIds.js';
import { checkLedger } from '../../ledger/check.js';
import type { AuditActor } from '../audit/rows.js';
import { type CloseRequest, closeFinanceOrder } from './close.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const OPERATOR: AuditActor = { kind: 'operator', id: '1', keyId: null, clientAddress: null, requestId: 'close-test' };
const LATE_ORDER = '4000012';
const PAID_OFF_ORDER = '4000010';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
});
afterAll(async () => database?.destroy());

const count = async (table: string) => Number((await database.db(table).count({ n: '*' }).first())!.n);
const written = async () => ({
  adjustments: await count('adjustments'),
  transactions: await count('transactions'),
  events: await count('events'),
  audit: await count('audit_events'),
  closed: Number((await database.db('finance_orders').whereNotNull('closed_at').count({ n: '*' }).first())!.n),
});

const request = (overrides: Partial<CloseRequest> = {}): CloseRequest => ({
  partnerId: '1',
  financeOrderId: LATE_ORDER,
  reason: 'WRITE_OFF',
  note: 'no payment in 200 days',
  operatorId: '1',
  ...overrides,
});

describe('closeFinanceOrder', () => {
  it('writes an order off: cleared by a minus adjustment naming it, its pending instants cancelled, audited', async () => {
    const db = database.db;
    // Its lock fired long ago (the demo's history): it stays fired.
    const fired = () => db('lock_timeline').where({ finance_order_id: LATE_ORDER, kind: 'lock', state: 'fired' });
    expect(await fired()).toHaveLength(1);
    const order = await closeFinanceOrder(db, OPERATOR, request(), NOW);
    expect(order).toMatchObject({
      closed_at: NOW,
      closed_reason: 'WRITE_OFF',
      closed_note: 'no payment in 200 days',
      cleared_minor: '24000',
    });
    const adjustment = await db('adjustments').where({ finance_order_id: LATE_ORDER }).first();
    expect(adjustment).toMatchObject({
      kind: 'payment',
      amount_minor: '-24000',
      notes: `write-off of financeOrder ${LATE_ORDER}: no payment in 200 days`,
      merchant_id: '1000201',
    });
    expect(await db('transactions').where({ adjustment_id: adjustment.id }).select('type', 'amount_minor')).toEqual([
      { type: 'adjustment', amount_minor: '-24000' },
    ]);
    expect(await db('lock_timeline').where({ finance_order_id: LATE_ORDER, state: 'pending' })).toEqual([]);
    expect(await fired()).toHaveLength(1);
    const events = await db('events').where({ partner_id: '1' }).orderBy('sequence', 'desc').limit(2);
    expect(events.map((event) => event.type).sort()).toEqual(['finance_order.written_off', 'transaction.created']);
    const audit = await db('audit_events').where({ action: 'finance_order.close' }).first();
    expect(audit).toMatchObject({ subject_kind: 'finance_order', subject_id: LATE_ORDER, actor_kind: 'operator' });
    expect(audit.details).toMatchObject({ reason: 'WRITE_OFF', cleared: '240.00', adjustmentId: adjustment.id });
    // The device stays the customer's: a written-off device is not back in stock.
    expect((await db('devices').where({ tag: 'DTSTBBD' }).first()).customer_id).not.toBeNull();
    expect((await checkLedger(db)).problems).toEqual([]);
  });

  it('refuses before any write: an unknown order, a closed one, a paid-off one', async () => {
    const db = database.db;
    const before = await written();
    await expect(closeFinanceOrder(db, OPERATOR, request({ financeOrderId: '4000999' }), NOW)).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    await expect(closeFinanceOrder(db, OPERATOR, request(), NOW)).rejects.toMatchObject({
      code: 'FINANCE_ORDER_CLOSED',
      message: `finance order ${LATE_ORDER} was written off; it cannot be closed again`,
    });
    await expect(
      closeFinanceOrder(db, OPERATOR, request({ financeOrderId: PAID_OFF_ORDER, reason: 'DEVICE_RETURNED' }), NOW),
    ).rejects.toMatchObject({ code: 'FINANCE_ORDER_PAID_OFF' });
    // Another partner's order is not found under this partner.
    await expect(closeFinanceOrder(db, OPERATOR, request({ financeOrderId: '5000002' }), NOW)).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(await written()).toEqual(before);
  });

  it('closes an order on its device return: the device back in stock, its live credential ended', async () => {
    const db = database.db;
    const device = await db('devices').where({ tag: DEMO_DEVICE_TAG }).first();
    const pending = () => db('lock_timeline').where({ finance_order_id: DEMO_ORDER_ID, state: 'pending' });
    expect(await pending()).not.toEqual([]);
    const live = () =>
      db('device_credentials').where({ partner_id: device.partner_id, device_id: device.id }).whereNull('ended_at');
    await db('device_credentials')
      .where({ partner_id: device.partner_id, device_id: device.id })
      .update({ ended_at: NOW });
    await db('device_credentials').insert({
      partner_id: device.partner_id,
      device_id: device.id,
      key_hash: 'close-test-credential',
      unlock_key: 'close-test-unlock-key',
    });
    expect(await live()).toHaveLength(1);
    const order = await closeFinanceOrder(
      db,
      OPERATOR,
      request({ financeOrderId: DEMO_ORDER_ID, reason: 'DEVICE_RETURNED', note: 'handed back in store' }),
      NOW,
    );
    expect(order).toMatchObject({ closed_reason: 'DEVICE_RETURNED', cleared_minor: '19800' });
    expect((await db('devices').where({ id: device.id }).first()).customer_id).toBeNull();
    expect(await pending()).toEqual([]);
    expect(await live()).toEqual([]);
    const audit = await db('audit_events').where({ action: 'finance_order.close', subject_id: DEMO_ORDER_ID }).first();
    expect(audit.details).toMatchObject({ reason: 'DEVICE_RETURNED', credentialEnded: true });
    expect((await db('adjustments').where({ finance_order_id: DEMO_ORDER_ID, kind: 'payment' }).first()).notes).toBe(
      `device returned for financeOrder ${DEMO_ORDER_ID}: handed back in store`,
    );
    expect((await checkLedger(db)).problems).toEqual([]);
  });

  it('ledger:check names a close whose adjustment disagrees with what it cleared', async () => {
    const db = database.db;
    await db('adjustments').where({ finance_order_id: LATE_ORDER }).update({ amount_minor: -23000 });
    const problems = (await checkLedger(db)).problems.filter((problem) => problem.startsWith("a closed order's"));
    expect(problems).toEqual([
      `a closed order's cleared_minor is minus its closing adjustment, its balance 0: finance order ${LATE_ORDER} (closed WRITE_OFF): cleared 24000, balance 0, 0 closing adjustments instead of 1`,
    ]);
  });
});
