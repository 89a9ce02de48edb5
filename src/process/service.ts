// What one process starts for its role (decisions.md 27): the listener first (its port), the database, its
// schema checked (production) or migrated (elsewhere), the front it serves (the doors, or a worker's three
// endpoints), and the background jobs; and the steps that stop them again, in order.
import type { RequestListener, Server } from 'node:http';
import type { Logger } from 'pino';
import { appDepsOf, createApp } from '../app.js';
import { citusInstalled } from '../db/distribution.js';
import { type Db, isEmbedded } from '../db/knex.js';
import { migrateLatest, schemaDrift } from '../db/migrate.js';
import { openConfiguredReplica, openDatabase } from '../db/open.js';
import type { ReadReplica } from '../db/replica.js';
import { databaseHoldsData, seedDemoData } from '../fixtures/demo.js';
import { type JobLoop, startJobLoop } from '../jobs/loop.js';
import { serviceTasks } from '../jobs/tasks.js';
import type { Config } from '../kernel/config.js';
import { flushTraces } from '../kernel/tracing.js';
import { listenToCommittedEvents, logPublicationFailures } from '../modules/events/log.js';
import { startPartnerPolicies } from '../modules/partners/policies.js';
import { type UnlockKeySealer, unlockKeySealer } from '../modules/unlockCodes/sealing.js';
import { listedKeysThatDoNotOpen, sealsUnderUnlistedKeys } from '../modules/unlockCodes/storedKeys.js';
import { deliveryMetrics, eventMetrics, readMetrics } from '../ops/metrics.js';
import { serviceLayers } from '../serviceLayers.js';
import { announcePreparing } from './announce.js';
import { listenFirst } from './listener.js';
import type { ShutdownStep } from './shutdown.js';
import { StartupFailure } from './startupFailure.js';
import { createWorkerApp } from './workerApp.js';

/** A background job of the worker role, by the name the logs give it. */
interface Job {
  name: string;
  /** The tasks it runs, as the role's line names them. */
  tasks: string[];
  stop: () => Promise<void>;
}

/** What the process serves: the doors (api, all) or the worker's endpoints. */
interface Front {
  app: RequestListener;
  startDraining: () => void;
  /** After listening: the WebSocket door takes its upgrades from the server. */
  attach?: (server: Server) => void;
  /** Before the listener's close can finish: the WebSocket connections it would wait for. */
  closeConnections?: () => Promise<void>;
  stop?: () => Promise<void>;
}

export interface StartedService {
  db: Db;
  port: number;
  /** /readyz answers 503 "draining" from now on. */
  startDraining: () => void;
  /** The steps of the shutdown after the drain delay, in order (src/process/shutdown.ts runs them). */
  shutdownSteps: () => ShutdownStep[];
}

const listMigrations = (names: readonly string[]) =>
  names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;

/**
 * Production only checks: the release step (npm run db:migrate) migrates, never a starting instance.
 * Elsewhere pending migrations are applied, and an empty embedded database gets the demo data set. A
 * schema ahead of this build (a newer release migrated it) is refused everywhere.
 */
async function prepareSchema(db: Db, config: Config, logger: Logger): Promise<void> {
  const drift = await schemaDrift(db);
  if (drift.ahead.length > 0) {
    throw new StartupFailure(
      `the database schema is ahead of this release: ${drift.ahead.length} migration(s) it does not know were applied (${listMigrations(drift.ahead)})`,
      'start the release that applied them, or roll them back with that release (npm run db:rollback)',
    );
  }
  if (config.production) {
    if (drift.behind.length > 0) {
      throw new StartupFailure(
        `the database schema is behind this release: ${drift.behind.length} migration(s) pending (${listMigrations(drift.behind)})`,
        'run npm run db:migrate (the release step) before starting',
      );
    }
    return;
  }
  // A new embedded database (nothing applied yet) gets the demo data once migrated; one that was emptied is
  // known only after the migrations, and is said then.
  const seedAhead = isEmbedded(db) && drift.applied === 0;
  if (drift.behind.length > 0)
    announcePreparing(config, logger, { migrations: drift.behind.length, demoData: seedAhead });
  await migrateLatest(db);
  if (isEmbedded(db) && !(await databaseHoldsData(db))) {
    if (!seedAhead) announcePreparing(config, logger, { migrations: 0, demoData: true });
    await seedDemoData(db, { production: config.production });
    logger.info('demo data loaded into the new embedded database');
  }
}

/**
 * A stored unlock key sealed under a key the configuration no longer lists, or lists with another
 * secret, would fail the payments on its device: the start refuses instead, naming the key (decisions.md 35).
 */
async function checkUnlockSealingKeys(db: Db, unlockKeys: UnlockKeySealer): Promise<void> {
  const unlisted = await sealsUnderUnlistedKeys(db, unlockKeys);
  if (unlisted.length > 0) {
    const named = unlisted.map(({ keyId, count }) => `"${keyId}" (${count})`).join(', ');
    throw new StartupFailure(
      `stored unlock keys are sealed under key(s) DEVICE_UNLOCK_SEALING_KEYS does not list: ${named}`,
      'list those keys again (after the first) until npm run keys -- seal-unlock-keys has resealed them',
    );
  }
  const unopened = await listedKeysThatDoNotOpen(db, unlockKeys);
  if (unopened.length > 0) {
    throw new StartupFailure(
      `the key(s) ${unopened.map((id) => `"${id}"`).join(', ')} of DEVICE_UNLOCK_SEALING_KEYS do not open the unlock keys stored under their id`,
      'give each id the key that sealed them (another key needs another id)',
    );
  }
}

async function apiFront(config: Config, db: Db, replica: ReadReplica | undefined, logger: Logger): Promise<Front> {
  // The doors, and around them the service's layers: request log, operations, shared limits, GraphQL cost and tracing.
  const deps = appDepsOf(config, { db, replica, logger, distributed: await citusInstalled(db) });
  const layers = serviceLayers(deps, {
    corsOrigins: config.corsOrigins,
    rateLimitStore: { redisUrl: config.redisUrl, redisReserve: config.redisReserve },
  });
  const { app, subscriptions, startDraining, stop } = await createApp(deps, layers);
  return {
    app,
    startDraining,
    attach: (server) => subscriptions.attach(server), // GraphQL subscriptions: WebSocket upgrades to /graphql
    // WebSocket connections (1001 going away): the server's close waits for them.
    closeConnections: () => subscriptions.close(),
    stop,
  };
}

/**
 * The worker role's background work: one job loop running the list of tasks (src/jobs/tasks.ts), and
 * the partners' clocks and settings it reads (report runs' events are at the partner's time).
 */
async function startJobs(config: Config, db: Db, logger: Logger, unlockKeys: UnlockKeySealer): Promise<Job[]> {
  const policies = await startPartnerPolicies(db, { realNow: () => new Date(), production: config.production, logger });
  let loop: JobLoop | undefined;
  const tasks = serviceTasks(
    {
      db,
      logger,
      now: () => new Date(),
      production: config.production,
      eventRetentionDays: config.eventRetentionDays,
      portfolioBackfillDays: config.portfolioBackfillDays,
      reports: {
        policies: policies.policies,
        perPartner: config.reportRunsPerPartner,
        retentionDays: config.reportRetentionDays,
      },
      unlockKeys,
      deliveries: {
        production: config.production,
        allowedPorts: config.webhookAllowedPorts,
        settings: config.webhookDelivery,
        observe: deliveryMetrics,
      },
    },
    (name) => loop?.wake(name),
  );
  loop = startJobLoop({ db, logger, tasks });
  // Claims nothing more; the batches under way commit or roll back, the posts under way are recorded.
  const stop = async () => {
    await loop.stop();
    await policies.close();
  };
  return [{ name: 'the job loop', tasks: tasks.map((task) => task.name), stop }];
}

export async function startService(config: Config, logger: Logger): Promise<StartedService> {
  // Knex warns of each failed connection attempt, with the driver's stack; at start such a failure is
  // the start's own, said once by its one line (startupFailure.ts). Its warnings are heard once started.
  const databaseLogger = logger.child({});
  databaseLogger.level = 'error';
  // The port before the database: a port in use fails the start before anything is opened or migrated.
  const listener = await listenFirst(config);
  const db = openDatabase(config, databaseLogger, { statementTimeoutMs: config.databaseStatementTimeoutMs });
  const unlockKeys = unlockKeySealer(config.unlockSealingKeys);
  try {
    await prepareSchema(db, config, logger);
    await checkUnlockSealingKeys(db, unlockKeys);
  } catch (error) {
    // Refused before anything started: the database (and an embedded folder's lock) is let go at once.
    await db.destroy().catch(() => undefined);
    throw error;
  }
  databaseLogger.level = logger.level;
  // Every role writes events (the worker: the lock timeline's); the log publishes them, the metrics count them.
  listenToCommittedEvents(db, eventMetrics);
  logPublicationFailures(db, logger);
  // DATABASE_REPLICA_URL: queries read a streaming replica while it is up and close enough behind.
  const replica = openConfiguredReplica(config, db, {
    logger,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    onFallback: readMetrics.fellBack,
  });
  const front: Front =
    config.role === 'worker'
      ? createWorkerApp({ db, replica, logger, production: config.production })
      : await apiFront(config, db, replica, logger);
  const { server } = listener;
  listener.serve(front);
  // Started once the port is ours: a start that fails to listen has claimed no work.
  const jobs = config.role === 'api' ? [] : await startJobs(config, db, logger, unlockKeys);
  logger.info({ role: config.role, jobs: jobs.flatMap((job) => job.tasks) }, 'role');

  return {
    db,
    port: listener.port,
    startDraining: front.startDraining,
    shutdownSteps: () => [
      {
        name: 'the listener: requests in flight',
        run: async () => {
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          await front.closeConnections?.();
          await closed;
        },
      },
      ...jobs.map((job) => ({ name: job.name, run: job.stop })),
      { name: 'the doors (GraphQL, subscriptions, partner settings)', run: async () => front.stop?.() },
      { name: 'the read replica', run: async () => replica?.stop() },
      { name: 'the database pool', run: () => db.destroy() },
      // The spans still batched (tracing on: src/telemetry/preload.ts).
      { name: 'the traces still batched', run: flushTraces },
    ],
  };
}
