// Process entry: configuration, database (migrated; demo data into an empty embedded database),
// listen, and drain on SIGTERM.

import type { Server } from 'node:http';
import { getHeapStatistics } from 'node:v8';
import { appDepsOf, createApp } from './app.js';
import { loadConfigOrExit } from './cli/run.js';
import { isEmbedded } from './db/knex.js';
import { migrateLatest } from './db/migrate.js';
import { describeDatabase, openConfiguredReplica, openDatabase } from './db/open.js';
import { activeDemoKeys, databaseHoldsData, seedDemoData } from './fixtures/demo.js';
import { createLogger } from './kernel/logger.js';
import { flushTraces } from './kernel/tracing.js';
import { scheduleEventRetention } from './modules/events/retention.js';
import { scheduleIdempotencyKeyRetention } from './modules/payments/keyRetention.js';
import { startLockScheduler } from './modules/timeline/scheduler.js';
import { startDeliveryWorker } from './modules/webhooks/worker.js';
import { createHttpServer } from './ops/httpLimits.js';
import { deliveryMetrics, readMetrics } from './ops/metrics.js';
import { serviceLayers } from './serviceLayers.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);
const db = openDatabase(config, logger, { statementTimeoutMs: config.databaseStatementTimeoutMs });

await migrateLatest(db);
if (isEmbedded(db) && !config.production && !(await databaseHoldsData(db))) {
  await seedDemoData(db, { production: config.production });
  logger.info('demo data loaded into the new embedded database');
}

// DATABASE_REPLICA_URL: queries read a streaming replica while it is up and close enough behind.
const replica = openConfiguredReplica(config, db, {
  logger,
  statementTimeoutMs: config.databaseStatementTimeoutMs,
  onFallback: readMetrics.fellBack,
});

// The doors, and around them the service's layers: request log, operations, shared limits, GraphQL cost and tracing.
const deps = appDepsOf(config, { db, replica, logger });
const layers = serviceLayers(deps, { corsOrigins: config.corsOrigins, rateLimitStore: { redisUrl: config.redisUrl } });
const { app, subscriptions, startDraining, stop } = await createApp(deps, layers);
// Webhook deliveries, claimed from the database beside every other instance's worker.
const deliveries = startDeliveryWorker({
  db,
  logger,
  now: () => new Date(),
  production: config.production,
  allowedPorts: config.webhookAllowedPorts,
  settings: config.webhookDelivery,
  observe: deliveryMetrics,
});
// The lock timeline: due reminders and locks, claimed from the database beside every other instance's scheduler.
const lockScheduler = startLockScheduler({ db, logger });
// Events older than EVENT_RETENTION_DAYS are purged at start and every hour.
const retention = scheduleEventRetention(db, {
  days: config.eventRetentionDays,
  now: () => new Date(),
  onError: (error) => logger.error({ err: error }, 'purging expired events failed'),
});
// Idempotency-Key records past their 24 hours are purged at start and every hour, off the payments' path.
const keyRetention = scheduleIdempotencyKeyRetention(db, {
  now: () => new Date(),
  onError: (error) => logger.error({ err: error }, 'purging expired idempotency keys failed'),
});
// requestTimeout, headersTimeout below it, and keepAliveTimeout (src/ops/httpLimits.ts).
const server: Server = createHttpServer(app, config.requestTimeoutMs).listen(config.port, config.host);
await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
subscriptions.attach(server); // GraphQL subscriptions: WebSocket upgrades to /graphql

const address = server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const base = `http://localhost:${port}`;
const demoKeys = config.production ? [] : await activeDemoKeys(db);
process.stdout.write(
  [
    `device-financing service listening on ${config.host}:${port} (${describeDatabase(config)})`,
    `  start here:        ${base}/${config.production ? '  (API reference at /docs)' : 'graphiql  (also / and /docs)'}`,
    `  GraphQL:           ${base}/graphql${config.production ? '' : "  (Apollo Sandbox in a browser, from Apollo's CDN: needs internet)"}`,
    `  partner interface: ${base}/v1/list-clerks.php?key=...`,
    `  payments:          ${base}/payments/v1/token`,
    ...(demoKeys.length
      ? ['  demo keys:', ...demoKeys.map(({ key, kind, owner }) => `    ${key.padEnd(20)} ${kind} key of ${owner}`)]
      : []),
    '',
  ].join('\n'),
);

// The heap's ceiling is set where the process starts (npm start: --max-old-space-size=1024); the GraphQL
// backstop (pipeline/documentLimits/listItemCeiling.ts) answers 503 before an answer can reach it.
logger.info({ heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20) }, 'heap limit');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  // /readyz says "draining" first; after DRAIN_DELAY_MS (longer than the balancer's health-check
  // interval times its failure threshold) no balancer sends here any more, and the listener closes.
  startDraining();
  if (config.drainDelayMs > 0) {
    logger.info({ signal, drainDelayMs: config.drainDelayMs }, 'draining: /readyz answers 503, still serving');
    await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
  }
  logger.info({ signal }, 'draining: no new connections, finishing in-flight requests');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await subscriptions.close(); // WebSocket connections (1001 going away): the server's close waits for them
  await closed;
  await retention.stop();
  await keyRetention.stop();
  await lockScheduler.stop(); // the batch under way commits or rolls back; nothing more is claimed
  await stop();
  // Claims nothing more and records the posts under way (each ends within its timeout).
  await deliveries.stop();
  await replica?.stop();
  await db.destroy();
  await flushTraces(); // the spans still batched (tracing on: src/telemetry/preload.ts)
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
