// What the background work sends, held to the rules a distributed Postgres needs (decisions.md 48): a
// statement that locks rows (FOR UPDATE, FOR SHARE, SKIP LOCKED) pins partner_id for every tenant table it
// touches, since Citus refuses to lock rows across shards. Each background task runs one batch here while
// its statements are captured; the claims that still take work across partners are named below, so that
// a new one fails the test and the list only shrinks (each goes with the per-partner claims of the issue
// that puts the background work on Citus).
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { lockInstantsTask, reportRunsTask, webhookTasks } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { useSeededService } from '../support/fixtures.js';
import { partnerScope } from '../support/partnerScope.js';
import { reportWorker } from '../support/reports.js';
import { hasPartnerId, readCatalogue, tenantTables } from '../support/shardCatalogue.js';
import { statementsDuring } from '../support/statements.js';

const fixture = useSeededService({ now: new Date('2026-06-10T15:30:00Z') });
const db = (): Db => fixture.database.db;

/** The tasks' claims that lock rows of every partner at once: each to become per-partner (decisions.md 48). */
const CLAIMS_ACROSS_PARTNERS = ['lock instants', 'report runs', 'webhook deliveries'];

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
    const logger = createLogger('silent');
    const tasks = [
      lockInstantsTask(db()),
      reportRunsTask(reports.deps),
      ...webhookTasks({ db: db(), logger, now: () => new Date(), production: false }, () => undefined),
    ];
    const found: Record<string, string[]> = {};
    for (const task of tasks) {
      const { statements } = await statementsDuring(db(), () => task.runBatch());
      const locking = statements.filter((statement) => LOCKS_ROWS.test(statement.sql));
      const unpinned = locking.filter((statement) => partnerScope(statement.sql, scope).problems.length > 0);
      if (unpinned.length) found[task.name] = unpinned.map((statement) => statement.sql);
    }
    return found;
  } finally {
    await reports.close();
  }
}

describe('the background work locks rows of one partner at a time', () => {
  it('no locking statement without partner_id pinned, but the claims named as still across partners', async () => {
    const found = await unpinnedLocks();
    expect(Object.keys(found).filter((task) => !CLAIMS_ACROSS_PARTNERS.includes(task))).toEqual([]);
    // The claims sent on the database's own pool were seen: the capture reads what the tasks send. (On
    // Postgres the deliveries' worker claims on connections of its own, which the capture does not hear;
    // on PGlite, one connection, it does.)
    expect(Object.keys(found)).toEqual(expect.arrayContaining(['lock instants', 'report runs']));
    // Each is the task's claim, one statement: nothing else of the batch locks across partners.
    for (const statements of Object.values(found)) expect(statements).toHaveLength(1);
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
