// npm run bench:locks [-- --customers 2000 --orders 10000 --keep]
//
// The lock timeline's phase alone (bench/scenarios/lock-timeline.ts): a fresh database on
// BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres), migrated and
// filled with the bench data set at --customers, then --orders orders reaching lockAt at one instant,
// drained by one scheduler and by two on separate pools. Prints the figures, writes
// bench/lock-timeline.json, and drops the database (kept with --keep). bench/run.ts runs the same phase.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../src/db/knex.js';
import { benchDatabase, createAndFill, dropDatabase } from './database.js';
import { measureLockTimeline } from './scenarios/lock-timeline.js';
import { ROOT } from './settings.js';

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '2000' },
    orders: { type: 'string', default: '10000' },
    keep: { type: 'boolean', default: false },
  },
});
const database = benchDatabase();
try {
  const db = await createAndFill(database, Number(values.customers));
  const second = createDb({ databaseUrl: database.url, dataDir: null, poolMax: 4 });
  try {
    const figures = await measureLockTimeline(db, second, Number(values.orders));
    const postgres = (await db.raw('show server_version')).rows[0]?.server_version as string;
    const record = {
      at: new Date().toISOString(),
      machine: {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model,
        loadAverage: os.loadavg()[0],
        node: process.version,
      },
      postgres,
      customers: Number(values.customers),
      ...figures,
    };
    writeFileSync(resolve(ROOT, 'bench/lock-timeline.json'), `${JSON.stringify(record, null, 2)}\n`);
  } finally {
    await second.destroy();
  }
} finally {
  await dropDatabase(database, values.keep ?? false);
}
