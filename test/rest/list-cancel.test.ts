// A client that leaves a long list leaves nothing running (Postgres: the embedded database runs a
// statement out). A statement tied to a signal (src/db/prepared.ts cancellable) is cancelled on the
// server when the signal aborts, and its connection serves the next statement; REST list-transactions
// ties each page to its client: a client that leaves while the first page is read has that statement
// cancelled and none after it, and one that leaves after the first bytes leaves no statement running
// (which pages were asked before its leaving was seen depends on timing: test/rest/list-streaming.test.ts
// pins the order).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abandoned, cancellable } from '../../src/db/prepared.js';
import { addBulkOrders } from '../support/bulk.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';
import { statementsDuring } from '../support/statements.js';

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
  });

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

const LIST_PATH = `/v1/list-transactions.php?key=demo-partner-key&starttime=${WINDOW.start}&endtime=${WINDOW.end}`;
const isListing = (sql: string) => /from "transactions"/.test(sql);

describe.skipIf(!onPostgres)('REST list-transactions whose client leaves', () => {
  it('the window holds three pages', async () => {
    const partner = (await database.db('partners').where({ name: 'Demo Retail' }).first()).id;
    const [counted] = await database
      .db('transactions')
      .where('partner_id', partner)
      .where('occurred_at', '>=', new Date(WINDOW.start * 1000))
      .where('occurred_at', '<', new Date(WINDOW.end * 1000))
      .count<{ count: string }[]>('* as count');
    expect(Math.ceil((Number(counted!.count) + 1) / 5000)).toBe(3);
  });

  it('while its first page is read: that statement and the next page read beside it are cancelled, none follows, nothing is left running', async () => {
    // The first page cannot finish while the test holds a lock it needs: it is still running when the
    // client leaves, whatever the machine's load.
    const lock = await database.db.transaction();
    await lock.raw('lock table adjustments in access exclusive mode');
    try {
      const { statements } = await statementsDuring(database.db, async () => {
        const url = new URL(`${service.baseUrl}${LIST_PATH}`);
        const socket = connect(Number(url.port), url.hostname, () =>
          socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`),
        );
        socket.on('error', () => undefined);
        // The client leaves the moment the first page's statement is sent (the socket closes at once).
        const leave = (query: { sql: string }) => {
          if (isListing(query.sql)) socket.destroy();
        };
        database.db.on('query', leave);
        try {
          await new Promise((resolve) => socket.once('close', resolve));
          expect(await until(async () => (await running('%from "transactions"%')).length === 0, 10_000)).toBe(true);
          await new Promise((resolve) => setTimeout(resolve, 300));
        } finally {
          database.db.off('query', leave);
        }
      });
      // The first page and the second, read ahead beside it (src/db/readAhead.ts): both cancelled.
      expect(statements.filter((statement) => isListing(statement.sql)).map((statement) => statement.rows)).toEqual([
        null,
        null,
      ]);
    } finally {
      await lock.rollback();
    }
  });

  it('after the first bytes: nothing is left running', async () => {
    const { statements } = await statementsDuring(database.db, async () => {
      const head = await leaveAfterFirstBytes(new URL(`${service.baseUrl}${LIST_PATH}`));
      expect(head.startsWith('HTTP/1.1 200')).toBe(true);
      // The page being read when the client's leaving is seen is cancelled (or finishes); none follows.
      expect(await until(async () => (await running('%from "transactions"%')).length === 0, 10_000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const listings = statements.filter((statement) => isListing(statement.sql));
    // The first page answered whole (5,000 rows and one more), whatever a page read ahead beside it did.
    expect(listings.map((statement) => statement.rows)).toContain(5001);
    // At most the three pages and the read ahead past the last, if the leaving came too late to stop any.
    expect(listings.length).toBeLessThanOrEqual(4);
    expect(await running('%from "transactions"%')).toEqual([]);
  });
});
