// A long list answer is never cut while it moves (decisions.md 26): REQUEST_TIMEOUT_MS bounds the
// request's arrival, and a list the client stops taking for as long. Real HTTP on both sides: the
// list route's handler behind the service's HTTP server at the lowest REQUEST_TIMEOUT_MS (1,000 ms),
// its pages answered by a stand-in of the pipeline so that the body can be many megabytes; and, on
// Postgres, the service itself (src/main.ts with REQUEST_TIMEOUT_MS=1000) over the bench's data set.
// The clients read at a pace of their own, so the answers take seconds, not the server's speed.

import { type IncomingMessage, request, type Server } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import express from 'express';
import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { legacyTransaction } from '../../src/contract/transaction.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { BENCH_END, generateBenchData } from '../../src/fixtures/benchData.js';
import { DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { createLogger } from '../../src/kernel/logger.js';
import { createHttpServer } from '../../src/ops/httpLimits.js';
import type { Context } from '../../src/pipeline/context.js';
import { buildSchema } from '../../src/pipeline/schema.js';
import { createLegacyHandler } from '../../src/rest/handler.js';
import { listTransactionsBody } from '../../src/rest/mappers.js';
import { LEGACY_ROUTES } from '../../src/rest/routes.js';
import { createPostgresDatabase, createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { TEST_TOKENS, TEST_UNLOCK_KEYS } from '../support/service.js';
import { startServiceProcess } from '../support/serviceProcess.js';

/** The lowest REQUEST_TIMEOUT_MS the configuration allows (src/kernel/config.ts). */
const REQUEST_TIMEOUT_MS = 1000;
const route = LEGACY_ROUTES.find((candidate) => candidate.name === 'list-transactions')!;
const LIST_QUERY = '?key=demo-partner-key&starttime=1781049600&endtime=1781136000';

/** An item of about 1 kB of JSON, so that a few pages make many megabytes. */
const adjustment = (id: number) => ({
  __typename: 'AdjustmentTransaction',
  type: 'ADJUSTMENT',
  time: 1781049600 + id,
  amount: '-1.00',
  currency: 'USD',
  merchant: { id: DEMO_MERCHANT_ID, name: 'DEMO' },
  adjustment: { id: String(id), kind: 'PAYMENT', notes: `note ${id} `.padEnd(900, 'n') },
});
/**
 * The slow reader's route cuts a client only after this long without a byte taken: what its case shows
 * is REQUEST_TIMEOUT_MS not cutting an answer on its way, not a stall (the next case's).
 */
const WIDE_STALL_MS = 30_000;
const WIDE_STALL_PREFIX = '/wide-stall';
const PAGE = 5000;
const PAGES = 3;
const expectedBody = () =>
  `${listTransactionsBody.head}${Array.from({ length: PAGE * PAGES }, (_, i) => JSON.stringify(legacyTransaction(adjustment(i + 1) as never))).join(',')}${listTransactionsBody.tail}`;

interface Read {
  status: number;
  body: string;
  /** Whether the body ended as HTTP says it should (the last chunk), rather than the connection closing. */
  complete: boolean;
  /** When the client had the headers and when it had the whole body (or the connection closed). */
  headersAt: number;
  endedAt: number;
}

/**
 * GET `url` as a slow client: at most `bytesPerTick` taken every `tickMs` (the rest waits in the
 * socket), or nothing more at all once `stopAfter` bytes have been taken, until `resume` is called.
 */
function readSlowly(
  url: string,
  pace: { bytesPerTick: number; tickMs: number; stopAfter?: number },
): { done: Promise<Read>; resume: () => void } {
  let resume = () => {};
  const done = new Promise<Read>((resolve, reject) => {
    const req = request(url, (res: IncomingMessage) => {
      const headersAt = performance.now();
      const chunks: Buffer[] = [];
      let taken = 0;
      let takenThisTick = 0;
      let held = false; // resume() was called: everything is taken as it comes
      const full = () => pace.stopAfter !== undefined && taken >= pace.stopAfter && !held;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        taken += chunk.length;
        takenThisTick += chunk.length;
        if (!held && (takenThisTick >= pace.bytesPerTick || full())) res.pause();
      });
      const tick = setInterval(() => {
        takenThisTick = 0;
        if (!full()) res.resume();
      }, pace.tickMs);
      resume = () => {
        held = true;
        clearInterval(tick);
        res.resume();
      };
      const finish = (complete: boolean) => {
        clearInterval(tick);
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          complete,
          headersAt,
          endedAt: performance.now(),
        });
      };
      res.on('end', () => finish(true));
      res.on('error', () => finish(false));
      res.on('aborted', () => finish(false));
    });
    req.on('error', reject);
    req.end();
  });
  return { done, resume: () => resume() };
}

describe('a list answer behind the HTTP server at REQUEST_TIMEOUT_MS 1,000 ms', () => {
  let database: TestDatabase;
  let server: Server;
  let baseUrl: string;
  const logged: string[] = [];
  /** When the server's answer was sent whole (its 'finish'), or closed without; per request. */
  const answers: Array<{ startedAt: number; finishedAt?: number; closedAt?: number }> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const apollo = {
      executeOperation: async ({ variables }: { variables: Record<string, unknown> }) => {
        const page = variables.after === null ? 0 : Number(variables.after);
        const nodes = Array.from({ length: PAGE }, (_, i) => adjustment(page * PAGE + i + 1));
        const pageInfo = { hasNextPage: page + 1 < PAGES, endCursor: String(page + 1) };
        return { body: { kind: 'single', singleResult: { data: { transactions: { pageInfo, nodes } } } } };
      },
    } as unknown as ApolloServer<Context>;
    const logger = createLogger('warn', { write: (line: string) => void logged.push(line) });
    const handlerCutting = (stalledClientMs: number) =>
      createLegacyHandler(
        {
          service: {
            db: database.db,
            logger,
            now: () => new Date(),
            tokens: TEST_TOKENS,
            unlockKeys: TEST_UNLOCK_KEYS,
          },
          apollo,
          schema: buildSchema(),
          stalledClientMs,
        },
        route,
      );
    const app = express();
    const serve = (path: string, handle: ReturnType<typeof handlerCutting>) =>
      app.get(path, (req, res, next) => {
        res.locals.requestId = `req-${answers.length + 1}`;
        const answer: (typeof answers)[number] = { startedAt: performance.now() };
        answers.push(answer);
        res.on('finish', () => (answer.finishedAt = performance.now()));
        res.on('close', () => (answer.closedAt = performance.now()));
        return handle(req, res, next);
      });
    // The service's stall bound (REQUEST_TIMEOUT_MS), and a wide one for the slow reader: a test process
    // starved for a second on a busy machine is a client that took nothing, which the first would cut.
    serve(route.path, handlerCutting(REQUEST_TIMEOUT_MS));
    serve(`${WIDE_STALL_PREFIX}${route.path}`, handlerCutting(WIDE_STALL_MS));
    // The service's own server and timeouts (src/main.ts), at the lowest request timeout.
    server = createHttpServer(app, REQUEST_TIMEOUT_MS).listen(0, '127.0.0.1');
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

  it('is sent whole to a client that reads slowly, long after the request timeout: the same bytes, nothing logged', async () => {
    logged.length = 0;
    const expected = expectedBody();
    // About 14 MB at 3.2 MB/s at most: the sockets' buffers hold a few MB, the rest waits for the client.
    const { done } = readSlowly(`${baseUrl}${WIDE_STALL_PREFIX}${route.path}${LIST_QUERY}`, {
      bytesPerTick: 64 * 1024,
      tickMs: 20,
    });
    const read = await done;
    const answer = answers.at(-1)!;
    expect(read.status).toBe(200);
    expect(read.complete).toBe(true);
    expect(read.body.length).toBe(expected.length);
    expect(read.body === expected).toBe(true);
    // What the test is about: the server was still sending well after REQUEST_TIMEOUT_MS had passed.
    expect(answer.finishedAt).toBeDefined();
    expect(answer.finishedAt! - answer.startedAt).toBeGreaterThan(REQUEST_TIMEOUT_MS);
    expect(logged).toEqual([]);
  });

  it('is cut when the client takes nothing for REQUEST_TIMEOUT_MS: the body stays incomplete, the cut is logged', async () => {
    logged.length = 0;
    const client = readSlowly(`${baseUrl}${route.path}${LIST_QUERY}`, {
      bytesPerTick: 64 * 1024,
      tickMs: 10,
      stopAfter: 256 * 1024,
    });
    // The cut is logged as the socket is destroyed; the response's 'close' event follows on a later tick
    // (on a busy machine, noticeably later), so both are waited for.
    await vi.waitFor(
      () => {
        expect(logged.some((line) => line.includes('list cut: the client took nothing'))).toBe(true);
        expect(answers.at(-1)!.closedAt).toBeDefined();
      },
      { timeout: 20_000, interval: 100 },
    );
    const answer = answers.at(-1)!;
    expect(answer.finishedAt).toBeUndefined();
    const line = JSON.parse(logged.find((entry) => entry.includes('list cut'))!) as Record<string, unknown>;
    expect(line).toMatchObject({ requestId: `req-${answers.length}`, route: 'list-transactions', stalledMs: 1000 });
    // What the client can still read is a part of the list that no JSON parser takes for a whole one.
    client.resume();
    const read = await client.done;
    expect(read.status).toBe(200);
    expect(read.complete).toBe(false);
    expect(read.body.startsWith(listTransactionsBody.head)).toBe(true);
    expect(read.body.length).toBeLessThan(expectedBody().length);
    expect(() => JSON.parse(read.body)).toThrow();
  });
});

describe.skipIf(!onPostgres)('the service at REQUEST_TIMEOUT_MS=1000, a year of transactions (Postgres)', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('sends the whole window to a client that takes seconds to read it', async () => {
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    cleanups.push(() => database.drop());
    const db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
    let rows: number;
    const end = Math.floor(BENCH_END.getTime() / 1000);
    const start = end - 366 * 86_400;
    try {
      await migrateLatest(db);
      await generateBenchData(db, { customers: 6000, production: false });
      const counted = await db('transactions')
        .where({ partner_id: 1 })
        .where('occurred_at', '>=', new Date(start * 1000))
        .where('occurred_at', '<', new Date(end * 1000))
        .count<{ n: string }[]>({ n: '*' });
      rows = Number(counted[0]!.n);
    } finally {
      await db.destroy();
    }
    const service = await startServiceProcess(database.url, cleanups, {
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      LOG_LEVEL: 'warn',
    });
    // About 6.5 MB at 1.6 MB/s at most.
    const { done } = readSlowly(
      `${service.baseUrl}/v1/list-transactions.php?key=bench-partner-key-1&starttime=${start}&endtime=${end}`,
      { bytesPerTick: 32 * 1024, tickMs: 20 },
    );
    const read = await done;
    expect(read.status).toBe(200);
    expect(read.complete).toBe(true);
    expect(rows).toBeGreaterThan(20_000);
    expect(read.body.length).toBeGreaterThan(5 * 2 ** 20);
    const list = JSON.parse(read.body) as { valid: boolean; transactions: Array<{ time: number }> };
    expect(list.valid).toBe(true);
    expect(list.transactions.length).toBe(rows);
    // The answer took several times REQUEST_TIMEOUT_MS to read, and was never cut.
    expect(read.endedAt - read.headersAt).toBeGreaterThan(REQUEST_TIMEOUT_MS);
    expect(service.output()).not.toContain('list cut');
  }, 180_000);
});
