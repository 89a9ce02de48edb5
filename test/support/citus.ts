// A database of its own on the Citus cluster .ci/citus-cluster starts (TEST_CITUS_URL: the coordinator's
// admin URL; TEST_CITUS_WORKERS: the workers' ports on 127.0.0.1). Citus does not copy a database from a
// template holding its extension, nor propagate CREATE DATABASE: the database is made on every node, the
// extension in each, the workers added to the coordinator's metadata; then the migrations, the
// distribution step (src/db/distribution.ts) and, when asked, the demo data. Dropped on every node after.
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import pg from 'pg';
import { distributeTables } from '../../src/db/distribution.js';
import { createDb, type Db } from '../../src/db/knex.js';
import { migrateLatest } from '../../src/db/migrate.js';

export const onCitus = Boolean(process.env.TEST_CITUS_URL);

/** Workers a test added to the cluster (addCitusWorker): databases made after it use them too, and each is dropped there. */
const addedWorkers: number[] = [];

/** The coordinator's admin URL and every node's URL of `database` (coordinator first). */
function nodes(database: string): { admin: string; urls: string[]; ports: number[] } {
  const admin = process.env.TEST_CITUS_URL;
  if (!admin) throw new Error('TEST_CITUS_URL is not set');
  const coordinator = new URL(admin);
  const workers = (process.env.TEST_CITUS_WORKERS ?? '')
    .split(',')
    .filter(Boolean)
    .map((port) => Number(port));
  const ports = [...new Set([Number(coordinator.port), ...workers, ...addedWorkers])];
  const urls = ports.map((port) => {
    const url = new URL(admin);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    url.pathname = `/${database}`;
    return url.toString();
  });
  return { admin, urls, ports };
}

async function onNode<T>(url: string, work: (session: knex.Knex) => Promise<T>): Promise<T> {
  const session = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
  try {
    return await work(session);
  } finally {
    await session.destroy();
  }
}

/** Makes the database on every node and joins the workers to the coordinator: migrated and distributed unless `migrate` is false. */
export async function createCitusDatabase(options: { migrate: boolean }): Promise<{
  db: Db;
  url: string;
  destroy: () => Promise<void>;
}> {
  const name = `dfs_citus_${process.pid}_${randomBytes(4).toString('hex')}`;
  const { urls, ports } = nodes(name);
  const postgresUrls = nodes('postgres').urls;
  const drop = () =>
    Promise.all(
      // Every node as it stands at the drop: a worker added since holds the database too.
      nodes('postgres').urls.map((url) =>
        onNode(url, (session) => session.raw('drop database if exists ?? with (force)', [name])).catch(() => undefined),
      ),
    ).then(() => undefined);
  try {
    for (const [index, url] of postgresUrls.entries()) {
      await onNode(url, (session) => session.raw('create database ??', [name]));
      await onNode(urls[index]!, (session) => session.raw('create extension citus'));
    }
    await onNode(urls[0]!, async (session) => {
      await session.raw('select citus_set_coordinator_host(?, ?)', ['127.0.0.1', ports[0]!]);
      for (const port of ports.slice(1)) await session.raw('select citus_add_node(?, ?)', ['127.0.0.1', port]);
    });
  } catch (error) {
    await drop();
    throw error;
  }
  const db = createDb({ databaseUrl: urls[0]!, dataDir: null, poolMax: 20 });
  if (options.migrate) {
    await migrateLatest(db);
    await distributeTables(db);
  }
  return {
    db,
    url: urls[0]!,
    destroy: async () => {
      await db.destroy();
      await drop();
    },
  };
}

/**
 * Makes `database` on a worker just started (citusCluster.ts), with the extension, and adds the worker
 * to that database's coordinator: a node joins, as an operator adds one before a rebalance. Databases
 * made after it use it too, and each is dropped there.
 */
export async function joinCitusWorker(database: string, port: number): Promise<void> {
  const { urls } = nodes(database);
  addedWorkers.push(port);
  const worker = new URL(urls[0]!);
  worker.port = String(port);
  const admin = new URL(worker);
  admin.pathname = '/postgres';
  await onNode(admin.toString(), (session) => session.raw('create database ??', [database]));
  await onNode(worker.toString(), (session) => session.raw('create extension citus'));
  await onNode(urls[0]!, (session) => session.raw('select citus_add_node(?, ?)', ['127.0.0.1', port]));
}

/**
 * Each statement sent that Citus plans (a distributed or reference table in it), with the task counts
 * of its plan: Citus's own EXPLAIN of the statement with its values, planned and not run (a plan in
 * parts, such as a CTE's subplans, has a count per part). Transaction control is passed over.
 */
export async function explainTasks(
  url: string,
  statements: ReadonlyArray<{ sql: string; bindings: readonly unknown[] }>,
): Promise<Array<{ sql: string; counts: number[] }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const planned: Array<{ sql: string; counts: number[] }> = [];
    for (const { sql, bindings } of statements) {
      if (/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(sql)) continue;
      const { rows } = await client.query(`explain (costs off) ${sql}`, bindings as unknown[]);
      const plan = rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
      const counts = [...plan.matchAll(/Task Count: (\d+)/g)].map((count) => Number(count[1]));
      if (counts.length) planned.push({ sql, counts });
    }
    return planned;
  } finally {
    await client.end();
  }
}
