// The worker role's tasks (src/jobs/tasks.ts serviceTasks) as the suites run them, one batch at a time:
// a silent logger, real time, the partners' policies of a report worker (reports.ts reportWorker), the
// delivery worker sharing the pool.
import type { Db } from '../../src/db/knex.js';
import type { JobTask } from '../../src/jobs/loop.js';
import { serviceTasks } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import type { ReportWorkerDeps } from '../../src/modules/reports/run.js';
import { TEST_UNLOCK_KEYS } from './unlockKeys.js';

export function workerRoleTasks(db: Db, policies: ReportWorkerDeps['policies']): JobTask[] {
  return serviceTasks(
    {
      db,
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      eventRetentionDays: 400,
      portfolioBackfillDays: 30,
      reports: { policies, perPartner: 2, retentionDays: 30 },
      unlockKeys: TEST_UNLOCK_KEYS,
      // The delivery worker on the pool it is given, not on connections of its own: what it sends is heard
      // on `db`'s query events, as every other task's is.
      deliveries: { production: false, settings: { databaseConnections: 0 } },
    },
    () => undefined,
  );
}
