// npm run bench:graphql [-- --runs 30 --warmup 15 --customers 2000 --postgres]
//
// The target "GraphQL execution of a 5,000-row page under 20 ms of CPU": the CPU time (and the
// wall time) of executing the legacy ListTransactions operation (src/rest/operations/
// listTransactions.graphql, with every link) over a full page of Query.transactions, on graphql-js and
// on graphql-jit (src/pipeline/graphqlExecutor.ts), execution only: the page is read once through the real
// resolver (one statement, its links joined), and every timed run gets those rows back from the root
// field at once, so no SQL and no driver is timed; every other resolver, the type resolution, the
// list-item counting and the scalars' serialization are. Apollo's pipeline (parse and validation are
// cached per document) and JSON encoding are not in it. Data: the bench data set (src/fixtures/
// benchData.ts) generated in an in-memory PGlite, or with --postgres in a fresh database on
// BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres), dropped after.
// Prints the medians and writes bench/graphql-execution.json. bench/run.ts may import
// measureGraphqlExecution and run it over its own database. Run it with NODE_ENV=production (the npm
// script does), as the service runs: graphql-js reads it when it loads, and outside production it
// checks every instanceof across realms, which costs it a third more here.

import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  type GraphQLSchema,
  type OperationDefinitionNode,
  parse,
} from 'graphql';
import knex from 'knex';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { generateBenchData } from '../src/fixtures/benchData.js';
import { listSizeOf } from '../src/kernel/listSize.js';
import { createLogger } from '../src/kernel/logger.js';
import { unlockKeySealer } from '../src/modules/unlockCodes/sealing.js';
import { type Context, createContext } from '../src/pipeline/context.js';
import { countListItems } from '../src/pipeline/documentLimits/listItemCeiling.js';
import { createJitExecutor } from '../src/pipeline/graphqlExecutor.js';
import { buildSchema } from '../src/pipeline/schema.js';

const DAY = 86_400;
const OPERATION = new URL('../src/rest/operations/listTransactions.graphql', import.meta.url);

export interface ExecutionTimes {
  /** CPU time of the process (user + system) during one execution, in ms. */
  cpuMs: { median: number; p90: number; min: number };
  wallMs: { median: number; p90: number; min: number };
}

export interface GraphqlExecutionFigures {
  /** Rows in the page executed. */
  rows: number;
  runs: number;
  warmup: number;
  window: { start: number; end: number };
  executors: { 'graphql-js': ExecutionTimes; jit: ExecutionTimes };
  /** graphql-js's median CPU time over jit's. */
  cpuSpeedup: number;
  /** NODE_ENV was not production when graphql loaded: graphql-js ran its development checks. */
  graphqlDevelopmentChecks: boolean;
}

export interface MeasureOptions {
  /** A partner key of the database (the bench data set's bench-partner-key-1, or bench/run.ts's own). */
  partnerKey: string;
  /** The window whose first page is executed; absent: the 366 days up to the partner's latest transaction. */
  window?: { start: number; end: number };
  runs?: number;
  warmup?: number;
}

/** The schema as createApp builds it, with the root field answering the page read once (see the header). */
function schemaReplayingOnePage(): GraphQLSchema {
  const schema = countListItems(buildSchema());
  const field = schema.getQueryType()!.getFields().transactions!;
  const readPage = field.resolve!;
  let page: unknown;
  field.resolve = (source, args, context, info) => {
    page ??= readPage(source, args, context, info);
    return page;
  };
  return schema;
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
  const round = (value: number) => Math.round(value * 100) / 100;
  return { median: round(at(0.5)), p90: round(at(0.9)), min: round(sorted[0]!) };
}

async function timed(
  run: () => Promise<ExecutionResult> | ExecutionResult,
  runs: number,
  warmup: number,
): Promise<ExecutionTimes> {
  for (let i = 0; i < warmup; i++) await run();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    await run();
    wall.push(performance.now() - wallBefore);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  return { cpuMs: summary(cpu), wallMs: summary(wall) };
}

/** The 366-day window (the most one request may ask) ending at the day of the partner's latest transaction. */
async function defaultWindow(db: Db, context: Context): Promise<{ start: number; end: number }> {
  const principal = context.auth.principal;
  if (principal?.kind !== 'partner') throw new Error('the key is not a partner key');
  const partnerId = principal.partnerId;
  const row = await db('transactions').where({ partner_id: partnerId }).max({ at: 'occurred_at' }).first();
  if (!row?.at) throw new Error('the partner has no transactions');
  const end = (Math.floor(new Date(row.at as Date).getTime() / 1000 / DAY) + 1) * DAY;
  return { start: end - 366 * DAY, end };
}

/**
 * Executes ListTransactions over one full page of `options.partnerKey`'s window on graphql-js and on
 * jit, checks both answers are the same, and times each (after a warm-up, the medians of `runs`).
 */
export async function measureGraphqlExecution(db: Db, options: MeasureOptions): Promise<GraphqlExecutionFigures> {
  const runs = options.runs ?? 30;
  const warmup = options.warmup ?? 15;
  const logger = createLogger('warn');
  const schema = schemaReplayingOnePage();
  const document: DocumentNode = parse(readFileSync(OPERATION, 'utf8'));
  const operation = document.definitions[0] as OperationDefinitionNode;
  const contextValue = await createContext(
    {
      db,
      logger,
      now: () => new Date(),
      tokens: { signingKeys: [{ id: 'bench', secret: 'x'.repeat(32) }], ttlSeconds: 60 },
      unlockKeys: unlockKeySealer([{ id: 'bench', secret: randomBytes(32).toString('base64url') }]),
    },
    {
      credential: { value: options.partnerKey, expected: 'an API key', presentedAs: 'bench' },
      requestId: 'bench-graphql-execution',
    },
  );
  if (!contextValue.auth.principal) throw new Error(`${options.partnerKey} is not a key of this database`);
  const window = options.window ?? (await defaultWindow(db, contextValue));
  const pageSize = listSizeOf(schema, 'Query', 'transactions')!.max;
  const variables = { start: window.start, end: window.end, first: pageSize };

  const onGraphqlJs = () => execute({ schema, document, contextValue, variableValues: variables });
  const jit = createJitExecutor(schema, logger);
  const onJit = () => jit.execute({ document, operation, operationName: undefined, variables, contextValue });

  // The page is read here, once (through the real resolver); both answers must be the same.
  const reference = await onGraphqlJs();
  const compiled = await onJit();
  if (reference.errors?.length) throw new Error(`the operation failed: ${reference.errors[0]!.message}`);
  if (JSON.stringify(compiled) !== JSON.stringify(reference))
    throw new Error('jit and graphql-js answered differently');
  if (jit.stats.jitExecutions !== 1) throw new Error('the operation did not run on jit');
  const rows = (reference.data as { transactions: { nodes: unknown[] } }).transactions.nodes.length;

  const graphqlJs = await timed(onGraphqlJs, runs, warmup);
  const jitTimes = await timed(onJit, runs, warmup);
  return {
    rows,
    runs,
    warmup,
    window,
    executors: { 'graphql-js': graphqlJs, jit: jitTimes },
    cpuSpeedup: Math.round((graphqlJs.cpuMs.median / jitTimes.cpuMs.median) * 100) / 100,
    graphqlDevelopmentChecks: process.env.NODE_ENV !== 'production',
  };
}

// ---------------------------------------------------------------- npm run bench:graphql

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: {
      runs: { type: 'string', default: '30' },
      warmup: { type: 'string', default: '15' },
      // About 9 transactions per customer, half of them the first partner's: 2,000 fill a 5,000-row page.
      customers: { type: 'string', default: '2000' },
      postgres: { type: 'boolean', default: false },
      // bench/run.ts: its filled database and its partner key (nothing generated, nothing dropped).
      'database-url': { type: 'string' },
      'partner-key': { type: 'string', default: 'bench-partner-key-1' },
      out: { type: 'string', default: 'bench' },
    },
  });
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const log = (message: string) => process.stdout.write(`${message}\n`);

  let db: Db;
  let drop = async () => {};
  const given = args['database-url'];
  if (given) {
    db = createDb({ databaseUrl: given, dataDir: null });
  } else if (args.postgres) {
    const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `dfs_bench_graphql_${randomBytes(4).toString('hex')}`;
    const admin = () => knex({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
    const create = admin();
    await create.raw('create database ??', [name]);
    await create.destroy();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    db = createDb({ databaseUrl: url.toString(), dataDir: null });
    drop = async () => {
      const remove = admin();
      await remove.raw('drop database if exists ?? with (force)', [name]);
      await remove.destroy();
    };
  } else {
    db = createDb({ databaseUrl: null, dataDir: null });
  }
  try {
    if (!given) {
      await migrateLatest(db);
      const customers = Number(args.customers);
      log(`generating the bench data set (${customers} customers) in ${args.postgres ? 'Postgres' : 'PGlite'}...`);
      await generateBenchData(db, { customers, production: false });
    }
    const figures = await measureGraphqlExecution(db, {
      partnerKey: args['partner-key'],
      runs: Number(args.runs),
      warmup: Number(args.warmup),
    });
    for (const [name, times] of Object.entries(figures.executors)) {
      log(
        `${name.padEnd(10)} CPU ms median ${times.cpuMs.median} (p90 ${times.cpuMs.p90}, min ${times.cpuMs.min}); ` +
          `wall ms median ${times.wallMs.median} (p90 ${times.wallMs.p90})`,
      );
    }
    log(
      `${figures.rows} rows, ${figures.runs} runs after ${figures.warmup}; jit uses 1/${figures.cpuSpeedup} of graphql-js's CPU`,
    );
    const report = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.availableParallelism(),
      data: given ? 'postgres (given)' : args.postgres ? 'postgres' : 'pglite',
      target: {
        cpuMsUnder: 20,
        metBy: {
          'graphql-js': figures.executors['graphql-js'].cpuMs.median < 20,
          jit: figures.executors.jit.cpuMs.median < 20,
        },
      },
      ...figures,
    };
    const out = resolve(root, args.out, 'graphql-execution.json');
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${out}`);
  } finally {
    await db.destroy();
    await drop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
