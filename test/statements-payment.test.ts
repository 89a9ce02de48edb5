// Round trips of one payment: every SQL statement is a round trip to Postgres, and their number is
// what bounds payments per second (issue "Speed"), so each path has a budget here. Counted from the
// knex instance's query events, auth's API key lookup included; deterministic, no timing.
//
// Before the issue: in store 12 statements without an Idempotency-Key, 16 with one, 6 for a replay;
// a vendor notification 15, its replay 7.
//
// Issue 13's event log adds one statement to a recorded payment (never to a replay): appendEvents,
// writing all of its events at once. Its transactions' payloads are made from what the payment has in
// hand (the store and clerk names come with the statement that checks them), so nothing is read back.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type Pool, recordCustomerPayment } from '../bench/baseline-payment.js';
import { checkLedger } from '../src/ledger/check.js';
import { onPostgres } from './support/db.js';
import { useSeededService } from './support/fixtures.js';
import { statementsDuring } from './support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });

const RECORD =
  '/v1/record-customer-payment.php?key=demo-retail-key&merchantId=851005&salesClerkId=5335&financeOrderId=4000004&currency=USD';

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

/** The order is still locked, once, by the statement that reads it. */
const orderLocks = (statements: string[]) =>
  statements.filter((sql) => /\bfor update\b/i.test(sql) && sql.includes('"finance_orders"'));

describe('record-customer-payment', () => {
  it('takes 8 statements: key, BEGIN, merchant and clerk, order locked with partner and device, the writes, its events, COMMIT, and the notify after it', async () => {
    const { response, body, statements } = await recordInStore('1.00');
    expect(response.status).toBe(200);
    expect(body.payment).toMatchObject({ deviceTag: 'DTSTBBB', remainingBalance: 197, fullyPaid: false });
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(8);
    expect(orderLocks(statements)).toHaveLength(1);
    // Listeners hear of the events after the commit, in a statement of its own (modules/events/publish.ts),
    // never from inside the payment's transaction; the answer's payment id is the row the writes returned,
    // not a read after COMMIT.
    const commit = statements.indexOf('COMMIT;');
    const notify = (sql: string) => /^select pg_notify\(/.test(sql);
    expect(statements.slice(0, commit).some(notify)).toBe(false);
    expect(statements.slice(commit + 1).every(notify)).toBe(true);
    const [payment] = await fixture.database.db('payments').where({ partner_id: 1, id: body.payment.id });
    expect(payment).toMatchObject({
      amount_minor: '100',
      channel: 'in_store',
      merchant_id: '851005',
      clerk_id: '5335',
    });
  });

  it('with an Idempotency-Key, takes 11: the key locked, looked up, and stored (with its housekeeping) on top', async () => {
    const { response, body, statements } = await recordInStore('2.00', 'statements-1');
    expect(response.status).toBe(200);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(body.payment.remainingBalance).toBe(195);
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(11);
    expect(orderLocks(statements)).toHaveLength(1);
  });

  it('replays in 6: key, BEGIN, the key locked and looked up, COMMIT, and the payment read for its id', async () => {
    const first = await recordInStore('3.00', 'statements-2');
    const replay = await recordInStore('3.00', 'statements-2');
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.statements.length, replay.statements.join('\n')).toBeLessThanOrEqual(8);
    expect(orderLocks(replay.statements)).toHaveLength(0);
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
    const text = (statement: string | { text: string }) => (typeof statement === 'string' ? statement : statement.text);
    const recording: Pool = {
      query: (statement) => {
        sql.push(statement.text);
        return pool.query(statement);
      },
      connect: async () => {
        const client = await pool.connect();
        return {
          query: (statement) => {
            sql.push(text(statement));
            return client.query(statement);
          },
          release: (error) => client.release(error),
        };
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
    expect(bare.sql).toEqual(service.statements);
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
