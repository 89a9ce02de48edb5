// Hundreds of mixed writers at once on a few orders, through the legacy REST doors, on real Postgres:
// in-store payments, vendor notifications, exact replays, replays with changed parameters and
// overdrawing payments. Afterwards every accepted request is in the ledger exactly once, every
// refused one left no trace, no balance went below zero, and the ledger checker finds nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';

const fixture = useSeededService();

interface Sent {
  kind: 'in-store' | 'vendor';
  /** Idempotency key or vendor reference: requests sharing it are one payment at most. */
  identity: string | null;
  order: string;
  amount: string;
  intent: 'pay' | 'replay' | 'changed-replay' | 'overdraw';
  status: number;
  body: any;
}

const ORDERS = [
  {
    id: DEMO_ORDER_ID,
    key: 'demo-retail-key',
    merchant: DEMO_MERCHANT_ID,
    clerk: DEMO_CLERK_ID,
    tag: DEMO_DEVICE_TAG,
    currency: 'USD',
  },
  { id: '4000012', key: 'demo-retail-key', merchant: '1000201', clerk: '5320', tag: 'DTSTBBD', currency: 'USD' },
  { id: '5000002', key: 'other-retail-key', merchant: '2000001', clerk: '6001', tag: 'DTSTBBE', currency: 'MXN' },
] as const;

/** A small deterministic generator, so a failing run can be replayed exactly. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const summary: string[] = [];
afterAll(() => {
  if (summary.length) console.info(`[reliability] ${summary.join('; ')}`);
});

async function inStore(order: (typeof ORDERS)[number], amount: string, key: string | null) {
  const query = new URLSearchParams({
    key: order.key,
    merchantId: order.merchant,
    salesClerkId: order.clerk,
    financeOrderId: order.id,
    amount,
    currency: order.currency,
  });
  const response = await fixture.service.request(`/v1/record-customer-payment.php?${query}`, {
    headers: key ? { 'idempotency-key': key } : {},
  });
  return { status: response.status, body: await response.json() };
}

async function vendorToken(): Promise<string> {
  const response = await fixture.service.request('/payments/v1/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
  });
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}

async function notify(token: string, order: (typeof ORDERS)[number], amount: string, reference: string) {
  const response = await fixture.service.request('/payments/v1/notification', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      paymentVendor: 'demo-vendor',
      amount,
      currency: order.currency,
      reference,
      deviceTag: order.tag,
    }),
  });
  return { status: response.status, body: await response.json() };
}

const paymentIdOf = (sent: Sent): string =>
  String(sent.kind === 'in-store' ? sent.body.payment.id : sent.body.data.paymentId);
const minor = (amount: string) => Math.round(Number(amount) * 100);

describe.skipIf(!onPostgres)('mixed writers at once (Postgres)', () => {
  it('puts every accepted request in the ledger exactly once and leaves no trace of a refused one', async () => {
    const random = generator(20261121);
    const token = await vendorToken();
    const db = fixture.database.db;
    const totalsBefore = new Map(
      (await db('finance_orders').select('id', 'total_paid_minor')).map((o) => [
        o.id as string,
        BigInt(o.total_paid_minor),
      ]),
    );
    const paymentsBefore = Number((await db('payments').count({ n: '*' }))[0]!.n);

    // Small amounts: together they stay below every balance, so only the overdraws are refused.
    const amount = () => (0.1 + Math.floor(random() * 140) / 100).toFixed(2);
    const pick = () => ORDERS[Math.floor(random() * ORDERS.length)]!;
    const plans: Array<() => Promise<Sent>> = [];
    const plan = (sent: Omit<Sent, 'status' | 'body'>, send: () => Promise<{ status: number; body: unknown }>) =>
      plans.push(async () => ({ ...sent, ...(await send()) }));

    for (let i = 0; i < 120; i++) {
      const order = pick();
      const value = amount();
      const key = i % 10 < 7 ? `mix-key-${i}` : null;
      plan({ kind: 'in-store', identity: key, order: order.id, amount: value, intent: 'pay' }, () =>
        inStore(order, value, key),
      );
      if (key && i % 4 === 0)
        plan({ kind: 'in-store', identity: key, order: order.id, amount: value, intent: 'replay' }, () =>
          inStore(order, value, key),
        );
      if (key && i % 6 === 1) {
        const changed = (Number(value) + 0.01).toFixed(2);
        plan({ kind: 'in-store', identity: key, order: order.id, amount: changed, intent: 'changed-replay' }, () =>
          inStore(order, changed, key),
        );
      }
    }
    for (let i = 0; i < 60; i++) {
      const order = pick();
      const value = amount();
      const reference = `mix-ref-${i}`;
      plan({ kind: 'vendor', identity: reference, order: order.id, amount: value, intent: 'pay' }, () =>
        notify(token, order, value, reference),
      );
      if (i % 3 === 0)
        plan({ kind: 'vendor', identity: reference, order: order.id, amount: value, intent: 'replay' }, () =>
          notify(token, order, value, reference),
        );
      if (i % 5 === 2) {
        const changed = (Number(value) + 0.01).toFixed(2);
        plan({ kind: 'vendor', identity: reference, order: order.id, amount: changed, intent: 'changed-replay' }, () =>
          notify(token, order, changed, reference),
        );
      }
    }
    for (let i = 0; i < 20; i++) {
      const order = pick();
      plan(
        { kind: 'in-store', identity: `overdraw-key-${i}`, order: order.id, amount: '900.00', intent: 'overdraw' },
        () => inStore(order, '900.00', `overdraw-key-${i}`),
      );
      if (i < 10)
        plan(
          { kind: 'vendor', identity: `overdraw-ref-${i}`, order: order.id, amount: '900.00', intent: 'overdraw' },
          () => notify(token, order, '900.00', `overdraw-ref-${i}`),
        );
    }

    // Shuffle, then send every request at once.
    for (let i = plans.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [plans[i], plans[j]] = [plans[j]!, plans[i]!];
    }
    const sent = await Promise.all(plans.map((send) => send()));

    // No request failed on the service's side.
    expect(sent.filter((s) => ![200, 400, 409].includes(s.status)).map((s) => [s.status, s.body])).toEqual([]);

    // Overdraws were refused and left nothing behind.
    const overdraws = sent.filter((s) => s.intent === 'overdraw');
    expect(overdraws.every((s) => s.status === 400)).toBe(true);
    expect(await db('idempotency_keys').where('idempotency_key', 'like', 'overdraw-key-%')).toEqual([]);
    expect(await db('vendor_notifications').where('reference', 'like', 'overdraw-ref-%')).toEqual([]);

    // Requests sharing a key or reference: one payment at most, the same answer for every request with
    // the winner's parameters, 409 for any other.
    const accepted = new Map<string, Sent>(); // payment id -> the accepted request
    const groups = new Map<string, Sent[]>();
    for (const s of sent) {
      if (s.status === 200) accepted.set(paymentIdOf(s), s);
      if (s.identity) groups.set(`${s.kind}:${s.identity}`, [...(groups.get(`${s.kind}:${s.identity}`) ?? []), s]);
    }
    for (const [identity, group] of groups) {
      const ok = group.filter((s) => s.status === 200);
      if (group.some((s) => s.intent === 'overdraw')) continue;
      expect(new Set(ok.map(paymentIdOf)).size, identity).toBe(1);
      for (const s of ok) expect(s.body, identity).toEqual(ok[0]!.body);
      const winner = ok[0]!;
      for (const s of group.filter((s) => s.status !== 200)) {
        expect(s.status, identity).toBe(409);
        expect(s.amount, identity).not.toBe(winner.amount);
      }
    }

    // Every accepted payment is in the ledger exactly once, with the amount its request sent.
    const ids = [...accepted.keys()];
    const rows = await db('payments').whereIn('id', ids).select('id', 'amount_minor', 'channel', 'finance_order_id');
    expect(rows).toHaveLength(ids.length);
    for (const row of rows) {
      const request = accepted.get(row.id)!;
      expect([row.finance_order_id, Number(row.amount_minor), row.channel]).toEqual([
        request.order,
        minor(request.amount),
        request.kind === 'vendor' ? 'vendor' : 'in_store',
      ]);
    }
    const paymentsAfter = Number((await db('payments').count({ n: '*' }))[0]!.n);
    expect(paymentsAfter - paymentsBefore).toBe(ids.length);

    // Each order's balance moved by exactly what was accepted for it.
    for (const order of ORDERS) {
      const credited = [...accepted.values()]
        .filter((s) => s.order === order.id)
        .reduce((sum, s) => sum + BigInt(minor(s.amount)), 0n);
      const after = BigInt((await db('finance_orders').where({ id: order.id }).first()).total_paid_minor);
      expect(after - totalsBefore.get(order.id)!, order.id).toBe(credited);
    }

    const report = await checkLedger(db);
    expect(report.problems).toEqual([]);
    summary.push(
      `mixed writers: ${sent.length} requests at once, ${ids.length} payments accepted, ${sent.filter((s) => s.status === 409).length} conflicts, ` +
        `${sent.filter((s) => s.status === 400).length} refused, 0 lost or doubled; ledger check over ${report.checked.payments} payments clean`,
    );
  });

  it('one idempotency key or vendor reference sent by many requests at the same instant records exactly one payment', async () => {
    const db = fixture.database.db;
    const token = await vendorToken();
    const order = ORDERS[0];
    // Half with one amount, half with another: whichever lands first wins, the rest match it or are 409.
    const storeResults = await Promise.all(
      Array.from({ length: 30 }, (_, i) => inStore(order, i % 2 ? '0.33' : '0.34', 'instant-key')),
    );
    const vendorResults = await Promise.all(
      Array.from({ length: 30 }, (_, i) => notify(token, order, i % 2 ? '0.21' : '0.22', 'instant-ref')),
    );
    for (const [results, idOf] of [
      [storeResults, (body: any) => body.payment.id],
      [vendorResults, (body: any) => body.data.paymentId],
    ] as const) {
      const ok = results.filter((r) => r.status === 200);
      expect(new Set(ok.map((r) => idOf(r.body))).size).toBe(1);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409)).toBe(true);
      expect(ok.every((r) => JSON.stringify(r.body) === JSON.stringify(ok[0]!.body))).toBe(true);
    }
    expect(await db('idempotency_keys').where({ idempotency_key: 'instant-key' })).toHaveLength(1);
    expect(await db('payments').where({ vendor_reference: 'instant-ref' })).toHaveLength(1);
    expect((await checkLedger(db)).problems).toEqual([]);
    summary.push('same key or reference x30 at once: 1 payment each');
  });
});
