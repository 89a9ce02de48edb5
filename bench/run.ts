// npm run bench [-- --scale 1 --duration 10 --warmup 5 --connections 32 --pool 10 --keep | --database NAME]
// npm run bench -- --smoke (every phase briefly on a small data set, nothing written: CI's bench step)
// npm run bench -- --scale 10 --only book --database NAME (the book's phase on a kept 10x database)
// npm run bench -- --citus (the service on a Citus cluster beside plain Postgres, alone: bench/citus.ts)
//
// The benchmark. On the Postgres server named by BENCH_DATABASE_URL (an admin URL that may CREATE
// DATABASE; default postgres://postgres@127.0.0.1:5432/postgres) it creates a fresh database
// dfs_bench_<random>, migrates it, fills it (the data-set generator `npm run bench:data`, 20,000 x
// --scale customers), starts the service (src/main.ts) and the baseline (bench/baseline-server.ts: the
// bare lookup, payment and list) as separate processes run alike (NODE_ENV=production, the same V8
// flags, the same pool), and loads them from this process on loopback with autocannon: every door in
// alternating turns with its baseline, until each has --p99-requests answers or --max-seconds of
// load, after a short warm-up. The headline lookups and payments send each request with the key of
// one of the partner's store tills (at least 250); the one-key rows follow. pgbench's TPC-B-like
// transaction runs in the payments' turns, at the service's pool size and at its best client count.
// It reports requests per second and p50/p99 latency (and how many answers each p99 comes from), each
// service figure with its ratio to its own baseline in the same run, where each run's CPU went (the
// answering process, its Postgres backends, the load generator: bench/cpu.ts), the service's peak
// resident memory, a whole year's list answered once, the webhooks' pace, the book (its figures, a
// year's history and a year's report run, on an api and a worker process of their own:
// scenarios/book.ts), and whether the ledger is clean after the payments; and whether the run is of record (bench/record.ts: an idle machine).
// Writes bench/results.json (its scales map: this run beside the other scales' runs) and
// bench/results.svg; drops the databases.
//
// This file only sequences the phases. The pieces: settings.ts (the options), database.ts,
// processes.ts (starting and stopping node processes), services.ts (the processes loaded),
// workload.ts (what to ask for), load.ts (the groups and the figures of a run), turns.ts (a turn of
// autocannon or pgbench, and a group's turns), cpu.ts (CPU
// accounting), record.ts (of record or not), scenarios/ (lookups, payments, lists, the long window,
// pgbench, limits in Redis, webhooks, the book, profiles, GraphQL execution), targets.ts, results.ts
// (results.json, results.svg, the printed table).

import { createDb } from '../src/db/knex.js';
import { checkLedger } from '../src/ledger/check.js';
import { citusComparison } from './citus.js';
import { benchDatabase, countRows, createAndFill, type Database, dropDatabase } from './database.js';
import { measureScenarios, type Scenario } from './load.js';
import { endPhases, log, phase } from './log.js';
import { compileForBench, procStatus, stopAll, stopProcess } from './processes.js';
import { idlenessBefore, judgeRecord } from './record.js';
import { printSummary, writeResults } from './results.js';
import { book, fillSnapshots } from './scenarios/book.js';
import { graphqlExecution } from './scenarios/graphql-execution.js';
import { profileLayers } from './scenarios/layers.js';
import { limitsInRedis } from './scenarios/limits-in-redis.js';
import { listScenarios, probeWindows, rowsPerResponse } from './scenarios/lists.js';
import { measureLockTimeline } from './scenarios/lock-timeline.js';
import { longWindow } from './scenarios/long-window.js';
import { lookupScenarios } from './scenarios/lookups.js';
import { paymentScenarios } from './scenarios/payments.js';
import { pgbenchFloor } from './scenarios/pgbench.js';
import { profileDoors } from './scenarios/profiles.js';
import { webhooks } from './scenarios/webhooks.js';
import { type Bench, startServices } from './services.js';
import { readSettings, type Settings } from './settings.js';
import { smokeProblems } from './smoke.js';
import { fractionOfPgbench, targetsOf } from './targets.js';
import { readWorkload } from './workload.js';

const settings = readSettings();
const database = benchDatabase(settings.reuse);

/** More to undo at the end (pgbench's database). */
const cleanups: Array<() => Promise<void>> = [];
let cleaningUp: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaningUp ??= (async () => {
    await stopAll();
    for (const undo of cleanups) await undo();
    await dropDatabase(database, settings.keep);
  })();
  return cleaningUp;
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

try {
  await main();
} catch (error) {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await cleanup();
}

async function main(): Promise<void> {
  if (settings.citus) {
    // A run of its own: the service on a Citus cluster beside plain Postgres (bench/citus.ts).
    await compileForBench(settings);
    await citusComparison(settings);
    return;
  }
  const idle = await idlenessBefore();
  log(
    `bench: ${settings.scale}x data (${settings.customers} customers), ${settings.duration} s per scenario at least (+${settings.warmup} s warm-up) until ${settings.p99Requests} answers or ${settings.maxSeconds} s, ${settings.lookupConnections} connections for lookups and payments, pools of ${settings.pool}`,
  );

  // 0. The service and the baselines compiled, as production runs them (unless --from-source).
  await compileForBench(settings);
  // 1. A fresh database, migrated and filled.
  const data = await createAndFill(database, settings.customers);
  const counts = await countRows(data);
  // The book's history: a year of daily snapshots, so no worker makes them during the load (scenarios/book.ts).
  await fillSnapshots(data);
  // 2. What to ask for: the busiest partner, keys of its own, locators, orders, windows.
  const workload = await readWorkload(data);
  // 3. The processes.
  const services = await startServices(settings, database);
  const bench: Bench = { settings, database, data, workload, services };

  // 4. The scenarios, in this order: the lookups, the payments (with pgbench's turns), the transaction
  // lists (each window probed first: its rows, and how long its turns must be); then a whole year once.
  const windowRows = await probeWindows(bench);
  const floor = pgbenchFloor(bench);
  cleanups.push(floor.drop);
  const scenarios = chosen(settings, [
    ...lookupScenarios(bench),
    ...paymentScenarios(bench, floor),
    ...listScenarios(bench, windowRows),
  ]);
  if (scenarios.some((scenario) => scenario.runTurn)) await floor.prepare();
  const load = await measureScenarios(bench, scenarios, (scenario) => rowsPerResponse(bench, windowRows, scenario));
  const pgbench = floor.summary(load.results);
  const year = await longWindow(bench);
  const serviceHwm = procStatus(services.answering.service.pid, 'VmHWM');

  // 5. The ledger after the payments, once the service has drained: SIGTERM lets it finish the
  // requests still in flight when the load stopped, so the check sees a settled ledger.
  await phase('stopService', () => stopProcess(services.service));
  await phase('stopCore', () => stopProcess(services.core));
  const inRedis = await limitsInRedis(bench, load.results);
  const withWebhooks = await webhooks(bench, scenarios);
  // Once no other service process runs (each has a worker, which would take the report run).
  const theBook = await book(bench);
  const profiles = settings.profile ? await profileDoors(bench, scenarios) : null;
  // Each of the service's layers switched off alone, on the lookups whatever --only chose.
  const layers = settings.profile ? await profileLayers(bench, lookupScenarios(bench)) : null;
  const execution = await graphqlExecution(bench);
  const ledger = await phase('ledgerCheck', () => checkLedger(data));
  log(
    `ledger: ${ledger.problems.length === 0 ? 'clean' : `${ledger.problems.length} problems`} (checked ${JSON.stringify(ledger.checked)})`,
  );
  for (const problem of ledger.problems.slice(0, 10)) log(`  ${problem}`);
  // After the ledger check: its orders have no payments behind their totals. They stay, so not on a
  // reused database (--database), which a later run would find them in (and its ledger check fail).
  const lockTimeline = database.reused ? null : await phase('lockTimeline', () => lockTimelineOf(database));
  if (database.reused) log('lock timeline: not run on a reused database (--database): its orders would stay there');

  // 6. The targets.
  const peakHwm = Math.max(
    ...[serviceHwm, withWebhooks?.vmHwmBytes, inRedis?.vmHwmBytes, theBook.report.workerVmHwmBytes].map(
      (bytes) => bytes ?? 0,
    ),
  );
  const targets = targetsOf({
    results: load.results,
    pgbench,
    probes: windowRows.probes,
    graphqlExecution: execution,
    ledgerProblems: ledger.problems.length,
    peakHwm,
    serviceRssAtStart: services.serviceRssAtStart,
    webhooks: withWebhooks,
    longWindow: year,
    book: theBook,
    scale: settings.scale,
  });
  const record = judgeRecord(settings, idle, load.results);
  endPhases();

  // 7. The record, the chart and the table.
  const run = {
    settings,
    record,
    postgresVersion: (await data.raw('show server_version')).rows[0]?.server_version as string,
    partner: workload.partner,
    counts,
    windows: workload.windows,
    windowRows,
    longWindow: year,
    pgbench,
    paymentFractionOfPgbench: fractionOfPgbench(
      load.results.find((result) => result.name === 'rest-record-customer-payment'),
      pgbench,
    ),
    profiles,
    layers,
    graphqlExecution: execution,
    webhooks: withWebhooks,
    limitsInRedis: inRedis,
    book: theBook,
    lockTimeline,
    serviceErrors: services.serviceErrors,
    load,
    serviceRssAtStart: services.serviceRssAtStart,
    serviceHwm,
    ledger,
    targets,
  };
  printSummary(run);
  if (!settings.smoke) {
    writeResults(run);
    return;
  }
  const problems = smokeProblems({
    results: load.results,
    longWindow: year,
    book: theBook,
    ledgerProblems: ledger.problems.length,
    serviceErrors: services.serviceErrors,
  });
  for (const problem of problems) log(`SMOKE FAILED: ${problem}`);
  if (problems.length) throw new Error(`the smoke run failed (${problems.length} problems above)`);
  log('smoke run passed: every phase ran and every scenario was answered (nothing written; its figures mean nothing)');
}

/** 10,000 locks at one instant (a smoke run's fewer: scenarios/lock-timeline.ts), the second scheduler on a pool of its own. */
async function lockTimelineOf(database: Database) {
  const second = createDb({ databaseUrl: database.url, dataDir: null, poolMax: 4 });
  try {
    return await measureLockTimeline(database.db!, second, settings.lockTimelineOrders);
  } finally {
    await second.destroy();
  }
}

/** --only: the scenarios whose names contain one of its words, and the baselines they name. */
function chosen(settings: Settings, scenarios: Scenario[]): Scenario[] {
  if (!settings.only.length) return scenarios;
  const picked = scenarios.filter((scenario) => settings.only.some((word) => scenario.name.includes(word)));
  const needed = new Set(picked.flatMap((scenario) => [scenario.name, scenario.baseline ?? []].flat()));
  // What runs in a kept baseline's turns without a ratio to it (pgbench in the payments') is kept with it.
  const kept = scenarios.filter(
    (scenario) => needed.has(scenario.name) || (scenario.turnsWith !== undefined && needed.has(scenario.turnsWith)),
  );
  // --only book: the book's phase (which always runs), no scenario of the load.
  if (!kept.length && settings.only.includes('book')) return [];
  // Thrown, not an exit: the processes are up by now, and the cleanup after main stops them and drops the database.
  if (!kept.length) throw new Error(`--only ${settings.onlyOption}: no scenario's name contains any of its words`);
  return kept;
}
