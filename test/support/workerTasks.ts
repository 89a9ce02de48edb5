// The worker role's tasks (src/jobs/tasks.ts serviceTasks) as the suites run them, one batch at a time:
// a silent logger, real time, the partners' policies of a report worker (reports.ts reportWorker).
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
      deliveries: { production: false },
    },
    () => undefined,
  );
}
