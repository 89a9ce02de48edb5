// A list read whole reads each page's successor beside it (src/db/readAhead.ts): the next page is
// taken only where it starts at the page's own start, and is then not read again; on either backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { statementsDuring } from '../../../test/support/statements.js';
import { ReadAhead } from '../../db/readAhead.js';
import { type PagesAhead, transactionsInWindow } from './listing.js';
import type { TransactionWindow } from './queries.js';
import type { ListedTransactionRow } from './rows.js';

const NOW = new Date('2026-06-10T15:30:00Z');
let test: TestDatabase;
let window: TransactionWindow;
/** Every row of the window, read in one statement. */
let all: ListedTransactionRow[];

const positionOf = (row: ListedTransactionRow) => ({ timeUs: row.occurred_at_us, id: row.id });
const ids = (rows: ListedTransactionRow[]) => rows.map((row) => row.id);
/** A list's read-ahead whose reads a test can wait for: every read it starts is kept. */
function readsWatched(): { reads: ReadAhead; started: Array<Promise<unknown>> } {
  const reads = new ReadAhead();
  const started: Array<Promise<unknown>> = [];
  const leave = reads.leave.bind(reads);
  reads.leave = (key, read) =>
    leave(key, () => {
      const running = read();
      started.push(running.catch(() => undefined));
      return running;
    });
  return { reads, started };
}

/**
 * A page showing 2 rows, read with 3 (the third says another follows), as the resolver reads them,
 * and the statements it sent, the read it left for the next page included (waited for).
 */
const page = (ahead: ReturnType<typeof readsWatched> | undefined, after?: ListedTransactionRow, end = window.end) =>
  statementsDuring(test.db, async () => {
    const rows = await transactionsInWindow(
      test.db,
      { ...window, end, after: after && positionOf(after), limit: 3 },
      undefined,
      ahead && ({ reads: ahead.reads, rowsShown: 2 } satisfies PagesAhead),
    );
    await Promise.all(ahead?.started ?? []);
    return rows;
  });

beforeAll(async () => {
  test = await createTestDatabase({ now: NOW });
  const partner = await test.db('partners').where({ name: 'Demo Retail' }).first();
  window = {
    partnerId: partner.id,
    start: new Date('2025-06-10T00:00:00Z'),
    end: new Date('2026-06-11T00:00:00Z'),
    filters: [],
    links: { merchant: ['name'] },
  };
  all = await transactionsInWindow(test.db, window);
});
afterAll(() => test.destroy());

describe('pages of a list read whole', () => {
  it('the window holds three pages of two', () => {
    expect(all.length).toBe(5);
  });

  it('each page reads the next beside it, and the next page takes that read instead of reading again', async () => {
    const ahead = readsWatched();
    const first = await page(ahead);
    expect(ids(first.result)).toEqual(ids(all.slice(0, 3)));
    expect(first.statements).toHaveLength(2);
    // The page read ahead starts at the last row the first shows: that row, the next two, and one more.
    expect(first.statements.map((statement) => statement.rows).sort()).toEqual([3, 4]);

    const second = await page(ahead, all[1]);
    expect(ids(second.result)).toEqual(ids(all.slice(2, 5)));
    expect(second.result[0]).toEqual(all[2]);
    // Only the third page's read ahead: the second page itself was read already.
    expect(second.statements).toHaveLength(1);

    const third = await page(ahead, all[3]);
    expect(ids(third.result)).toEqual(ids(all.slice(4)));
    expect(third.statements).toHaveLength(1);
    await ahead.reads.close();
  });

  it('a page that does not start where the read ahead does is read afresh, and answers the same', async () => {
    const ahead = readsWatched();
    await page(ahead);
    // As if a row written meanwhile had moved the first page's end: asked from another position.
    const moved = await page(ahead, all[0]);
    expect(ids(moved.result)).toEqual(ids(all.slice(1, 4)));
    expect(moved.statements).toHaveLength(2);
    expect((await page(undefined, all[0])).result).toEqual(moved.result);
    await ahead.reads.close();
  });

  it('a page read ahead for another window is not taken', async () => {
    const ahead = readsWatched();
    await page(ahead);
    const other = await page(ahead, all[1], new Date('2026-06-10T00:00:00Z'));
    expect(other.statements).toHaveLength(2);
    await ahead.reads.close();
  });
});
