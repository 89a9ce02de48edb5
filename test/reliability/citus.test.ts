// The service on Citus (decisions.md 48), run against the cluster .ci/citus-cluster starts (TEST_CITUS_URL;
// skipped elsewhere): the schema placed by the distribution step, the demo data loaded through it, and the
// partner doors that already run there, each of their statements on tenant tables planned as one task
// (one shard of one worker), read from Citus's own EXPLAIN of the statement with its values.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { COORDINATOR_TABLES, distributeTables, REFERENCE_TABLES } from '../../src/db/distribution.js';
import type { Db } from '../../src/db/knex.js';
import { DEMO_CART_TAG, DEMO_DEVICE_IMEI, DEMO_DEVICE_TAG, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { onCitus } from '../support/citus.js';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const WINDOW = 'starttime=1749513600&endtime=1781136000';

/** The partner doors that run on Citus today, each answered 200 (or the 404 it asks for). */
const DOORS: Array<{ name: string; path: string; status?: number }> = [
  { name: 'list-clerks', path: '/v1/list-clerks.php?key=demo-partner-key' },
  { name: 'list-merchants', path: '/v1/list-merchants.php?key=demo-retail-key' },
  {
    name: 'lookup-customer by IMEI',
    path: `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}`,
  },
  {
    name: 'lookup-customer by tag',
    path: `/v1/lookup-customer.php?key=demo-retail-key&customerLocator=${DEMO_DEVICE_TAG}`,
  },
  { name: 'lookup-customer by phone', path: '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=5512345679' },
  { name: 'lookup-customer by id', path: '/v1/lookup-customer.php?key=demo-retail-key&customerLocator=4000007' },
  {
    name: 'lookup-customer, nobody',
    path: '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=999999999999999',
    status: 404,
  },
  { name: 'lookup-cart', path: `/v1/lookup-cart.php?key=demo-partner-key&cartTag=${DEMO_CART_TAG}` },
  { name: 'list-transactions', path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}` },
  {
    name: 'list-transactions, filtered by order',
    path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}&filter=financeOrder.id:${DEMO_ORDER_ID}`,
  },
];

describe.skipIf(!onCitus)('the service on Citus', () => {
  const fixture = useSeededService({ now: NOW });
  const db = (): Db => fixture.database.db;

  it('places every table: tenant tables distributed by partner_id in one colocation group, the shared ones copied to every node, the rest on the coordinator alone', async () => {
    const { rows } = await db().raw(
      'select logicalrelid::regclass::text as name, partmethod as method, colocationid as colocation from pg_dist_partition',
    );
    const placed = new Map<string, { method: string; colocation: number }>(
      rows.map((row: { name: string; method: string; colocation: number }) => [row.name, row]),
    );
    for (const table of REFERENCE_TABLES) expect(placed.get(table)?.method, table).toBe('n');
    for (const table of COORDINATOR_TABLES) expect(placed.has(table), table).toBe(false);
    const distributed = [...placed].filter(([, row]) => row.method === 'h');
    expect(distributed.length).toBeGreaterThan(20);
    expect(new Set(distributed.map(([, row]) => row.colocation)).size).toBe(1);
    const { rows: columns } = await db().raw(
      "select distinct column_to_column_name(logicalrelid, partkey) as column from pg_dist_partition where partmethod = 'h'",
    );
    expect(columns).toEqual([{ column: 'partner_id' }]);
  });

  it('db:distribute again places nothing: every table was placed before', async () => {
    const again = await distributeTables(db());
    expect(again).not.toBeNull();
    expect(again!.reference).toEqual([]);
    expect(again!.distributed).toEqual([]);
    expect(again!.placedBefore.length).toBeGreaterThan(30);
  });

  it.each(DOORS)('$name: answered, and every statement on a tenant table runs as one task', async (door) => {
    const sent: Array<{ sql: string; bindings: unknown[] }> = [];
    const listen = (query: { sql: string; bindings?: unknown[] }) =>
      sent.push({ sql: query.sql, bindings: query.bindings ?? [] });
    db().on('query', listen);
    let status: number;
    try {
      const response = await fixture.service.request(door.path);
      status = response.status;
      await response.text();
    } finally {
      db().off('query', listen);
    }
    expect(status).toBe(door.status ?? 200);
    const tasks = await explainTasks(fixture.database.url!, sent);
    expect(tasks.length, 'statements planned by Citus').toBeGreaterThan(0);
    for (const { sql, count } of tasks) expect(count, sql).toBe(1);
  });
});

/** For each select the door sent that Citus plans (a distributed or reference table in it), its task count. */
async function explainTasks(
  url: string,
  statements: ReadonlyArray<{ sql: string; bindings: unknown[] }>,
): Promise<Array<{ sql: string; count: number }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counted: Array<{ sql: string; count: number }> = [];
    for (const { sql, bindings } of statements) {
      if (!/^[\s(]*(select|with)\b/i.test(sql) || /\b(insert|update|delete)\b/i.test(sql)) continue;
      const { rows } = await client.query(`explain (costs off) ${sql}`, bindings as unknown[]);
      const plan = rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
      const count = /Task Count: (\d+)/.exec(plan);
      if (count) counted.push({ sql, count: Number(count[1]) });
    }
    return counted;
  } finally {
    await client.end();
  }
}
