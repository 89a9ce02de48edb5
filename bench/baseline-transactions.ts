// The bench's baseline for list-transactions: the floor of this stack for GET /v1/list-transactions.php
// (unfiltered, as the bench asks it). A minimal Express handler with `pg` (no GraphQL, no knex per
// request, no middleware) running the same SQL statements, in the same order, as the service (captured
// with test/support/statements.ts; pinned by bench/test/baseline-transactions.test.ts): the key by its hash,
// then the window page by page, each page one statement (the page of transactions by the (partner_id,
// occurred_at, id) index, each row's merchant, clerk, order, device, payment and adjustment joined
// laterally by key, only the columns the legacy object shows), pages of 5000 read as 5001 rows,
// continuing after the last (time, id). Like the service (src/db/prepared.ts) it runs each as a named
// prepared statement, and it streams the same bytes: each page written as it arrives, and each page's
// statement sent with the next page's, which starts from the last row the page shows (found by the
// statement itself: src/db/readAhead.ts), so that the two run side by side. It does not check key kinds,
// the window's length, filters (refused), rate limits, or write request logs.
// Run as its own process: DATABASE_URL, PORT (0: a free one), DATABASE_POOL_MAX; it prints
// "baseline listening on 127.0.0.1:<port>". Imported, it only exports baselineTransactionsApp.

import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express, { type Express, type Response } from 'express';
import pg from 'pg';
import { transactionPageSql } from '../src/modules/transactions/listing.js';
import { linkJoinsOf, linksToRead } from '../src/modules/transactions/queries.js';
import type { LinkColumns } from '../src/modules/transactions/rows.js';
import { amountNumber, KEY_SQL, named, type Row } from './baselineSql.js';

/** What bench/run.ts needs to add the scenario: the entry to start, and the request path of a window. */
export const BASELINE_TRANSACTIONS_ENTRY = 'bench/baseline-transactions.ts';
export const baselineTransactionsPath = (key: string, window: { start: number; end: number }) =>
  `/v1/list-transactions.php?key=${key}&starttime=${window.start}&endtime=${window.end}`;

/** A page of Query.transactions: the @listSize bound the REST shim pages by. */
export const PAGE_SIZE = 5000;

/** The columns of each linked row the legacy object shows (docs/legacy-contract.md#list-transactions). */
const LINK_COLUMNS: LinkColumns = {
  merchant: ['id', 'name'],
  clerk: ['id', 'name'],
  order: [
    'id',
    'currency',
    'purchase_minor',
    'down_payment_minor',
    'price_pre_tax_minor',
    'monthly_cost_minor',
    'weekly_cost_minor',
    'months',
  ],
  device: [
    'phone_number',
    'sim_number',
    'imei',
    'model_id',
    'model_make_model',
    'model_name',
    'family_id',
    'family_name',
  ],
  payment: ['id', 'received_at', 'amount_minor', 'currency'],
  adjustment: ['id', 'kind', 'notes'],
};
/**
 * One page of the window in (time, id) order: the first page, or the page after a (microseconds, id)
 * position. The page is chosen first, then each row's links are joined to it alone, by key. The text
 * is the service's own (its statement compiled for these columns, once, at start).
 */
export const PAGE_SQL = (after: boolean, ahead = false) => transactionPageSql(LINK_COLUMNS, after, ahead);
/** How many link joins each page statement has: each binds the partner again, after the page's values. */
const LINK_JOINS = linkJoinsOf(linksToRead(LINK_COLUMNS)).length;
const FIRST_PAGE_SQL = PAGE_SQL(false);
const NEXT_PAGE_SQL = PAGE_SQL(true);
/** The page after the one read with it: from the last row that one shows (first and after its own start). */
const AHEAD_OF_FIRST_SQL = PAGE_SQL(false, true);
const AHEAD_SQL = PAGE_SQL(true, true);

/** What the baseline needs of a pool: queries by config (a pg.Pool; a test may wrap one to watch them). */
export interface Queryable {
  query: (config: { name: string; text: string; values: unknown[] }) => Promise<{ rows: Row[] }>;
}
const amount = amountNumber;
const seconds = (at: unknown) => Math.floor((at as Date).getTime() / 1000);

/** A listed row as the legacy transaction (docs/legacy-contract.md#list-transactions), in the contract's order. */
function legacyTransaction(row: Row) {
  const common = {
    type: row.type,
    time: seconds(row.occurred_at),
    amount: amount(row.amount_minor, row.currency),
    currency: row.currency,
    merchant: { id: Number(row.merchant__id), name: row.merchant__name },
  };
  const payment = () => ({
    id: Number(row.payment__id),
    timestamp: seconds(row.payment__received_at),
    amount: amount(row.payment__amount_minor, row.payment__currency),
  });
  const clerk = () => ({ id: Number(row.clerk__id), name: row.clerk__name });
  switch (row.type) {
    case 'finance': {
      const currency = row.order__currency;
      return {
        ...common,
        financeOrder: {
          id: Number(row.order__id),
          purchaseAmount: amount(row.order__purchase_minor, currency),
          financeAmount: amount(
            BigInt(String(row.order__purchase_minor)) - BigInt(String(row.order__down_payment_minor)),
            currency,
          ),
          downPayment: amount(row.order__down_payment_minor, currency),
          pricePreTax: amount(row.order__price_pre_tax_minor, currency),
          monthlyCost: amount(row.order__monthly_cost_minor, currency),
          weeklyCost: amount(row.order__weekly_cost_minor, currency),
          months: row.order__months,
        },
        salesClerk: clerk(),
        device: {
          phoneNumber: row.device__phone_number,
          simNumber: row.device__sim_number,
          imei: row.device__imei,
          family: { id: Number(row.device__family_id), name: row.device__family_name },
          model: {
            id: Number(row.device__model_id),
            makeModel: row.device__model_make_model,
            name: row.device__model_name,
          },
        },
      };
    }
    case 'cash':
      return { ...common, payment: payment(), financeOrder: { id: Number(row.finance_order_id) }, salesClerk: clerk() };
    case 'commission':
      return { ...common, payment: payment(), financeOrder: { id: Number(row.finance_order_id) } };
    default:
      return {
        ...common,
        adjustment: { id: Number(row.adjustment__id), type: row.adjustment__kind, notes: row.adjustment__notes },
      };
  }
}

const WHOLE_SECONDS = /^-?[0-9]{1,12}$/;
const drained = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });

/** The baseline's app over a pool; it never listens itself. */
export function baselineTransactionsApp(pool: Queryable): Express {
  const app = express();
  app.get('/v1/list-transactions.php', async (req, res) => {
    try {
      const key = typeof req.query.key === 'string' ? req.query.key : '';
      const hash = createHash('sha256').update(key, 'utf8').digest('hex');
      const [principal] = (await pool.query(named(KEY_SQL, [hash, new Date(), 1]))).rows;
      if (!principal?.partner_id) return void res.status(401).json({ valid: false, message: 'unknown key' });
      const { starttime, endtime, filter } = req.query;
      if (filter !== undefined) return void res.status(400).json({ valid: false, message: 'no filters here' });
      if (
        typeof starttime !== 'string' ||
        typeof endtime !== 'string' ||
        !WHOLE_SECONDS.test(starttime) ||
        !WHOLE_SECONDS.test(endtime)
      )
        return void res.status(400).json({ valid: false, message: 'starttime and endtime are unix seconds' });
      const window = [
        String(principal.partner_id),
        new Date(Number(starttime) * 1000),
        new Date(Number(endtime) * 1000),
      ];
      const joins = Array.from({ length: LINK_JOINS }, () => String(principal.partner_id));

      // Page by page, each written as it arrives, as the service does (a streamed list would, done
      // simply and fast): each page's statement goes with the next page's, read from the last row this
      // one shows (that row first: the next page is taken if it starts there, else read afresh), so
      // the two run side by side. The same bytes as the service's streamed body. A client that leaves
      // stops the list once the pages in flight are in.
      const query = (statement: { name: string; text: string; values: unknown[] }) => {
        const rows = pool.query(statement).then((answer) => answer.rows);
        rows.catch(() => undefined);
        return rows;
      };
      const ahead = (after: [string, string] | null) =>
        after
          ? query(named(AHEAD_SQL, [...window, ...window, ...after, 1, PAGE_SIZE - 1, PAGE_SIZE + 2, ...joins]))
          : query(named(AHEAD_OF_FIRST_SQL, [...window, ...window, 1, PAGE_SIZE - 1, PAGE_SIZE + 2, ...joins]));
      /** A page after `after`: the one read ahead if it starts there, and the next one's read started. */
      const read = async (after: [string, string], left: Promise<Row[]>) => {
        const following = ahead(after);
        const rows = await left.catch(() => null);
        const page =
          rows?.length && String(rows[0]!.occurred_at_us) === after[0] && String(rows[0]!.id) === after[1]
            ? rows.slice(1)
            : await query(named(NEXT_PAGE_SQL, [...window, ...after, PAGE_SIZE + 1, ...joins]));
        return { page, following };
      };
      let next: Promise<{ page: Row[]; following: Promise<Row[]> }> | undefined = (async () => {
        const page = query(named(FIRST_PAGE_SQL, [...window, PAGE_SIZE + 1, ...joins]));
        const following = ahead(null);
        return { page: await page, following };
      })();
      let written = 0;
      const unread: Array<Promise<unknown>> = [];
      res.status(200).set('Content-Type', 'application/json; charset=utf-8');
      let chunk = '{"valid":true,"transactions":[';
      while (next) {
        const { page: rows, following } = await next;
        next = undefined;
        const page = rows.length > PAGE_SIZE ? rows.slice(0, PAGE_SIZE) : rows;
        if (rows.length > PAGE_SIZE) {
          const last = page[page.length - 1]!;
          next = read([String(last.occurred_at_us), String(last.id)], following);
          next.catch(() => undefined);
        } else unread.push(following.catch(() => undefined));
        for (const row of page) chunk += (written++ ? ',' : '') + JSON.stringify(legacyTransaction(row));
        if (!res.write(chunk)) await drained(res);
        if (res.destroyed) return void (await Promise.all([next?.catch(() => undefined), ...unread]));
        chunk = '';
      }
      res.end(']}');
      await Promise.all(unread);
    } catch (error) {
      if (res.headersSent) return void res.destroy();
      res.status(500).json({ valid: false, message: String(error) });
    }
  });
  app.get('/healthz', (_req, res) => void res.json({ ok: true }));
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.DATABASE_POOL_MAX ?? 10),
  });
  const server = baselineTransactionsApp(pool).listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.stdout.write(`baseline listening on 127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  const shutdown = () => server.close(() => void pool.end().then(() => process.exit(0)));
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
