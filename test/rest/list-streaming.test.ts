// A list route streams its pages (rest/handler.ts writeList). Once the first page is written the
// status is sent, so a failure on a later page can only cut the body short: the client must get
// an incomplete body (never a well-formed shorter list), and the failure must be logged. The Apollo
// server here answers the first page and then fails, the way a lost database connection would.
// Each next page is asked for once the page before is in hand, before it is mapped and written (at
// most two pages at once), on loaders of its own; a client that leaves stops the list, and the page
// being read is told to stop (its signal aborts).

import type { Server } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacyTransaction } from '../../src/contract/transaction.js';
import { DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { createLogger } from '../../src/kernel/logger.js';
import type { Context } from '../../src/pipeline/context.js';
import { buildSchema } from '../../src/pipeline/schema.js';
import { createLegacyHandler } from '../../src/rest/handler.js';
import { listTransactionsBody } from '../../src/rest/mappers.js';
import { LEGACY_ROUTES } from '../../src/rest/routes.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { TEST_TOKENS, TEST_UNLOCK_KEYS } from '../support/service.js';

const route = LEGACY_ROUTES.find((candidate) => candidate.name === 'list-transactions')!;
const schema = buildSchema();
const adjustment = (id: number) => ({
  __typename: 'AdjustmentTransaction',
  type: 'ADJUSTMENT',
  time: 1781049600 + id,
  amount: '-1.00',
  currency: 'USD',
  merchant: { id: DEMO_MERCHANT_ID, name: 'DEMO' },
  adjustment: { id: String(id), kind: 'PAYMENT', notes: 'n' },
});
const firstPage = {
  transactions: { pageInfo: { hasNextPage: true, endCursor: 'c1' }, nodes: [adjustment(1), adjustment(2)] },
};

let database: TestDatabase;
let server: Server;
let baseUrl: string;
const logged: string[] = [];
let secondPage: () => Promise<unknown>;
const pagesAsked: Array<Record<string, unknown>> = [];
/** When set, answers every page instead (the tests of several pages). */
let everyPage: ((variables: Record<string, unknown>, context: Context) => Promise<unknown>) | null = null;

beforeAll(async () => {
  database = await createTestDatabase();
  const apollo = {
    executeOperation: async (
      { variables }: { variables: Record<string, unknown> },
      { contextValue }: { contextValue: Context },
    ) => {
      if (everyPage) return everyPage(variables, contextValue);
      pagesAsked.push(variables);
      if (variables.after === null) return { body: { kind: 'single', singleResult: { data: firstPage } } };
      return secondPage();
    },
  } as unknown as ApolloServer<Context>;
  const logger = createLogger('error', { write: (line: string) => void logged.push(line) });
  const handle = createLegacyHandler(
    {
      service: { db: database.db, logger, now: () => new Date(), tokens: TEST_TOKENS, unlockKeys: TEST_UNLOCK_KEYS },
      apollo,
      schema,
    },
    route,
  );
  const app = express();
  app.get(route.path, (req, res, next) => {
    res.locals.requestId = 'req-1';
    return handle(req, res, next);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  baseUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    server?.close(() => resolve());
    server?.closeAllConnections();
  });
  await database?.destroy();
});

/** A page of `ids`, its nodes telling `events` when the mapper reads them, continuing after `next` if given. */
function pageOf(events: string[], page: number, ids: number[], next: string | null) {
  const nodes = ids.map((id) => ({
    ...adjustment(id),
    get type() {
      if (events.at(-1) !== `map ${page}`) events.push(`map ${page}`);
      return 'ADJUSTMENT';
    },
  }));
  const pageInfo = { hasNextPage: next !== null, endCursor: next ?? `c${page}` };
  return { body: { kind: 'single', singleResult: { data: { transactions: { pageInfo, nodes } } } } };
}

/** The body as far as it came, and whether the connection ended it properly. */
async function readList(): Promise<{ status: number; text: string; complete: boolean }> {
  const response = await fetch(`${baseUrl}${route.path}?key=demo-partner-key&starttime=1781049600&endtime=1781136000`);
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of response.body!) text += decoder.decode(chunk as Uint8Array, { stream: true });
    return { status: response.status, text, complete: true };
  } catch {
    return { status: response.status, text, complete: false };
  }
}

describe('a list of several pages', () => {
  afterAll(() => {
    everyPage = null;
  });

  it('asks for each page while the one before is mapped and written, each on loaders of its own: the same bytes', async () => {
    const events: string[] = [];
    const contexts: Context[] = [];
    const pages: Record<string, { page: number; ids: number[]; next: string | null }> = {
      first: { page: 1, ids: [1, 2], next: 'c1' },
      c1: { page: 2, ids: [3, 4], next: 'c2' },
      c2: { page: 3, ids: [5], next: null },
    };
    everyPage = async (variables, context) => {
      const { page, ids, next } = pages[(variables.after as string | null) ?? 'first']!;
      events.push(`ask ${page}`);
      contexts.push(context);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return pageOf(events, page, ids, next);
    };
    const { status, text, complete } = await readList();
    expect(status).toBe(200);
    expect(complete).toBe(true);
    // Page 2 is asked for before page 1 is mapped, page 3 only once page 1 is written: two pages at most.
    expect(events).toEqual(['ask 1', 'ask 2', 'map 1', 'ask 3', 'map 2', 'map 3']);
    expect(text).toBe(
      `${listTransactionsBody.head}${[1, 2, 3, 4, 5].map((id) => JSON.stringify(legacyTransaction(adjustment(id) as never))).join(',')}${listTransactionsBody.tail}`,
    );
    expect(new Set(contexts.map((context) => context.reads)).size).toBe(3);
    expect(contexts.every((context) => context.signal && !context.signal.aborted)).toBe(true);
  });

  it('pages larger than one write (written as they grow) answer the same bytes', async () => {
    const ids = (from: number) => Array.from({ length: 1500 }, (_, i) => from + i);
    const long = (id: number) => ({
      ...adjustment(id),
      adjustment: { id: String(id), kind: 'PAYMENT', notes: 'n'.repeat(200) },
    });
    everyPage = async (variables) => {
      const first = variables.after === null;
      const nodes = ids(first ? 1 : 1501).map(long);
      const pageInfo = { hasNextPage: first, endCursor: first ? 'c1' : 'c2' };
      return { body: { kind: 'single', singleResult: { data: { transactions: { pageInfo, nodes } } } } };
    };
    const { status, text, complete } = await readList();
    expect(status).toBe(200);
    expect(complete).toBe(true);
    const items = [...ids(1), ...ids(1501)].map((id) => JSON.stringify(legacyTransaction(long(id) as never)));
    expect(text.length).toBeGreaterThan(4 * 64 * 1024);
    expect(text === `${listTransactionsBody.head}${items.join(',')}${listTransactionsBody.tail}`).toBe(true);
  });

  it('a client that leaves stops the list: the page being read is told to stop, no page is asked after', async () => {
    const asked: number[] = [];
    let stopped: (() => void) | undefined;
    const pageStopped = new Promise<void>((resolve) => {
      stopped = resolve;
    });
    everyPage = async (variables, context) => {
      const after = variables.after as string | null;
      if (after === null) {
        asked.push(1);
        return pageOf([], 1, [1, 2], 'c1');
      }
      asked.push(Number(after.slice(1)) + 1);
      // Page 2 answers only once it is told to stop: the client leaves while it is read.
      await new Promise<void>((resolve) => context.signal!.addEventListener('abort', () => resolve()));
      stopped!();
      return {
        body: {
          kind: 'single',
          singleResult: { errors: [{ message: 'stopped', extensions: { code: 'SERVICE_UNAVAILABLE' } }] },
        },
      };
    };
    logged.length = 0;
    const client = new AbortController();
    const response = await fetch(
      `${baseUrl}${route.path}?key=demo-partner-key&starttime=1781049600&endtime=1781136000`,
      {
        signal: client.signal,
      },
    );
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.startsWith(listTransactionsBody.head)).toBe(true);
    client.abort();
    await pageStopped;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([1, 2]);
    // A client that left is no failure of the service: nothing is logged.
    expect(logged).toEqual([]);
  });
});

describe('a list that fails after its first page', () => {
  it.each([
    ['the operation throws (a lost connection)', () => Promise.reject(new Error('Connection terminated unexpectedly'))],
    [
      'the operation answers an error',
      () =>
        Promise.resolve({
          body: {
            kind: 'single',
            singleResult: {
              errors: [{ message: 'the service is unavailable', extensions: { code: 'SERVICE_UNAVAILABLE' } }],
            },
          },
        }),
    ],
  ])('%s: the first page was sent, the body is cut short, the failure logged', async (_case, failure) => {
    secondPage = failure;
    logged.length = 0;
    pagesAsked.length = 0;
    const { status, text, complete } = await readList();
    expect(status).toBe(200);
    expect(pagesAsked.map((variables) => variables.after)).toEqual([null, 'c1']);
    expect(pagesAsked.every((variables) => variables.first === 5000)).toBe(true);
    // What arrived is the first page, and the list is not closed: no client can take it for a whole list.
    expect(text.startsWith(listTransactionsBody.head)).toBe(true);
    expect(text).toContain('"notes":"n"');
    expect(text.endsWith(listTransactionsBody.tail)).toBe(false);
    expect(complete).toBe(false);
    expect(() => JSON.parse(text)).toThrow();
    expect(logged.some((line) => line.includes('list cut short after its first page') && line.includes('req-1'))).toBe(
      true,
    );
  });

  it('a whole list ends with the tail when the second page is the last', async () => {
    secondPage = async () => ({
      body: {
        kind: 'single',
        singleResult: {
          data: { transactions: { pageInfo: { hasNextPage: false, endCursor: 'c2' }, nodes: [adjustment(3)] } },
        },
      },
    });
    const { status, text, complete } = await readList();
    expect(status).toBe(200);
    expect(complete).toBe(true);
    expect(JSON.parse(text).transactions.map((item: { adjustment: { id: number } }) => item.adjustment.id)).toEqual([
      1, 2, 3,
    ]);
  });
});
