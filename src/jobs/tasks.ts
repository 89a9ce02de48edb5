// The tasks of the job loop (loop.ts): each a small adapter from a domain module's batch to the loop's
// terms (its batch size, what wakes it, how often it is looked at). The work itself, its claim and its
// lease live in the module: the fan-out's and the deliveries' in webhooks/, the lock instants' in
// timeline/, the retentions' in events/ and payments/, the months ahead in db/partitions.ts, the
// book's daily snapshots in book/snapshots.ts.
import type { Logger } from 'pino';
import type { Db } from '../db/knex.js';
import { ensureMonthsAhead } from '../db/partitions.js';
import { writeDueSnapshots } from '../modules/book/snapshots.js';
import { DELIVERIES_DUE_PREFIX, REVOKED_KEY_PREFIX } from '../modules/events/publish.js';
import { purgeExpiredEvents } from '../modules/events/retention.js';
import { purgeExpiredIdempotencyKeys } from '../modules/payments/keyRetention.js';
import { REPORT_RUN_WAITING_PREFIX } from '../modules/reports/create.js';
import { deleteExpiredFiles } from '../modules/reports/queries.js';
import { type ReportWorkerDeps, runNextReport } from '../modules/reports/run.js';
import { fireDueInstantsOfEachPartner } from '../modules/timeline/claim.js';
import { LOCK_INSTANTS_DUE_PREFIX } from '../modules/timeline/schedule.js';
import { DEFAULT_LOCK_BATCH } from '../modules/timeline/scheduler.js';
import type { UnlockKeySealer } from '../modules/unlockCodes/sealing.js';
import { sealStoredUnlockKeys } from '../modules/unlockCodes/storedKeys.js';
import { fanOutCommittedEvents } from '../modules/webhooks/fanOut.js';
import {
  createDeliveryWorker,
  DEFAULT_DELIVERY_SETTINGS,
  type DeliveryWorkerDeps,
} from '../modules/webhooks/worker.js';
import { type JobLoop, type JobTask, startJobLoop } from './loop.js';

const HOUR = 3_600_000;
/** The days of snapshots one batch writes: catching up, the loop runs it again at once. */
export const SNAPSHOT_BATCH_DAYS = 50;

/**
 * An event's message on the log's channel ("partner_id:id"; publish.ts), not a revocation, deliveries
 * due, a report run waiting nor lock instants brought forward.
 */
const isEventMessage = (message: string) =>
  !message.startsWith(REVOKED_KEY_PREFIX) &&
  !message.startsWith(DELIVERIES_DUE_PREFIX) &&
  !message.startsWith(REPORT_RUN_WAITING_PREFIX) &&
  !message.startsWith(LOCK_INSTANTS_DUE_PREFIX);

/**
 * The webhook tasks, on the delivery worker's own connections (off the requests' queue): the fan-out of
 * committed events to their deliveries (webhooks/fanOut.ts), woken by each event's publication, and the
 * deliveries posted (webhooks/worker.ts), woken by the fan-out's and the tools' "deliveries due".
 * `wakeDeliveries` asks the loop to claim again: a post was answered, its endpoint's slot free.
 */
export function webhookTasks(deps: DeliveryWorkerDeps, wakeDeliveries: () => void): JobTask[] {
  const worker = createDeliveryWorker(deps, wakeDeliveries);
  const pollMs = deps.settings?.pollMs ?? DEFAULT_DELIVERY_SETTINGS.pollMs;
  const fanOutBatch = deps.settings?.fanOutBatch ?? DEFAULT_DELIVERY_SETTINGS.fanOutBatch;
  return [
    {
      name: 'webhook fan-out',
      batchSize: fanOutBatch,
      pollMs,
      wakesOn: isEventMessage,
      // Another instance's relay under way: this one takes nothing (0), and that one tells the workers.
      runBatch: async () => (await fanOutCommittedEvents(worker.connections, fanOutBatch)).events,
    },
    {
      name: 'webhook deliveries',
      // Its claims are bounded by its room; a claim that filled it runs again once a slot frees (wake).
      batchSize: Number.POSITIVE_INFINITY,
      pollMs,
      wakesOn: (message) => {
        if (!message.startsWith(DELIVERIES_DUE_PREFIX)) return false;
        worker.heard(message);
        return true;
      },
      runBatch: () => worker.claimDue(),
      drain: () => worker.drain(),
    },
  ];
}

/**
 * The lock timeline's due instants (reminders, locks, payoffs' releases) fired (timeline/claim.ts), a
 * batch per partner and transaction; polled every second.
 */
export function lockInstantsTask(db: Db, options: { batchSize?: number; pollMs?: number } = {}): JobTask {
  const batchSize = options.batchSize ?? DEFAULT_LOCK_BATCH;
  return {
    name: 'lock instants',
    batchSize,
    pollMs: options.pollMs ?? 1000,
    // A sandbox clock moved forward may make instants due at once (partnerPolicy/changes.ts).
    wakesOn: (message) => message.startsWith(LOCK_INSTANTS_DUE_PREFIX),
    runBatch: () => fireDueInstantsOfEachPartner(db, new Date(), batchSize),
  };
}

/**
 * Report runs (reports/run.ts): one run claimed and written to its end per batch, the next claimed at
 * once; woken when a run is asked for (create.ts), polled every second for runs left waiting behind a
 * partner's bound or a lapsed lease.
 */
export function reportRunsTask(deps: ReportWorkerDeps, options: { pollMs?: number } = {}): JobTask {
  // At stop the run under way is put back for another worker, not written to its end (run.ts).
  const stopping = new AbortController();
  return {
    name: 'report runs',
    batchSize: 1,
    pollMs: options.pollMs ?? 1000,
    wakesOn: (message) => message.startsWith(REPORT_RUN_WAITING_PREFIX),
    runBatch: () => runNextReport({ ...deps, signal: stopping.signal }),
    abort: () => stopping.abort(),
  };
}

/** An hourly chore (at start, then every hour), yielding to requests: it can come a little later. */
const hourly = (name: string, run: () => Promise<unknown>): JobTask => ({
  name,
  batchSize: Number.POSITIVE_INFINITY,
  pollMs: HOUR,
  yieldsToRequests: true,
  runBatch: async () => {
    await run();
    return 0;
  },
});

/**
 * The book's daily snapshots (book/snapshots.ts): each partner's days whose 00:00 UTC has passed by its
 * clock, made once across instances; looked at every 10 seconds (one small statement when nothing is due:
 * a day, or a sandbox clock moved, is made at most 10 s late), yielding to requests. Each partner's days written are logged, one line.
 */
/** How often the snapshots' task looks when nothing is due. */
const SNAPSHOT_POLL_MS = 10_000;

export function portfolioSnapshotsTask(
  db: Db,
  logger: Pick<Logger, 'info'>,
  options: { now: () => Date; production: boolean; backfillDays: number; batchDays?: number },
): JobTask {
  const batchDays = options.batchDays ?? SNAPSHOT_BATCH_DAYS;
  return {
    name: 'portfolio snapshots',
    batchSize: batchDays,
    pollMs: SNAPSHOT_POLL_MS,
    yieldsToRequests: true,
    runBatch: async () => {
      const written = await writeDueSnapshots(db, {
        now: options.now(),
        production: options.production,
        backfillDays: options.backfillDays,
        maxDays: batchDays,
      });
      for (const partner of written) logger.info(partner, 'portfolio snapshots written');
      return written.reduce((days, partner) => days + partner.days, 0);
    },
  };
}

export interface ServiceTaskDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
  production: boolean;
  eventRetentionDays: number;
  portfolioBackfillDays: number;
  /** The report runs' worker (its db, logger and real clock are the service's). */
  reports: Omit<ReportWorkerDeps, 'db' | 'logger' | 'now'>;
  unlockKeys: UnlockKeySealer;
  deliveries: Omit<DeliveryWorkerDeps, 'db' | 'logger' | 'now'>;
}

/** The worker role's tasks, in the order they stop (service.ts starts them on one loop). */
export function serviceTasks(deps: ServiceTaskDeps, wake: (name: string) => void): JobTask[] {
  const { db, logger, now } = deps;
  return [
    // The months ahead of the ledger and the log made before anything expires.
    hourly('partitions upkeep', () => ensureMonthsAhead(db, now())),
    hourly('event retention', () => purgeExpiredEvents(db, now(), deps.eventRetentionDays)),
    // Idempotency-Key records past their 24 hours, off the payments' path.
    hourly('idempotency key retention', () => purgeExpiredIdempotencyKeys(db, now())),
    // Unlock keys still in clear (or sealed under a key but the first) sealed under the first.
    hourly('unlock key sealing', async () => {
      const run = await sealStoredUnlockKeys(db, deps.unlockKeys);
      if (run.sealed + run.resealed > 0)
        logger.info({ ...run, sealingKeyId: deps.unlockKeys.sealingKeyId }, 'unlock keys sealed');
    }),
    // The files of report runs past REPORT_RETENTION_DAYS deleted; the runs stay (decisions.md 45).
    hourly('report file retention', () => deleteExpiredFiles(db, now())),
    lockInstantsTask(db),
    portfolioSnapshotsTask(db, logger, { now, production: deps.production, backfillDays: deps.portfolioBackfillDays }),
    reportRunsTask({ ...deps.reports, db, logger, now }),
    ...webhookTasks({ ...deps.deliveries, db, logger, now }, () => wake('webhook deliveries')),
  ];
}

/** The webhook tasks alone on a loop of their own: the fan-out and the deliveries (suites, the bench). */
export function startWebhookJobs(deps: DeliveryWorkerDeps): JobLoop {
  let loop: JobLoop | undefined;
  const tasks = webhookTasks(deps, () => loop?.wake('webhook deliveries'));
  loop = startJobLoop({ db: deps.db, logger: deps.logger, tasks });
  return loop;
}
