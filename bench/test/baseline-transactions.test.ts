// The bench's list-transactions baseline (bench/baseline-transactions.ts) is a fair floor only if it
// does the service's work: for the same request it sends the same SQL statements in the same order
// (the same prepared statement names, the same bound values) and writes the same body byte for byte. Postgres only: the
// baseline speaks pg to a server.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBulkOrders } from '../../test/support/bulk.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../../test/support/db.js';
import { startTestService, type TestService } from '../../test/support/service.js';
import { statementsDuring, withoutRequestLimits } from '../../test/support/statements.js';
import {
  BASELINE_TRANSACTIONS_ENTRY,
  baselineTransactionsApp,
  baselineTransactionsPath,
  type Queryable,
} from '../baseline-transactions.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
/** Demo Retail's last 366 days (the golden window): every kind of transaction. */
const DEMO_WINDOW = { start: 1749513600, end: 1781136000 };
const EMPTY_WINDOW = { start: 1600000000, end: 1600000000 + 30 * DAY };
/** With the bulk orders: over 10,000 rows, three pages. */
const BULK_WINDOW = { start: T - 300 * DAY, end: T - 10 * DAY };
const KEY = 'demo-partner-key';

let database: TestDatabase;
let service: TestService;
let pool: pg.Pool;
let baseline: Server;
let baselineUrl: string;
/** The statements the baseline sent, as pg sent them. */
const sent: Sent[] = [];

interface Sent {
  name: string;
  text: string;
  /** Bound values as text (dates as ISO); the key lookup's clock left out (the service's is NOW). */
  values: string[];
}
const asText = (values: readonly unknown[], sql: string) =>
  values.map((value, i) =>
    sql.includes('"api_keys"') && i === 1 ? 'now' : value instanceof Date ? value.toISOString() : String(value),
  );

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase({ now: NOW });
  service = await startTestService(database.db, { now: () => NOW });
  pool = new pg.Pool({ connectionString: database.url!, max: 4 });
  const watched: Queryable = {
    query: (config) => {
      sent.push({ name: config.name, text: config.text, values: asText(config.values, config.text) });
      return pool.query(config);
    },
  };
  baseline = baselineTransactionsApp(watched).listen(0, '127.0.0.1');
  await new Promise((resolve) => baseline.once('listening', resolve));
  baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => (baseline ? baseline.close(resolve) : resolve(undefined)));
  await pool?.end();
  await service?.close();
  await database?.destroy();
});

interface Answer {
  status: number;
  type: string | null;
  text: string;
  statements: Sent[];
}

/** The service's answer to a window, and the statements (and their prepared names) it sent. */
async function fromService(window: { start: number; end: number }): Promise<Answer> {
  const bindings: unknown[][] = [];
  const onQuery = (query: { bindings?: unknown[] }) => bindings.push(query.bindings ?? []);
  database.db.on('query', onQuery);
  try {
    const { result, statements } = await statementsDuring(database.db, async () => {
      const response = await service.request(baselineTransactionsPath(KEY, window));
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    });
    // The service names a prepared statement by its SQL text (src/db/prepared.ts): the same hash.
    // On Postgres the key's statement carries the request limits, which the baseline does not count:
    // compared is the key's lookup within it, with the lookup's own values.
    return {
      ...result,
      statements: statements.map(({ sql }, i) => {
        const [text] = withoutRequestLimits([sql]) as [string];
        const placeholders = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
        return {
          name: `dfs_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`,
          text,
          values: asText(bindings[i]!.slice(0, placeholders), text),
        };
      }),
    };
  } finally {
    database.db.off('query', onQuery);
  }
}

async function fromBaseline(window: { start: number; end: number }): Promise<Answer> {
  sent.length = 0;
  const response = await fetch(baselineUrl + baselineTransactionsPath(KEY, window));
  const answer = { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  return { ...answer, statements: [...sent] };
}

async function expectSameWork(window: { start: number; end: number }, rows: number, pages: number) {
  const [expected, actual] = [await fromService(window), await fromBaseline(window)];
  expect(expected.status).toBe(200);
  expect(JSON.parse(expected.text).transactions).toHaveLength(rows);
  // The key, then one statement per page, and one more read ahead past the last (src/db/readAhead.ts).
  expect(expected.statements).toHaveLength(1 + pages + 1);
  expect(actual.statements.map((s) => s.text)).toEqual(expected.statements.map((s) => s.text));
  expect(actual.statements.map((s) => s.name)).toEqual(expected.statements.map((s) => s.name));
  // The same values too: the key's hash, the partner, the window, each page's position and size.
  expect(actual.statements.map((s) => s.values)).toEqual(expected.statements.map((s) => s.values));
  expect(actual.status).toBe(expected.status);
  expect(actual.type).toBe(expected.type);
  expect(actual.text.length).toBe(expected.text.length);
  expect(actual.text === expected.text).toBe(true);
}

describe.skipIf(!onPostgres)('the list-transactions baseline does the service’s work', () => {
  it('the demo window (finance, cash, commission, adjustment): the same statements, the same bytes', async () => {
    await expectSameWork(DEMO_WINDOW, 5, 1);
  });

  it('a window before every transaction: the same statements, the same empty list', async () => {
    await expectSameWork(EMPTY_WINDOW, 0, 1);
  });

  it('started as the bench starts it (bench/processes.ts), it announces its port and answers the same body', async () => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', BASELINE_TRANSACTIONS_ENTRY], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_URL: database.url!,
        PORT: '0',
        DATABASE_POOL_MAX: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`no port within 30 s:\n${output}`)), 30_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on [^\s:]+:(\d+)/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(Number(match[1]));
          }
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
      });
      const response = await fetch(`http://127.0.0.1:${port}${baselineTransactionsPath(KEY, DEMO_WINDOW)}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe((await fromService(DEMO_WINDOW)).text);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('over 10,000 rows (three pages, each after the last): the same statements, the same bytes', async () => {
    await addBulkOrders(database.db, 3_334, new Date((BULK_WINDOW.end - DAY) * 1000));
    const [counted] = await database
      .db('transactions')
      .where('partner_id', (await database.db('partners').where({ name: 'Demo Retail' }).first()).id)
      .where('occurred_at', '>=', new Date(BULK_WINDOW.start * 1000))
      .where('occurred_at', '<', new Date(BULK_WINDOW.end * 1000))
      .count<{ count: string }[]>('* as count');
    const rows = Number(counted!.count);
    expect(rows).toBeGreaterThan(10_000);
    await expectSameWork(BULK_WINDOW, rows, Math.ceil((rows + 1) / 5000));
  }, 120_000);
});
