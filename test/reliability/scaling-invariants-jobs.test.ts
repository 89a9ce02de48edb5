// What the background work sends, held to the rules a distributed Postgres needs (decisions.md 48): a
// statement that locks rows (FOR UPDATE, FOR SHARE, SKIP LOCKED) pins partner_id for every tenant table it
// touches, since Citus refuses to lock rows across shards. Each task of the worker role runs one batch
// here while its statements are captured: each finds the partners with work without a lock, then works
// one partner at a time (decisions.md 50). No task is left that locks across partners.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { reportRunsTask } from '../../src/jobs/tasks.js';
import { createReportRun } from '../../src/modules/reports/create.js';
import { useSeededService } from '../support/fixtures.js';
import { partnerScope } from '../support/partnerScope.js';
import { reportWorker } from '../support/reports.js';
import { hasPartnerId, readCatalogue, tenantTables } from '../support/shardCatalogue.js';
import { statementsDuring } from '../support/statements.js';
import { workerRoleTasks } from '../support/workerTasks.js';

const fixture = useSeededService({ now: new Date('2026-06-10T15:30:00Z') });
const db = (): Db => fixture.database.db;

const LOCKS_ROWS = /\bfor\s+(?:no\s+key\s+)?(?:update|share)\b/i;

/** Every locking statement of one batch of each background task that leaves a tenant table unpinned, by task. */
async function unpinnedLocks(): Promise<Record<string, string[]>> {
  const catalogue = await readCatalogue(db());
  const scope = {
    tables: new Set(catalogue.tables.keys()),
    tenant: tenantTables(catalogue),
    withPartnerId: new Set([...catalogue.tables.keys()].filter((table) => hasPartnerId(catalogue, table))),
  };
  const reports = await reportWorker(db());
  try {
    const tasks = workerRoleTasks(db(), reports.deps.policies);
    const found: Record<string, string[]> = {};
    for (const task of tasks) {
      const { statements } = await statementsDuring(db(), () => task.runBatch());
      const locking = statements.filter((statement) => LOCKS_ROWS.test(statement.sql));
      const unpinned = locking.filter((statement) => partnerScope(statement.sql, scope).problems.length > 0);
      if (unpinned.length) found[task.name] = unpinned.map((statement) => statement.sql);
    }
    for (const task of tasks) await task.drain?.();
    return found;
  } finally {
    await reports.close();
  }
}

describe('the background work locks rows of one partner at a time', () => {
  it('no locking statement of any task leaves partner_id unpinned', async () => {
    expect(await unpinnedLocks()).toEqual({});
  });

  it("the report runs' claim is heard and pins the partner (the capture reads what the tasks send)", async () => {
    const catalogue = await readCatalogue(db());
    const scope = {
      tables: new Set(catalogue.tables.keys()),
      tenant: tenantTables(catalogue),
      withPartnerId: new Set([...catalogue.tables.keys()].filter((table) => hasPartnerId(catalogue, table))),
    };
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
    const catalogue = await readCatalogue(db());
    const scope = {
      tables: new Set(catalogue.tables.keys()),
      tenant: tenantTables(catalogue),
      withPartnerId: new Set([...catalogue.tables.keys()].filter((table) => hasPartnerId(catalogue, table))),
    };
    const pinned = 'select * from payments where partner_id = $1 and id = $2 for update';
    const unpinned = 'select * from payments where id = $1 for update skip locked';
    expect(LOCKS_ROWS.test(pinned) && partnerScope(pinned, scope).problems).toEqual([]);
    expect(LOCKS_ROWS.test(unpinned)).toBe(true);
    expect(partnerScope(unpinned, scope).problems).toEqual(['payments is not pinned by partner_id']);
  });
});
