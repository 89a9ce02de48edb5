// npm run bench -- --citus: the service on a Citus cluster (a coordinator and two workers on this
// machine, .ci/citus-cluster) beside the same service on plain Postgres (BENCH_DATABASE_URL's server),
// in one run: the same data set in both (generated on Postgres, copied into the cluster once its tables
// are placed), one service process on each, run alike, and the same doors loaded in alternating turns:
// in-store payments and customer lookups, one at a time (a till alone) and --connections at once (a
// fleet). Each row's figure on Citus is read against plain Postgres's in the same turns; the payment's
// p50 one at a time is held to 1.5 times (targets in docs/performance.md, decisions.md 49). Writes
// bench/citus.json (or --out's). Needs Citus installed for this PostgreSQL: bash .ci/citus-install.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { distributeTables } from '../src/db/distribution.js';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { ensureMonths, monthPartitions } from '../src/db/partitions.js';
import { checkLedger } from '../src/ledger/check.js';
import { benchDatabase, createAndFill, dropDatabase, withAdmin } from './database.js';
import { log, phase, round } from './log.js';
import { SERVICE_READY, startProcess, stopProcess } from './processes.js';
import { serviceEnvironmentOf } from './services.js';
import { ROOT, type Settings } from './settings.js';
import { run } from './turns.js';
import { pick, readWorkload, type Workload } from './workload.js';

const execFileAsync = promisify(execFile);
const CLUSTER = join(ROOT, '.ci/citus-cluster');
/** Where .ci/citus-install puts the extension for this machine's PostgreSQL 15. */
const CITUS_LIBRARY = '/usr/lib/postgresql/15/lib/citus.so';
/** The bound of the payment's p50 one at a time on Citus against plain Postgres (the issue's; decisions.md 49). */
export const CITUS_PAYMENT_P50_BOUND = 1.5;

type Backend = 'postgres' | 'citus';
interface Row {
  name: string;
  label: string;
  connections: number;
  path: (workload: Workload) => { path: string; headers: Record<string, string> };
}

interface TurnFigure {
  p50: number;
  p99: number;
  rps: number;
  failures: number;
}

/** A row's figures on each backend: each the median of its turns, and Citus's p50 and rps against Postgres's. */
export interface CitusRow {
  name: string;
  label: string;
  connections: number;
  postgres: TurnFigure;
  citus: TurnFigure;
  p50Ratio: number;
  rpsRatio: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

export async function citusComparison(settings: Settings): Promise<void> {
  if (!existsSync(CITUS_LIBRARY))
    throw new Error(`Citus is not installed (${CITUS_LIBRARY}): run bash .ci/citus-install`);
  const plain = benchDatabase();
  const clusterDir = join(os.tmpdir(), `dfs-bench-citus-${randomBytes(4).toString('hex')}`);
  const started: Array<{ stop: () => Promise<void> }> = [];
  let citus: Db | null = null;
  try {
    const plainDb = await createAndFill(plain, settings.customers);
    await phase('citusCluster', () => execFileAsync(CLUSTER, ['start', clusterDir, '2']));
    const ports = readFileSync(join(clusterDir, 'ports'), 'utf8').trim().split('\n').map(Number);
    log(`citus: a coordinator on port ${ports[0]}, workers on ${ports.slice(1).join(', ')}`);
    const citusUrl = await phase('citusDatabase', () => makeCitusDatabase(plain.name, ports));
    citus = createDb({ databaseUrl: citusUrl, dataDir: null, poolMax: 4 });
    await phase('citusCopy', () => copyData(plainDb, plain.url, citus!, citusUrl));
    const workloads: Record<Backend, Workload> = {
      postgres: await readWorkload(plainDb),
      citus: await readWorkload(citus),
    };
    const services = {} as Record<Backend, number>;
    for (const [backend, database] of [
      ['postgres', plain],
      ['citus', { name: `${plain.name}-citus`, url: citusUrl }],
    ] as const) {
      const { child, port } = await phase(`start ${backend}`, () =>
        startProcess(
          settings,
          `service (${backend})`,
          'src/main.ts',
          serviceEnvironmentOf(settings, database, backend),
          SERVICE_READY,
        ),
      );
      started.push({ stop: () => stopProcess(child) });
      services[backend] = port;
    }
    const rows: CitusRow[] = [];
    for (const row of ROWS(settings)) rows.push(await measureRow(settings, row, services, workloads));
    const ledgers = { postgres: await checkLedger(plainDb), citus: await checkLedger(citus) };
    const problems = ledgers.postgres.problems.length + ledgers.citus.problems.length;
    log(`ledger after the payments: ${problems === 0 ? 'clean on both' : `${problems} problems`}`);
    const payment = rows.find((row) => row.name === 'payment, one at a time');
    const met = payment !== undefined && payment.p50Ratio <= CITUS_PAYMENT_P50_BOUND && problems === 0;
    log(
      `target: the payment's p50 one at a time on Citus <= ${CITUS_PAYMENT_P50_BOUND}x plain Postgres's: ${payment ? `${payment.p50Ratio}x` : 'not measured'} (${met ? 'met' : 'MISSED'})`,
    );
    const figures = {
      at: new Date().toISOString(),
      customers: settings.customers,
      turns: settings.turns,
      durationSeconds: settings.duration,
      cluster: { coordinator: 1, workers: ports.length - 1 },
      rows,
      ledgerProblems: problems,
      target: { paymentP50Bound: CITUS_PAYMENT_P50_BOUND, met },
    };
    if (!settings.smoke) {
      mkdirSync(settings.outDir, { recursive: true });
      writeFileSync(join(settings.outDir, 'citus.json'), `${JSON.stringify(figures, null, 2)}\n`);
      log(`wrote ${join(settings.outDir, 'citus.json')}`);
    }
  } finally {
    for (const service of started) await service.stop();
    await citus?.destroy();
    await dropDatabase(plain, settings.keep);
    if (existsSync(clusterDir)) await execFileAsync(CLUSTER, ['stop', clusterDir]).catch(() => undefined);
  }
}

/** The rows: each door one at a time and --connections at once. */
function ROWS(settings: Settings): Row[] {
  const payment = (workload: Workload) => {
    const order = pick(workload.orders);
    return {
      path: `/v1/record-customer-payment.php?key=${workload.retailKey}&merchantId=${order.merchant_id}&salesClerkId=${order.clerk_id}&financeOrderId=${order.id}&amount=0.50&currency=${order.currency}`,
      headers: { 'idempotency-key': randomUUID() },
    };
  };
  const lookup = (workload: Workload) => ({
    path: `/v1/lookup-customer.php?key=${workload.partnerKey}&customerLocator=${workload.randomLocator()}`,
    headers: {},
  });
  const many = settings.paymentConnections;
  return [
    {
      name: 'payment, one at a time',
      label: 'REST record-customer-payment, 1 connection',
      connections: 1,
      path: payment,
    },
    {
      name: 'payments at once',
      label: `REST record-customer-payment, ${many} connections`,
      connections: many,
      path: payment,
    },
    { name: 'lookup, one at a time', label: 'REST lookup-customer, 1 connection', connections: 1, path: lookup },
    { name: 'lookups at once', label: `REST lookup-customer, ${many} connections`, connections: many, path: lookup },
  ];
}

/** One row: a warm-up on each backend, then its turns, Postgres and Citus one after the other in each. */
async function measureRow(
  settings: Settings,
  row: Row,
  ports: Record<Backend, number>,
  workloads: Record<Backend, Workload>,
): Promise<CitusRow> {
  const once = async (backend: Backend, seconds: number): Promise<TurnFigure> => {
    const result = await run({
      url: `http://127.0.0.1:${ports[backend]}`,
      connections: row.connections,
      duration: seconds,
      timeout: 30,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, ...row.path(workloads[backend]) }) }],
    });
    return {
      p50: result.latency.p50,
      p99: result.latency.p99,
      rps: result.requests.average,
      failures: result.non2xx + result.errors + result.timeouts,
    };
  };
  if (settings.warmup > 0) for (const backend of ['postgres', 'citus'] as const) await once(backend, settings.warmup);
  const turns: Record<Backend, TurnFigure[]> = { postgres: [], citus: [] };
  for (let turn = 0; turn < settings.turns; turn++)
    for (const backend of ['postgres', 'citus'] as const) turns[backend].push(await once(backend, settings.duration));
  const of = (backend: Backend): TurnFigure => ({
    p50: median(turns[backend].map((figure) => figure.p50)),
    p99: median(turns[backend].map((figure) => figure.p99)),
    rps: round(median(turns[backend].map((figure) => figure.rps))),
    failures: turns[backend].reduce((sum, figure) => sum + figure.failures, 0),
  });
  const figures = { postgres: of('postgres'), citus: of('citus') };
  const measured: CitusRow = {
    name: row.name,
    label: row.label,
    connections: row.connections,
    ...figures,
    p50Ratio: round(figures.citus.p50 / Math.max(figures.postgres.p50, 0.001), 2),
    rpsRatio: round(figures.citus.rps / Math.max(figures.postgres.rps, 0.001), 2),
  };
  log(
    `${row.label}: Postgres p50 ${figures.postgres.p50} ms p99 ${figures.postgres.p99} ms ${figures.postgres.rps} rps; Citus p50 ${figures.citus.p50} ms p99 ${figures.citus.p99} ms ${figures.citus.rps} rps (p50 x${measured.p50Ratio}, rps x${measured.rpsRatio}; failures ${figures.postgres.failures} / ${figures.citus.failures})`,
  );
  return measured;
}

/** The database on every node of the cluster, the workers joined, migrated and placed (db:distribute); its URL. */
async function makeCitusDatabase(name: string, ports: number[]): Promise<string> {
  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  for (const port of ports) {
    await withAdmin(url(port, 'postgres'), (session) => session.raw('create database ??', [name]));
    await withAdmin(url(port, name), (session) => session.raw('create extension citus'));
  }
  await withAdmin(url(ports[0]!, name), async (session) => {
    await session.raw('select citus_set_coordinator_host(?, ?)', ['127.0.0.1', ports[0]!]);
    for (const port of ports.slice(1)) await session.raw('select citus_add_node(?, ?)', ['127.0.0.1', port]);
  });
  const db = createDb({ databaseUrl: url(ports[0]!, name), dataDir: null, poolMax: 2 });
  try {
    await migrateLatest(db);
    await distributeTables(db);
  } finally {
    await db.destroy();
  }
  return url(ports[0]!, name);
}

/**
 * The generated data set copied from plain Postgres into the placed tables (pg_dump's data through
 * psql: COPY into a distributed table is routed row by row to its shards), the ledger's and the log's
 * month partitions made first as the generator made them. The bench's generator writes in statements
 * Citus does not take (a subquery without FROM over a stable function), and the copy is the same data.
 */
async function copyData(plainDb: Db, plainUrl: string, citus: Db, citusUrl: string): Promise<void> {
  for (const table of ['transactions', 'events'] as const) {
    const months = await monthPartitions(plainDb, table);
    if (months.length > 0) await ensureMonths(citus, months[0]!.month, months[months.length - 1]!.month, [table]);
  }
  await execFileAsync(
    'bash',
    [
      '-c',
      'set -o pipefail; pg_dump --data-only --no-owner --exclude-table="knex_migrations*" "$1" | psql -Xq -v ON_ERROR_STOP=1 "$2" >/dev/null',
      'copy',
      plainUrl,
      citusUrl,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  // The statistics the generator left on Postgres, on the shards too (a copy brings none): the same plans.
  await citus.raw('analyze');
}
