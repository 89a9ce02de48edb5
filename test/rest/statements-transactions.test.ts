// list-transactions of 10,000 rows: at most 5 SQL statements, read in pages no larger
// than the graph's page limit (memory holds a page, not the list), and streamed byte for byte as
// the one-shot body would be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSizeOf } from '../../src/kernel/listSize.js';
import { buildSchema } from '../../src/pipeline/schema.js';
import { listTransactionsBody } from '../../src/rest/mappers.js';
import { LEGACY_ROUTES } from '../../src/rest/routes.js';

/** A page of Query.transactions, as the SDL bounds it. */
const MAX_PAGE = listSizeOf(buildSchema(), 'Query', 'transactions')!.max;

import { addBulkOrders } from '../support/bulk.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';
import { statementsDuring } from '../support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
const ORDERS = 3_334; // 3 transactions each: with the demo's own, over 10,000 in the window
const WINDOW = { start: T - 300 * DAY, end: T - 10 * DAY };
let database: TestDatabase;
let service: TestService;

beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
  await addBulkOrders(database.db, ORDERS, new Date((WINDOW.end - DAY) * 1000));
  service = await startTestService(database.db, { now: () => NOW });
}, 120_000);
afterAll(async () => {
  await service?.close();
  await database?.destroy();
});

describe('REST list-transactions of 10,000 rows', () => {
  it('takes at most 5 statements, none returning more than a page, and answers the whole window', async () => {
    const partner = (await database.db('partners').where({ name: 'Demo Retail' }).first()).id;
    const [inWindow] = await database
      .db('transactions')
      .where('partner_id', partner)
      .where('occurred_at', '>=', new Date(WINDOW.start * 1000))
      .where('occurred_at', '<', new Date(WINDOW.end * 1000))
      .count<{ count: string }[]>('* as count');
    const rows = Number(inWindow!.count);
    expect(rows).toBeGreaterThanOrEqual(10_000);

    const { result, statements } = await statementsDuring(database.db, async () => {
      const response = await service.request(
        `/v1/list-transactions.php?key=demo-partner-key&starttime=${WINDOW.start}&endtime=${WINDOW.end}`,
      );
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    });
    expect(result.status).toBe(200);
    expect(result.type).toBe('application/json; charset=utf-8');
    const body = JSON.parse(result.text);
    expect(body.valid).toBe(true);
    expect(body.transactions).toHaveLength(rows);

    // The key's lookup, then one statement per page (transactions with everything they link to), each
    // after the first read ahead beside the page before it (src/db/readAhead.ts), and one read ahead
    // past the last page, which finds nothing. A page is read with one row more (is there another?),
    // and a page read ahead with the row before it as well (it starts where the page before ends).
    const pages = Math.ceil((rows + 1) / MAX_PAGE);
    expect(statements.length).toBe(1 + pages + 1);
    expect(statements.length).toBeLessThanOrEqual(5);
    expect(Math.max(...statements.map((statement) => statement.rows ?? 0))).toBeLessThanOrEqual(MAX_PAGE + 2);
    const pageStatements = statements.filter((statement) => /from "transactions"/.test(statement.sql));
    // In the order they answered: a page read ahead may answer before the page it was read beside.
    const sizes = (list: Array<number | null>) => [...list].sort((a, b) => (a ?? -1) - (b ?? -1));
    expect(sizes(pageStatements.map((statement) => statement.rows))).toEqual(
      sizes([
        MAX_PAGE + 1,
        ...Array.from({ length: pages - 1 }, (_, i) =>
          i < pages - 2 ? MAX_PAGE + 2 : rows - (pages - 1) * MAX_PAGE + 1,
        ),
        0,
      ]),
    );
  });

  it('streams exactly the body of the window read page by page through /graphql, and /graphql pages too', async () => {
    const route = LEGACY_ROUTES.find((candidate) => candidate.name === 'list-transactions')!;
    const items: unknown[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const { status, body: graph } = await service.graphql(
        route.operation,
        { 'x-api-key': 'demo-partner-key' },
        { ...WINDOW, first: 2000, after },
      );
      expect(status).toBe(200);
      const page = listTransactionsBody.next(graph.data, 2000);
      listTransactionsBody.items(graph.data, (item) => items.push(item));
      after = page.hasNextPage ? page.endCursor! : null;
      pages += 1;
    } while (after);
    expect(pages).toBe(Math.ceil((items.length + 1) / 2000));
    const expected = `${listTransactionsBody.head}${items.map((item) => JSON.stringify(item)).join(',')}${listTransactionsBody.tail}`;

    const response = await service.request(
      `/v1/list-transactions.php?key=demo-partner-key&starttime=${WINDOW.start}&endtime=${WINDOW.end}`,
    );
    const streamed = await response.text();
    expect(streamed.length).toBe(expected.length);
    expect(streamed === expected).toBe(true);

    // Without first, /graphql answers one page of the most a page may hold, and says more follow.
    const { body: unpaged } = await service.graphql(route.operation, { 'x-api-key': 'demo-partner-key' }, WINDOW);
    expect(unpaged.data.transactions.nodes).toHaveLength(MAX_PAGE);
    expect(unpaged.data.transactions.pageInfo.hasNextPage).toBe(true);
  });

  it('answers an error on the first page as usual, with nothing written before it', async () => {
    const response = await service.request(
      `/v1/list-transactions.php?key=demo-partner-key&starttime=${WINDOW.start}&endtime=${WINDOW.end}&filter=nocolon`,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).toBe('INVALID_QUERY_PARAMETER');
  });
});
