// npm run bench:data [-- --scale N | --customers N]: the large deterministic data set
// (src/fixtures/benchData.ts) in the configured database (DATABASE_URL, or the embedded one), which must
// be migrated and empty. --scale N is N times the bench's data set (20,000 customers at 1, 200,000 at
// 10: the default). Progress and rate go to stderr; the summary and the API keys it created go to stdout.

import { describeDatabase } from '../db/open.js';
import {
  BENCH_CUSTOMERS_PER_SCALE,
  type BenchProgress,
  benchSizes,
  customersAtScale,
  DEFAULT_BENCH_CUSTOMERS,
  generateBenchData,
} from '../fixtures/benchData.js';
import { readArgs, runCli, UsageError } from './run.js';

const USAGE = [
  'usage: npm run bench:data [-- --scale N | --customers N]',
  `  --scale N      N times the bench's data set (${BENCH_CUSTOMERS_PER_SCALE.toLocaleString('en-US')} customers at 1; 10 is the default); N may be a fraction: 0.1 is 2,000`,
  '  --customers N  N customers (a whole number of at least 2; 1_000 and 1,000 read as 1000)',
].join('\n');

/** A number as an operator writes it: 1_000 and 1,000 read as 1000. */
const numberOf = (text: string): number => Number(text.replaceAll('_', '').replaceAll(',', ''));

/** The customers to generate: --customers as given, --scale times the bench's 20,000, or the default. */
function customersOf(values: { customers?: string; scale?: string }): number {
  if (values.customers !== undefined && values.scale !== undefined)
    throw new UsageError('--scale and --customers both name the size: give one');
  if (values.scale !== undefined) {
    const scale = numberOf(values.scale);
    const customers = customersAtScale(scale);
    if (!Number.isFinite(scale) || scale <= 0 || customers < 2)
      throw new UsageError(`--scale takes a number above 0 that makes at least 2 customers (${values.scale})`);
    return customers;
  }
  if (values.customers === undefined) return DEFAULT_BENCH_CUSTOMERS;
  const n = numberOf(values.customers);
  if (!Number.isSafeInteger(n) || n < 2) throw new UsageError('--customers takes a whole number of at least 2');
  return n;
}

function parseCustomers(): number {
  const { values } = readArgs({ options: { customers: { type: 'string' }, scale: { type: 'string' } } });
  return customersOf(values);
}

function progressPrinter(started: number): (progress: BenchProgress) => void {
  const tty = process.stderr.isTTY;
  let lastTable = '';
  let lastPrint = 0;
  return (p) => {
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round(p.done / Math.max(seconds, 0.001));
    const share = Math.min(1, p.done / p.total);
    const width = 30;
    const filled = Math.round(share * width);
    const line =
      `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ` +
      `${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')} rows, ${rate.toLocaleString('en-US')} rows/s, ` +
      `${p.table} ${p.tableDone.toLocaleString('en-US')}/${p.tableTotal.toLocaleString('en-US')}`;
    const now = performance.now();
    if (tty) {
      process.stderr.write(`\r${line}\x1b[K`);
    } else if (p.table !== lastTable || p.tableDone >= p.tableTotal || now - lastPrint > 5000) {
      process.stderr.write(`${line}\n`);
      lastPrint = now;
    }
    lastTable = p.table;
  };
}

await runCli(USAGE, parseCustomers, async (db, config, customers) => {
  process.stdout.write(`database: ${describeDatabase(config)}\n`);
  const sizes = benchSizes(customers);
  process.stdout.write(
    `generating: ${customers} customers, ${sizes.merchants} merchants, ${sizes.clerks} clerks, ${sizes.payments} payments\n`,
  );
  const result = await generateBenchData(db, {
    customers,
    production: config.production,
    onProgress: progressPrinter(performance.now()),
  });
  if (process.stderr.isTTY) process.stderr.write('\n');
  for (const [table, n] of Object.entries(result.rows))
    process.stdout.write(`  ${table.padEnd(22)} ${n.toLocaleString('en-US').padStart(12)}\n`);
  process.stdout.write(
    `${result.totalRows.toLocaleString('en-US')} rows in ${result.seconds.toFixed(1)} s ` +
      `(${Math.round(result.totalRows / result.seconds).toLocaleString('en-US')} rows/s, including ANALYZE)\n`,
  );
  process.stdout.write(
    `partners: ${result.partners.map((p) => `${p.id} ${p.name} (${p.currency}, commission ${p.commissionRateBps} bps)`).join('; ')}\n`,
  );
  process.stdout.write('API keys created (stored hashed; development data only):\n');
  for (const key of result.keys) process.stdout.write(`  ${key.kind.padEnd(8)} ${key.owner.padEnd(16)} ${key.key}\n`);
  process.stdout.write(
    `  retail   (store keys)     bench-store-key-1 .. bench-store-key-${result.storeKeys} (every 10th revoked)\n`,
  );
});
