// A list route streams its pages (rest/handler.ts writeList). Once the first page is written the
// status is sent, so a failure on a later page can only cut the body short: the client must get
// an incomplete body (never a well-formed shorter list), and the failure must be logged. The Apollo
// server here answers the first page and then fails, the way a lost database connection would.

import type { Server } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../src/context.js';
import { createLogger } from '../src/logger.js';
import { createLegacyHandler } from '../src/rest/handler.js';
import { listTransactionsBody } from '../src/rest/mappers.js';
import { LEGACY_ROUTES } from '../src/rest/routes.js';
import { buildSchema } from '../src/schema.js';
import { createTestDatabase, type TestDatabase } from './support/db.js';
import { TEST_TOKENS } from './support/service.js';

const route = LEGACY_ROUTES.find((candidate) => candidate.name === 'list-transactions')!;
const schema = buildSchema();
const adjustment = (id: number) => ({
  __typename: 'AdjustmentTransaction',
  type: 'ADJUSTMENT',
  time: 1781049600 + id,
  amount: '-1.00',
  currency: 'USD',
  merchant: { id: '851005', name: 'DEMO' },
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

beforeAll(async () => {
  database = await createTestDatabase();
  const apollo = {
    executeOperation: async ({ variables }: { variables: Record<string, unknown> }) => {
      pagesAsked.push(variables);
      if (variables.after === null) return { body: { kind: 'single', singleResult: { data: firstPage } } };
      return secondPage();
    },
  } as unknown as ApolloServer<Context>;
  const logger = createLogger('error', { write: (line: string) => void logged.push(line) });
  const handle = createLegacyHandler(
    { service: { db: database.db, logger, now: () => new Date(), tokens: TEST_TOKENS }, apollo, schema },
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
