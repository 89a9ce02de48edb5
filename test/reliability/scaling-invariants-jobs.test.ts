// What the background work sends, held to the rules a distributed Postgres needs (decisions.md 48): a
// statement that locks rows (FOR UPDATE, FOR SHARE, SKIP LOCKED) pins partner_id for every tenant table it
// touches, since Citus refuses to lock rows across shards. Each task of the worker role runs one batch
// here while its statements are captured, every task that locks given work first (a batch with nothing
// due sends no lock, and would pass unread): each finds the partners with work without a lock, then
// works one partner at a time (decisions.md 50). No task is left that locks across partners.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { reportRunsTask } from '../../src/jobs/tasks.js';
import { createReportRun } from '../../src/modules/reports/create.js';
import { useSeededService } from '../support/fixtures.js';
import { partnerScope } from '../support/partnerScope.js';
import { reportWorker } from '../support/reports.js';
import { readScopeTables } from '../support/shardCatalogue.js';
import { statementsDuring } from '../support/statements.js';
import { workerRoleTasks } from '../support/workerTasks.js';

const fixture = useSeededService({ now: new Date('2026-06-10T15:30:00Z') });
const db = (): Db => fixture.database.db;

const LOCKS_ROWS = /\bfor\s+(?:no\s+key\s+)?(?:update|share)\b/i;

/**
 * The tasks whose batch locks rows when it has work: each is given work below, so that its claim is sent
 * and read, not passed over for want of work (a batch with nothing due sends no lock).
 */
const LOCKING_TASKS = [
  'idempotency key retention',
  'unlock key sealing',
  'lock instants',
  'report runs',
  'webhook deliveries',
];

/** Work for every locking task: an expired key record, a key in clear, a report run, a webhook delivery due. */
async function giveEveryTaskWork(): Promise<void> {
  const now = new Date();
  await db()('idempotency_keys').insert({
    partner_id: '1',
    idempotency_key: 'jobs-expired',
    request_hash: 'x',
    response_status: 200,
    response_body: JSON.stringify({}),
    created_at: new Date(now.getTime() - 2 * 86_400_000),
    expires_at: new Date(now.getTime() - 86_400_000),
  });
  // A credential as a release before sealing left it: its unlock key in clear.
  const device = await db()('devices').where({ partner_id: '1' }).first('id');
  await db()('device_credentials').insert({
    partner_id: '1',
    device_id: device.id,
    key_hash: 'jobs-credential-hash',
    unlock_key: 'a'.repeat(64),
  });
  await createReportRun(
    db(),
    { type: 'AGEING', start: null, end: null, asOf: null, requestedBy: 'operator', apiKeyId: null, partnerId: '1' },
    now,
  );
  const created = await fixture.service.graphql(
    'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
    { 'x-api-key': 'demo-partner-key' },
    { input: { url: 'http://127.0.0.1:9/jobs', eventTypes: ['PAYMENT_RECORDED'] } },
  );
  expect(created.body.errors).toBeUndefined();
  // A test delivery is due at once (the fan-out's deliveries wait on the endpoint's and events' clocks).
  const sent = await fixture.service.graphql(
    'mutation($id: ID!) { sendTestWebhook(endpointId: $id) { id } }',
    { 'x-api-key': 'demo-partner-key' },
    { id: created.body.data.createWebhookEndpoint.endpoint.id },
  );
  expect(sent.body.errors).toBeUndefined();
}

/** Every locking statement of one batch of each background task that leaves a tenant table unpinned, by task. */
async function unpinnedLocks(): Promise<{ unpinned: Record<string, string[]>; locked: string[] }> {
  const scope = await readScopeTables(db());
  const reports = await reportWorker(db());
  try {
    const tasks = workerRoleTasks(db(), reports.deps.policies);
    const found: Record<string, string[]> = {};
    const locked: string[] = [];
    for (const task of tasks) {
      // A task that hands its batch on (the deliveries' posts) is drained within the capture: what it sends is its batch's.
      const { statements } = await statementsDuring(db(), async () => {
        await task.runBatch();
        await task.drain?.();
      });
      const locking = statements.filter((statement) => LOCKS_ROWS.test(statement.sql));
      if (locking.length) locked.push(task.name);
      const unpinned = locking.filter((statement) => partnerScope(statement.sql, scope).problems.length > 0);
      if (unpinned.length) found[task.name] = unpinned.map((statement) => statement.sql);
    }
    return { unpinned: found, locked };
  } finally {
    await reports.close();
  }
}

describe('the background work locks rows of one partner at a time', () => {
  it('no locking statement of any task leaves partner_id unpinned, each locking task given work so that its claim is sent', async () => {
    await giveEveryTaskWork();
    const { unpinned, locked } = await unpinnedLocks();
    expect(locked.sort()).toEqual([...LOCKING_TASKS].sort());
    expect(unpinned).toEqual({});
  });

  it("the report runs' claim is heard and pins the partner (the capture reads what the tasks send)", async () => {
    const scope = await readScopeTables(db());
    const ageing = {
      type: 'AGEING',
      start: null,
      end: null,
      asOf: null,
      requestedBy: 'operator',
      apiKeyId: null,
    } as const;
    await createReportRun(db(), { ...ageing, partnerId: '1' }, new Date('2026-06-10T15:30:00Z'));
    const reports = await reportWorker(db());
    try {
      const { result, statements } = await statementsDuring(db(), () => reportRunsTask(reports.deps).runBatch());
      expect(result).toBe(1);
      const locking = statements.filter((statement) => LOCKS_ROWS.test(statement.sql));
      // The claim, then the run's end, each locking one partner's rows.
      expect(locking.length).toBeGreaterThanOrEqual(2);
      expect(locking.filter((statement) => partnerScope(statement.sql, scope).problems.length > 0)).toEqual([]);
    } finally {
      await reports.close();
    }
  });

  it('the check fails on a lock that drops the partner (proof it can fail)', async () => {
    const scope = await readScopeTables(db());
    const pinned = 'select * from payments where partner_id = $1 and id = $2 for update';
    const unpinned = 'select * from payments where id = $1 for update skip locked';
    expect(LOCKS_ROWS.test(pinned) && partnerScope(pinned, scope).problems).toEqual([]);
    expect(LOCKS_ROWS.test(unpinned)).toBe(true);
    expect(partnerScope(unpinned, scope).problems).toEqual(['payments is not pinned by partner_id']);
  });
});
