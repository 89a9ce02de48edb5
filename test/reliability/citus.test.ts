// The service on Citus (decisions.md 48 to 51), run against the cluster .ci/citus-cluster starts
// (TEST_CITUS_URL; skipped elsewhere): the schema placed by the distribution step, the in-store payment
// in one phase on one worker, the background work, the ledger check, a rebalance under keyed payments
// and the README's examples. The Citus suite (.ci/run) runs other files against the cluster too: the
// scaling invariants of every partner request, each statement planned as one task
// (scaling-invariants-requests.test.ts), the tenant-isolation walk, the payment and reference races,
// the reversal and the device door.
import knex, { type Knex } from 'knex';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  COORDINATOR_TABLES,
  distributeNewTenantTable,
  distributeTables,
  REFERENCE_TABLES,
} from '../../src/db/distribution.js';
import type { Db } from '../../src/db/knex.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { lockInstantsTask, startWebhookJobs } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { checkLedger } from '../../src/ledger/check.js';
import { recordInStorePayment } from '../../src/modules/payments/inStore.js';
import { onCitus } from '../support/citus.js';
import { addCitusWorker, citusClusterDir } from '../support/citusCluster.js';
import { useSeededService } from '../support/fixtures.js';
import { expectReadmeExamplesWork, readmeShellBlock, runReadmeShell } from '../support/readme.js';
import { startReceiver } from '../support/receiver.js';
import { reportWorker } from '../support/reports.js';
import { TEST_UNLOCK_KEYS } from '../support/unlockKeys.js';
import { workerRoleTasks } from '../support/workerTasks.js';

const NOW = new Date('2026-06-10T15:30:00Z');

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

  it("an in-store payment is one shard's transaction: its read and its write each go to one worker, with no two-phase commit", async () => {
    const { rows: before } = await db().raw('select last_value from payments_id_seq');
    const { result, commands } = await withRemoteCommands(fixture.database.url!, (session) =>
      recordInStorePayment(
        session,
        {
          partnerId: '1',
          merchantId: DEMO_MERCHANT_ID,
          clerkId: DEMO_CLERK_ID,
          financeOrderId: DEMO_ORDER_ID,
          amount: '18.00',
          currency: 'USD',
          idempotencyKey: 'citus-payment-1',
        },
        NOW,
        TEST_UNLOCK_KEYS,
        { inSteps: true },
      ),
    );
    expect(result.replayed).toBe(false);
    // The id is the coordinator's sequence's next (not a worker's range), so ids keep rising across a shard's move.
    expect(BigInt(result.payment!.id)).toBe(BigInt(before[0].last_value) + 1n);
    const { rows } = await db().raw('select amount_minor from payments where partner_id = 1 and id = ?', [
      result.payment!.id,
    ]);
    expect(rows).toEqual([{ amount_minor: '1800' }]);
    // Two statements, each its own implicit transaction on the partner's worker: no PREPARE TRANSACTION.
    const sentToWorkers = commands.filter((command) => command.server !== null);
    expect(sentToWorkers.length).toBeGreaterThan(0);
    expect(new Set(sentToWorkers.map((command) => command.server)).size).toBe(1);
    expect(commands.filter((command) => /PREPARE TRANSACTION|COMMIT PREPARED/i.test(command.text))).toEqual([]);
  });

  it('the service pays in store in steps on Citus: record-customer-payment adds no two-phase commit, where the one-statement write adds one', async () => {
    const twoPhaseCommits = async () =>
      Number((await db().raw('select count(*) from pg_dist_transaction')).rows[0].count);
    const pay = (key: string) =>
      fixture.service.request(
        `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=18.00&currency=USD`,
        { headers: { 'Idempotency-Key': key } },
      );
    const before = await twoPhaseCommits();
    const paid = await pay('citus-rest-1');
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { valid: boolean }).valid).toBe(true);
    expect(await twoPhaseCommits()).toBe(before);
    // A replay is a read: nothing committed anywhere.
    expect((await pay('citus-rest-1')).status).toBe(200);
    expect(await twoPhaseCommits()).toBe(before);
    // The count does tell: the one statement (right on one Postgres) commits on both workers in two phases.
    await recordInStorePayment(
      db(),
      {
        partnerId: '1',
        merchantId: DEMO_MERCHANT_ID,
        clerkId: DEMO_CLERK_ID,
        financeOrderId: DEMO_ORDER_ID,
        amount: '18.00',
        currency: 'USD',
        idempotencyKey: 'citus-one-statement',
      },
      NOW,
      TEST_UNLOCK_KEYS,
    );
    expect(await twoPhaseCommits()).toBeGreaterThan(before);
  });

  it("a release adds a tenant table keyed into another: distributed before its keys, they are taken and a row lands on its partner's shard; without that the key is refused", async () => {
    const columns = (table: Knex.CreateTableBuilder) => {
      table.bigInteger('partner_id').notNullable();
      table.bigInteger('finance_order_id').notNullable();
      table.text('note').notNullable();
      table.primary(['partner_id', 'finance_order_id']);
    };
    // A tenant table's keys: its partner (a reference table) and its order (a tenant table).
    const keys = (table: Knex.AlterTableBuilder) => {
      table.foreign('partner_id').references('id').inTable('partners');
      table.foreign(['partner_id', 'finance_order_id']).references(['partner_id', 'id']).inTable('finance_orders');
    };
    await expect(
      db().transaction(async (trx) => {
        await trx.schema.createTable('release_notes_local', columns);
        await trx.schema.alterTable('release_notes_local', keys);
      }),
    ).rejects.toThrow(/foreign keys from reference tables and local tables to distributed tables are not supported/);
    try {
      // As a migration does it (decisions.md 52), in one transaction.
      await db().transaction(async (trx) => {
        await trx.schema.createTable('release_notes', columns);
        await distributeNewTenantTable(trx, 'release_notes');
        await trx.schema.alterTable('release_notes', keys);
      });
      const { rows } = await db().raw(
        `select partmethod as method, colocationid = (select colocationid from pg_dist_partition
           where logicalrelid = 'finance_orders'::regclass) as colocated
         from pg_dist_partition where logicalrelid = 'release_notes'::regclass`,
      );
      expect(rows).toEqual([{ method: 'h', colocated: true }]);
      await db()('release_notes').insert({ partner_id: '1', finance_order_id: DEMO_ORDER_ID, note: 'a release' });
      await expect(
        db()('release_notes').insert({ partner_id: '1', finance_order_id: '9999999', note: 'no such order' }),
      ).rejects.toThrow(/foreign key/);
      const again = await distributeTables(db());
      expect(again!.distributed).toEqual([]);
      expect(again!.placedBefore).toContain('release_notes');
    } finally {
      await db().schema.dropTableIfExists('release_notes');
    }
  });

  it('ledger:check runs on Citus, partner by partner: clean after the payments above, and it sees a total put wrong', async () => {
    expect((await checkLedger(db())).problems).toEqual([]);
    const order = { partner_id: '1', id: DEMO_ORDER_ID };
    await db()('finance_orders').where(order).increment('total_paid_minor', 1);
    try {
      expect((await checkLedger(db())).problems).toEqual([
        expect.stringMatching(
          /^running total equals the sum of payments less the reversed ones: finance order 4000004/,
        ),
      ]);
    } finally {
      await db()('finance_orders').where(order).decrement('total_paid_minor', 1);
    }
  });
});

describe.skipIf(!onCitus)('the background work on Citus, one partner at a time (decisions.md 50)', () => {
  const fixture = useSeededService({ now: NOW });
  const db = (): Db => fixture.database.db;
  const OPERATOR = { 'x-api-key': 'demo-operator-key' };

  it("a lock comes due: the partner's sandbox clock moved past it, the lock instants task fires it and device.locked is written", async () => {
    const lock = await db()('lock_timeline')
      .where({ partner_id: '2', finance_order_id: '5000002', kind: 'lock', state: 'pending' })
      .first();
    expect(lock).toBeDefined();
    const moved = await fixture.service.graphql(
      'mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }',
      OPERATOR,
      { input: { partnerId: '2', now: Math.floor(lock.due_at.getTime() / 1000) + 3600 } },
    );
    expect(moved.body.errors).toBeUndefined();
    const task = lockInstantsTask(db());
    let fired = 0;
    for (let taken = await task.runBatch(); taken > 0; taken = await task.runBatch()) fired += taken;
    expect(fired).toBeGreaterThan(0);
    const locked = await db()('events')
      .where({ partner_id: '2', type: 'device.locked' })
      .whereRaw("data->'financeOrder'->>'id' = ?", ['5000002']);
    expect(locked).toHaveLength(1);
    expect((await db()('lock_timeline').where({ partner_id: '2', id: lock.id }).first()).state).toBe('fired');
  });

  it('a webhook delivery: an endpoint of the partner hears its in-store payment, fanned out and posted from the shards', async () => {
    const receiver = await startReceiver();
    const jobs = startWebhookJobs({
      db: db(),
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      settings: { pollMs: 20, scheduleMs: [30], jitter: 0, timeoutMs: 2000 },
    });
    try {
      const created = await fixture.service.graphql(
        `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
        // Demo Retail's partner key: a retail key takes payments, not endpoints.
        { 'x-api-key': 'demo-partner-key' },
        { input: { url: receiver.url('/citus'), eventTypes: ['PAYMENT_RECORDED'] } },
      );
      expect(created.body.errors).toBeUndefined();
      const paid = await fixture.service.request(
        `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=18.00&currency=USD`,
      );
      const receipt = (await paid.json()) as { payment: { id: number } };
      expect(paid.status).toBe(200);
      for (let waited = 0; receiver.received.length === 0 && waited < 60_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(receiver.received.map((post) => post.path)).toEqual(['/citus']);
      const body = JSON.parse(receiver.received[0]!.body);
      expect(body.type).toBe('payment.recorded');
      expect(String(body.data.payment.id)).toBe(String(receipt.payment.id));
    } finally {
      await jobs.stop();
      await receiver.close();
    }
  });

  it('every task of the worker role runs a batch without an error', async () => {
    const reports = await reportWorker(db());
    try {
      const tasks = workerRoleTasks(db(), reports.deps.policies);
      expect(tasks.length).toBeGreaterThan(8);
      const failed: string[] = [];
      for (const task of tasks) {
        await task.runBatch().catch((error: Error) => failed.push(`${task.name}: ${error.message.split(' - ').pop()}`));
      }
      for (const task of tasks) await task.drain?.();
      expect(failed).toEqual([]);
    } finally {
      await reports.close();
    }
  });
});

describe.skipIf(!onCitus || !citusClusterDir)('a node joins and shards move while keyed payments flow', () => {
  const fixture = useSeededService({ now: NOW });
  const db = (): Db => fixture.database.db;
  const PAYMENTS = 200;
  /** Store tills at once, each paying its share of the payments one after another. */
  const TILLS = 4;

  /** One keyed payment of 0.50 on the demo order, sent again with its key until it is acknowledged (a till's retry). */
  async function pay(index: number): Promise<{ id: number; tries: number }> {
    for (let tries = 1; ; tries++) {
      const response = await fixture.service.request(
        `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=0.50&currency=USD`,
        { headers: { 'Idempotency-Key': `rebalance-${index}` } },
      );
      const body = (await response.json()) as { valid?: boolean; payment?: { id: number } };
      if (response.status === 200 && body.payment) return { id: body.payment.id, tries };
      if (tries >= 20) throw new Error(`payment ${index} unacknowledged after 20 tries: ${JSON.stringify(body)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it("a third worker joins, citus_rebalance_start moves shards (the demo partner's among them) during 200 payments: every acknowledged payment is there once, the ledger clean", async () => {
    const database = new URL(fixture.database.url!).pathname.slice(1);
    const shardOf = async () =>
      (
        await db().raw(
          "select nodeport from pg_dist_shard_placement where shardid = get_shard_id_for_distribution_column('payments', 1)",
        )
      ).rows[0].nodeport as number;
    const before = await shardOf();
    const paidBefore = BigInt(
      (await db()('finance_orders').where({ partner_id: '1', id: DEMO_ORDER_ID }).first()).total_paid_minor,
    );
    const port = await addCitusWorker(database);
    let sent = 0;
    const tills = Array.from({ length: TILLS }, async () => {
      const paid: Array<{ id: number; tries: number }> = [];
      for (let index = sent++; index < PAYMENTS; index = sent++) paid.push(await pay(index));
      return paid;
    });
    // While the tills pay: the rebalance, then (if it left it where it was) the demo partner's shards moved to the new node.
    await db().raw('select citus_rebalance_start()');
    await db().raw('select citus_rebalance_wait()');
    if ((await shardOf()) !== port)
      await db().raw(
        `select citus_move_shard_placement(get_shard_id_for_distribution_column('payments', 1), '127.0.0.1', ?, '127.0.0.1', ?, 'force_logical')`,
        [await shardOf(), port],
      );
    const paid = (await Promise.all(tills)).flat();
    expect(before).not.toBe(port);
    expect(await shardOf()).toBe(port);
    const moved = await db().raw('select count(*)::int as n from pg_dist_shard_placement where nodeport = ?', [port]);
    expect(moved.rows[0].n).toBeGreaterThan(0);
    // Every payment acknowledged, each once (a retried key replays its payment), all of them in the table.
    expect(paid).toHaveLength(PAYMENTS);
    const ids = new Set(paid.map((payment) => String(payment.id)));
    expect(ids.size).toBe(PAYMENTS);
    const stored = await db()('payments')
      .where({ partner_id: '1' })
      .whereIn('id', [...ids])
      .count({ n: '*' })
      .first();
    expect(Number(stored!.n)).toBe(PAYMENTS);
    const order = await db()('finance_orders').where({ partner_id: '1', id: DEMO_ORDER_ID }).first();
    expect(BigInt(order.total_paid_minor) - paidBefore).toBe(BigInt(PAYMENTS * 50));
    expect((await checkLedger(db())).problems).toEqual([]);
  });
});

describe.skipIf(!onCitus)("the README's examples on Citus", () => {
  const fixture = useSeededService();

  it('every request of the README\'s "Try it" block answers on Citus as on one Postgres (the vendor\'s notification, the partner doors, the keyed payment)', async () => {
    expectReadmeExamplesWork(await runReadmeShell(readmeShellBlock('readme-examples'), fixture.service.baseUrl));
  });
});

/** A remote command Citus logged (citus.log_remote_commands): its text and the worker it went to. */
interface RemoteCommand {
  text: string;
  server: string | null;
}

/** Runs `work` on a session of its own with Citus's remote commands logged to it, and answers what it sent where. */
async function withRemoteCommands<T>(
  url: string,
  work: (session: Db) => Promise<T>,
): Promise<{ result: T; commands: RemoteCommand[] }> {
  const commands: RemoteCommand[] = [];
  const session = knex({
    client: 'pg',
    connection: url,
    pool: {
      min: 1,
      max: 1,
      afterCreate: (connection: pg.Client, done: (error: Error | null, connection: pg.Client) => void) => {
        connection.on('notice', (notice) => {
          const text = notice.message ?? '';
          if (!text.startsWith('issuing ')) return;
          const server = /on server \S+@([\d.]+:\d+)/.exec(notice.detail ?? '')?.[1] ?? null;
          commands.push({ text: text.slice('issuing '.length), server });
        });
        connection.query('set citus.log_remote_commands = on; set client_min_messages = log', (error) =>
          done(error ?? null, connection),
        );
      },
    },
  });
  try {
    const result = await work(session);
    return { result, commands };
  } finally {
    await session.destroy();
  }
}
