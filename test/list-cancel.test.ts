// A client that leaves a long list leaves nothing running (Postgres: the embedded database runs a
// statement out). A statement tied to a signal (src/db/prepared.ts cancellable) is cancelled on the
// server when the signal aborts, and its connection serves the next statement; REST list-transactions
// ties each page to its client, so a list whose client disconnects after the first bytes stops: no
// page is asked for after, the one being read is cancelled, and no statement of it is left running.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abandoned, cancellable } from '../src/db/prepared.js';
import { addBulkOrders } from './support/bulk.js';
import { createTestDatabase, onPostgres, type TestDatabase } from './support/db.js';
import { startTestService, type TestService } from './support/service.js';
import { statementsDuring } from './support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
/** The longest window, with the bulk orders (3 transactions every 2 hours): over 13,000 rows, three pages. */
const WINDOW = { start: T - 376 * DAY, end: T - 10 * DAY };
let database: TestDatabase;
let service: TestService;

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase({ now: NOW });
  await addBulkOrders(database.db, 4_500, new Date((WINDOW.end - DAY) * 1000));
  service = await startTestService(database.db, { now: () => NOW });
}, 120_000);
afterAll(async () => {
  await service?.close();
  await database?.destroy();
});

/** The statements of this database running now, other than the one asking. */
async function running(like: string): Promise<string[]> {
  const { rows } = await database.db.raw(
    `select query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and query like ?`,
    [like],
  );
  return rows.map((row: { query: string }) => row.query);
}

/**
 * A client that reads the first bytes of the answer and closes its connection (a raw socket: closed at
 * once, where fetch in this same process would close it only once the service yields).
 */
function leaveAfterFirstBytes(url: URL): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () =>
      socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`),
    );
    socket.once('data', (chunk: Buffer) => {
      socket.destroy();
      resolve(chunk.toString('latin1'));
    });
    socket.once('error', reject);
  });
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe.skipIf(!onPostgres)('a statement whose client went away', () => {
  it('is cancelled on the server when its signal aborts, and its connection serves the next statement', async () => {
    const signal = new AbortController();
    const started = Date.now();
    const sleeping = cancellable(database.db.raw('select pg_sleep(30) as slept'), signal.signal);
    const failure = sleeping.then(
      () => null,
      (error: unknown) => error,
    );
    expect(await until(async () => (await running('%pg_sleep(30)%')).length === 1, 5_000)).toBe(true);
    signal.abort();
    const error = await failure;
    expect(error).toMatchObject({ code: abandoned().code, message: abandoned().message });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await running('%pg_sleep(30)%')).toEqual([]);
    // Every connection of the pool still answers (none was left with a cancel pending).
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => database.db.raw('select ?::int as n, pg_sleep(0.05)', [i])),
    );
    expect(answers.map((answer) => answer.rows[0].n)).toEqual([0, 1, 2, 3]);
  }, 30_000);

  it('already aborted: is not sent at all', async () => {
    const signal = new AbortController();
    signal.abort();
    const { result, statements } = await statementsDuring(database.db, () =>
      cancellable(database.db.raw('select 1'), signal.signal).then(
        () => null,
        (error: unknown) => error,
      ),
    );
    expect(result).toMatchObject({ code: abandoned().code, message: abandoned().message });
    expect(statements).toEqual([]);
  });
});

describe.skipIf(!onPostgres)('REST list-transactions whose client leaves after the first bytes', () => {
  it('asks for no page after, and leaves no statement running', async () => {
    const partner = (await database.db('partners').where({ name: 'Demo Retail' }).first()).id;
    const [counted] = await database
      .db('transactions')
      .where('partner_id', partner)
      .where('occurred_at', '>=', new Date(WINDOW.start * 1000))
      .where('occurred_at', '<', new Date(WINDOW.end * 1000))
      .count<{ count: string }[]>('* as count');
    const pages = Math.ceil((Number(counted!.count) + 1) / 5000);
    expect(pages).toBe(3);

    const listings = () => statements.filter((statement) => /from "transactions"/.test(statement.sql));
    let statements: Array<{ sql: string; rows: number | null }> = [];

    await statementsDuring(database.db, async () => {
      const head = await leaveAfterFirstBytes(
        new URL(
          `${service.baseUrl}/v1/list-transactions.php?key=demo-partner-key&starttime=${WINDOW.start}&endtime=${WINDOW.end}`,
        ),
      );
      expect(head.startsWith('HTTP/1.1 200')).toBe(true);
      // The page being read when the client left is cancelled (or finishes), and nothing follows it.
      expect(await until(async () => (await running('%from "transactions"%')).length === 0, 10_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return null;
    }).then((during) => {
      statements = during.statements;
    });
    // The first page, and the second, read while the first was written (cancelled, unless it was in
    // before the client's leaving was seen); never the third.
    expect(listings().map((statement) => statement.rows)).toEqual([5001, expect.toBeOneOf([5001, null])]);
    expect(await running('%from "transactions"%')).toEqual([]);
  }, 60_000);
});
