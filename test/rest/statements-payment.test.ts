// Round trips of one payment: every SQL statement is a round trip to Postgres, and their number is
// what bounds payments per second, so each path has a budget here. Counted from the
// knex instance's query events, auth's API key lookup included; deterministic, no timing.
//
// Before the round trips were cut: in store 12 statements without an Idempotency-Key, 16 with one, 6 for a replay;
// a vendor notification 15, its replay 7.
//
// The event log adds one statement to a recorded payment (never to a replay): appendEvents,
// writing all of its events at once. Its transactions' payloads are made from what the payment has in
// hand (the store and clerk names come with the statement that checks them), so nothing is read back.
//
// The benchmark's payment target ("one round trip, not six"): an in-store payment is one read and one write,
// each its own implicit transaction, no BEGIN, no lock held across round trips: 4 statements with or
// without an Idempotency-Key (the key, the read, the write, the notify after it), was 8 and 11. The
// read brings the store and clerk names, the order with its partner's rate and device tag, and the
// key's record; the write's every part is gated on the database's guards (payments/queries.ts).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type Pool, recordCustomerPayment } from '../../bench/baseline-payment.js';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { statementsDuring, withoutRequestLimits } from '../support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });

const RECORD = `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&currency=USD`;

async function statementsOf(
  send: () => Promise<Response>,
): Promise<{ response: Response; body: any; statements: string[] }> {
  const { result, statements } = await statementsDuring(fixture.database.db, async () => {
    const response = await send();
    return { response, body: await response.json() };
  });
  return { ...result, statements: statements.map((statement) => statement.sql) };
}

const recordInStore = (amount: string, idempotencyKey?: string) =>
  statementsOf(() =>
    fixture.service.request(`${RECORD}&amount=${amount}`, {
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
    }),
  );

/** Statements that lock an order row (the in-store payment takes no lock unless its order is contended). */
const orderLocks = (statements: string[]) =>
  statements.filter((sql) => /\bfor update\b/i.test(sql) && /"?finance_orders"?/.test(sql));

const transactionControl = (statements: string[]) =>
  statements.filter((sql) => /^(BEGIN|COMMIT|ROLLBACK)\b/i.test(sql));

describe('record-customer-payment', () => {
  it('takes 4 statements: the key, one read, one write, and the notify after it', async () => {
    const { response, body, statements } = await recordInStore('1.00');
    expect(response.status).toBe(200);
    expect(body.payment).toMatchObject({ deviceTag: DEMO_DEVICE_TAG, remainingBalance: 197, fullyPaid: false });
    expect(statements.length, statements.join('\n')).toBe(4);
    expect(orderLocks(statements)).toHaveLength(0);
    expect(transactionControl(statements)).toHaveLength(0);
    // The write is one statement: the running total (from the total read), the payment, its ledger and events.
    const write = statements[2]!;
    for (const table of ['finance_orders', 'payments', 'transactions', 'events']) expect(write).toContain(table);
    expect(write).toMatch(/total_paid_minor = \$\d+::int8/);
    // Listeners hear of the events after the write committed, in a statement of its own
    // (modules/events/publish.ts); the answer's payment id is the row the write returned, not a read after it.
    expect(statements[3]).toMatch(/^select pg_notify\(/);
    const [payment] = await fixture.database.db('payments').where({ partner_id: 1, id: body.payment.id });
    expect(payment).toMatchObject({
      amount_minor: '100',
      channel: 'in_store',
      merchant_id: DEMO_MERCHANT_ID,
      clerk_id: DEMO_CLERK_ID,
    });
  });

  it("with an Idempotency-Key, takes the same 4: the key's record is read by the read and written by the write", async () => {
    const { response, body, statements } = await recordInStore('2.00', 'statements-1');
    expect(response.status).toBe(200);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(body.payment.remainingBalance).toBe(195);
    expect(statements.length, statements.join('\n')).toBe(4);
    expect(statements[2]).toContain('insert into idempotency_keys');
    expect(orderLocks(statements)).toHaveLength(0);
    expect(transactionControl(statements)).toHaveLength(0);
  });

  it("replays in 3: the key, the read (which finds the key's record), and the payment read for its id", async () => {
    const first = await recordInStore('3.00', 'statements-2');
    const replay = await recordInStore('3.00', 'statements-2');
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.statements.length, replay.statements.join('\n')).toBe(3);
    // Nothing written (but the request limits' count, which rides on the key's statement on Postgres).
    const writes = /\b(insert\s+into|update\s+"?\w+"?(\s+\w+)?\s+set|delete\s+from)\b/i;
    expect(withoutRequestLimits(replay.statements).some((sql) => writes.test(sql))).toBe(false);
  });

  it('a refusal takes 2: the key and the read; nothing is written', async () => {
    const refused = await recordInStore('9999.00', 'statements-3');
    expect(refused.response.status).toBe(400);
    expect(refused.statements.length, refused.statements.join('\n')).toBe(2);
  });
});

describe('vendor payment notification', () => {
  it('takes 14 statements (its events one, the notify after the commit one), and 7 for a repeated reference', async () => {
    const token = await fixture.service.request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    const accessToken = ((await token.json()) as any).data.access_token as string;
    const notify = () =>
      statementsOf(() =>
        fixture.service.request('/payments/v1/notification', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
          body: JSON.stringify({
            paymentVendor: 'demo-vendor',
            amount: '20.00',
            currency: 'USD',
            reference: 'statements-1',
            deviceTag: 'DTSTBBD',
          }),
        }),
      );
    const first = await notify();
    expect(first.response.status).toBe(200);
    expect(first.body.data).toMatchObject({
      message: 'payment of 20.00 USD recorded for device DTSTBBD',
      remainingBalance: 220,
    });
    expect(first.statements.length, first.statements.join('\n')).toBeLessThanOrEqual(14);
    expect(orderLocks(first.statements)).toHaveLength(1);
    const repeated = await notify();
    expect(repeated.body).toEqual(first.body);
    expect(repeated.statements.length, repeated.statements.join('\n')).toBeLessThanOrEqual(7);
  });
});

// bench/baseline-payment.ts is the floor the bench holds the service's payments against: it must send
// what the service sends, statement for statement and in the same text, or the ratio measures a
// different piece of work. It runs on pg against the same database (Postgres only: it is `pg`).
describe.skipIf(!onPostgres)('the bench baseline of record-customer-payment', () => {
  /** The baseline's answer to the same request, and the SQL texts it sent, in order. */
  async function baseline(amount: string, idempotencyKey?: string) {
    const pool = new pg.Pool({ connectionString: fixture.database.url!, max: 2 });
    const sql: string[] = [];
    const recording: Pool = {
      query: (statement) => {
        sql.push(statement.text);
        return pool.query(statement);
      },
    };
    try {
      const params = Object.fromEntries(new URL(`http://baseline${RECORD}&amount=${amount}`).searchParams);
      const answer = await recordCustomerPayment(recording, params, idempotencyKey);
      return { ...answer, sql };
    } finally {
      await pool.end();
    }
  }

  it.each([
    ['without an Idempotency-Key', undefined],
    ['with one', 'baseline-drift'],
  ])('sends the statements the service sends, %s, and answers the same shape', async (_case, key) => {
    const service = await recordInStore('4.00', key && `${key}-service`);
    const bare = await baseline('4.00', key && `${key}-baseline`);
    expect(service.response.status).toBe(200);
    expect(bare.status).toBe(200);
    expect(bare.sql).toEqual(withoutRequestLimits(service.statements));
    const body = bare.body as typeof service.body;
    expect(Object.keys(body)).toEqual(Object.keys(service.body));
    expect(Object.keys(body.payment).sort()).toEqual(Object.keys(service.body.payment).sort());
    // The same order after both: the baseline's figures follow the service's by one payment of 4.00.
    expect(body.payment.remainingBalance).toBe(service.body.payment.remainingBalance - 4);
    expect(body.payment.deviceTag).toBe(service.body.payment.deviceTag);
    // Its payment wrote what the service's did: a cash and a commission transaction, and three events.
    const written = async (table: string, column: string, id: number) =>
      (
        await fixture.database
          .db(table)
          .where({ partner_id: 1, [column]: id })
          .count({ n: '*' })
          .first()
      )?.n;
    expect(Number(await written('transactions', 'payment_id', body.payment.id))).toBe(
      Number(await written('transactions', 'payment_id', service.body.payment.id)),
    );
    const events = await fixture.database
      .db('events')
      .where({ partner_id: 1 })
      .whereRaw(`data->'payment'->>'id' = ? or data->'payment'->>'id' = ?`, [
        String(body.payment.id),
        String(service.body.payment.id),
      ])
      .select('type', 'data');
    expect(events.map((event) => event.type).sort()).toEqual(
      [
        'payment.recorded',
        'payment.recorded',
        'transaction.created',
        'transaction.created',
        'transaction.created',
        'transaction.created',
      ].sort(),
    );
  });

  it('refuses what the SQL would: no amount above the balance, none of 0, another currency', async () => {
    expect((await baseline('0')).status).toBe(400);
    expect((await baseline('99999')).status).toBe(400);
    expect((await baseline('1.00&currency=MXN')).status).toBe(400);
    const other = await baseline('1.00');
    expect(other.status).toBe(200);
  });

  it("replays an Idempotency-Key's answer, and leaves a ledger ledger:check finds clean", async () => {
    const first = await baseline('1.50', 'baseline-replay');
    const replay = await baseline('1.50', 'baseline-replay');
    expect(replay.body).toEqual(first.body);
    expect(replay.sql.some((sql) => sql.includes('"payments"'))).toBe(false);
    expect((await baseline('2.50', 'baseline-replay')).status).toBe(409);
    expect((await checkLedger(fixture.database.db)).problems).toEqual([]);
  });
});
