// Prometheus metrics: one registry per process, created when this module loads, so the several apps a
// test process builds share it and no metric is ever registered twice. Labels are route templates and
// error codes, never raw URLs or query strings (the partner key travels in the query string).
import type { Request, RequestHandler, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/knex.js';
import { poolCounts } from '../db/poolCounts.js';
import type { ReadReplica } from '../db/replica.js';
import type { SubscriptionObserver } from '../http/subscriptions.js';
import type { CommittedEventsListener } from '../modules/events/log.js';
import type { PaymentObserver } from '../modules/payments/observe.js';
import { queueDepth } from '../modules/webhooks/queue.js';
import type { DeliveryObserver } from '../modules/webhooks/worker.js';
import type { RateLimitStoreObserver } from '../pipeline/rateLimits/storeGuard.js';
import type { ReadRoutingObserver } from '../pipeline/readRouting.js';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from receiving a request to finishing its response, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metricsRegistry],
});

const paymentsRecorded = new Counter({
  name: 'payments_recorded_total',
  help: 'Payments recorded (new payments only; replays are counted in payments_replayed_total), by channel.',
  labelNames: ['channel'] as const,
  registers: [metricsRegistry],
});

const paymentsReplayed = new Counter({
  name: 'payments_replayed_total',
  help: 'Repeated payment requests answered with the first answer and nothing recorded (same idempotency key or vendor reference), by channel.',
  labelNames: ['channel'] as const,
  registers: [metricsRegistry],
});

const paymentsRefused = new Counter({
  name: 'payments_refused_total',
  help: 'Payment requests refused by an authenticated caller, by error code; nothing was recorded.',
  labelNames: ['code'] as const,
  registers: [metricsRegistry],
});

const eventsWritten = new Counter({
  name: 'events_written_total',
  help: 'Events written to the event log (committed with their change), by type.',
  labelNames: ['type'] as const,
  registers: [metricsRegistry],
});

const dbPoolConnections = new Gauge({
  name: 'db_pool_connections',
  help: 'Connections of the database pool at scrape time: used, free, and acquisitions waiting (pending). The embedded database has a pool of one.',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});

const replicaUp = new Gauge({
  name: 'db_replica_up',
  help: 'The read replica (DATABASE_REPLICA_URL) at scrape time: 1 when it serves reads, 0 when down or lagging past DATABASE_REPLICA_MAX_LAG_SECONDS (reads go to the primary). Absent without a replica.',
  registers: [metricsRegistry],
});

const replicaLag = new Gauge({
  name: 'db_replica_lag_seconds',
  help: 'How far the read replica is behind the primary at scrape time, in seconds (0 caught up; -1 down).',
  registers: [metricsRegistry],
});

const readsByTarget = new Counter({
  name: 'db_reads_total',
  help: 'GraphQL query operations (both doors) with a read replica configured, by the database they read: replica or primary.',
  labelNames: ['target'] as const,
  registers: [metricsRegistry],
});

const replicaFallbacks = new Counter({
  name: 'db_replica_fallbacks_total',
  help: 'Statements the read replica failed under (connection lost, refused, recovery conflict) and the primary ran instead.',
  registers: [metricsRegistry],
});

/** Counts where queries read and what fell back: the read-routing plugin's port and the replica's, installed by createApp and main.ts. */
export const readMetrics: ReadRoutingObserver & { fellBack: () => void } = {
  read: (target) => readsByTarget.inc({ target }),
  fellBack: () => replicaFallbacks.inc(),
};

/** Open GraphQL subscriptions on this instance (the WebSocket door moves it). */
const openSubscriptions = new Gauge({
  name: 'graphql_subscriptions_open',
  help: 'GraphQL subscriptions open on this instance (WebSocket, graphql-ws).',
  registers: [metricsRegistry],
});

const openWebSockets = new Gauge({
  name: 'websocket_connections_open',
  help: 'WebSocket connections open on this instance (/graphql, graphql-ws), authenticated or not.',
  registers: [metricsRegistry],
});

const refusedWebSockets = new Counter({
  name: 'websocket_connections_refused_total',
  help: 'WebSocket upgrades (HTTP 429, 503) and connection_inits (4403, 4429, 1013) refused, by reason: address_rate, unauthenticated_sockets, connections_per_key, credential, revoked, blocked_address, unavailable.',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

const closedWebSockets = new Counter({
  name: 'websocket_connections_closed_total',
  help: 'WebSocket connections closed, by reason: what the door decided (message_rate, revoked, expired, no_longer_valid, feed_lost, shutdown, refused, internal_error) or what the close code says (client, slow_subscriber, feed_interrupted, frame_too_large, invalid_frame, protocol, other).',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

/** The WebSocket door's port (its `observe`), installed by createApp: subscriptions and connections. */
export const webSocketMetrics: SubscriptionObserver = {
  opened: () => openSubscriptions.inc(),
  closed: () => openSubscriptions.dec(),
  connectionOpened: () => openWebSockets.inc(),
  connectionClosed: (reason) => {
    openWebSockets.dec();
    closedWebSockets.inc({ reason });
  },
  refused: (reason) => refusedWebSockets.inc({ reason }),
};

const webhookAttempts = new Counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome: delivered (2xx), http_error (another status), no_answer (timeout, refused, address not allowed).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

const webhookLag = new Histogram({
  name: 'webhook_delivery_lag_seconds',
  help: 'From an event written (its delivery enqueued) to the 2xx that delivered it.',
  buckets: [0.1, 0.5, 1, 5, 30, 120, 600, 3600, 6 * 3600, 24 * 3600, 3 * 24 * 3600],
  registers: [metricsRegistry],
});

const webhookQueue = new Gauge({
  name: 'webhook_deliveries_pending',
  help: 'Webhook deliveries not yet delivered or failed, at scrape time: all pending, and those due now (due).',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});

const rateLimitStoreFailovers = new Counter({
  name: 'rate_limit_store_failovers_total',
  help: 'Times the shared rate-limit store (postgres or redis) failed and the in-memory insurance limiter took over, by store.',
  labelNames: ['store'] as const,
  registers: [metricsRegistry],
});

const rateLimitInsuranceDecisions = new Counter({
  name: 'rate_limit_insurance_decisions_total',
  help: "Request-limit checks (an address's failures, a key's or an address's requests) answered by this instance's in-memory insurance limiter while the shared store failed, by store.",
  labelNames: ['store'] as const,
  registers: [metricsRegistry],
});

const rateLimitStoreOnInsurance = new Gauge({
  name: 'rate_limit_store_on_insurance',
  help: 'Apps of this process whose request limits are on the in-memory insurance limiter now (0: shared or memory), by store.',
  labelNames: ['store'] as const,
  registers: [metricsRegistry],
});

/** Counts the shared rate-limit store's failovers and recoveries: the limiter's port, installed by createApp. */
export const rateLimitStoreMetrics: RateLimitStoreObserver = {
  failedOver: (store) => {
    rateLimitStoreFailovers.inc({ store });
    rateLimitStoreOnInsurance.inc({ store });
  },
  recovered: (store) => rateLimitStoreOnInsurance.dec({ store }),
  insuranceDecision: (store) => rateLimitInsuranceDecisions.inc({ store }),
};

/** Counts delivery attempts and lag: the delivery worker's port, installed by main.ts. */
export const deliveryMetrics: DeliveryObserver = {
  attempted: (outcome) => webhookAttempts.inc({ outcome }),
  delivered: (lagSeconds) => webhookLag.observe(lagSeconds),
};

/** Counts the event log's committed events by type: one listener of the log (events/log.ts), installed by the roles. */
export const eventMetrics: CommittedEventsListener = {
  eventsCommitted: (events) => {
    for (const event of events) eventsWritten.inc({ type: event.type });
  },
};

/** Counts what became of each payment request: the context's port (ctx.observe), installed by createApp. */
export const paymentMetrics: PaymentObserver = {
  paymentRecorded: (channel) => paymentsRecorded.inc({ channel }),
  paymentReplayed: (channel) => paymentsReplayed.inc({ channel }),
  paymentRefused: (code) => paymentsRefused.inc({ code }),
};

/** One (route, method, status)'s count and durations: prom-client's children, resolved once and kept. */
interface RequestSeries {
  readonly answered: { inc(): void };
  readonly duration: { observe(seconds: number): void };
}

// By route template, then method, then status: as many as the label sets /metrics shows anyway.
const requestSeries = new Map<string, Map<string, Map<number, RequestSeries>>>();

function seriesOf(route: string, method: string, status: number): RequestSeries {
  let byMethod = requestSeries.get(route);
  if (!byMethod) {
    byMethod = new Map();
    requestSeries.set(route, byMethod);
  }
  let byStatus = byMethod.get(method);
  if (!byStatus) {
    byStatus = new Map();
    byMethod.set(method, byStatus);
  }
  let series = byStatus.get(status);
  if (!series) {
    const labels = { method, route, status: String(status) };
    series = { answered: httpRequests.labels(labels), duration: httpRequestDuration.labels(labels) };
    byStatus.set(status, series);
  }
  return series;
}

/**
 * Times and counts a request once it is answered. The route label is the template express matched (a
 * legacy path), the mount it reached (`res.locals.route`, e.g. /graphql), or `unmatched`.
 */
export function countRequest(req: Request, res: Response): void {
  const started = performance.now();
  res.on('finish', () => {
    const series = seriesOf(routeTemplateOf(req, res.locals), req.method, res.statusCode);
    series.answered.inc();
    series.duration.observe((performance.now() - started) / 1000);
  });
}

function routeTemplateOf(
  req: { route?: { path?: unknown }; baseUrl: string },
  locals: Record<string, unknown>,
): string {
  if (typeof locals.route === 'string') return locals.route;
  if (typeof req.route?.path === 'string') return `${req.baseUrl}${req.route.path}`;
  return 'unmatched';
}

/** GET /metrics: the Prometheus text format, with this app's pool (and replica) read at scrape time. */
export function serveMetrics(db: Db, replica?: ReadReplica): RequestHandler {
  return async (_req, res, next) => {
    try {
      if (replica) {
        const status = replica.status();
        replicaUp.set(status.state === 'ok' ? 1 : 0);
        replicaLag.set(status.lagSeconds ?? -1);
      }
      const pool = poolCounts(db);
      dbPoolConnections.set({ state: 'used' }, pool?.used ?? 0);
      dbPoolConnections.set({ state: 'free' }, pool?.free ?? 0);
      dbPoolConnections.set({ state: 'pending' }, pool?.pending ?? 0);
      const depth = await queueDepth(db);
      webhookQueue.set({ state: 'pending' }, depth.pending);
      webhookQueue.set({ state: 'due' }, depth.due);
      const text = await metricsRegistry.metrics();
      res.set('Content-Type', metricsRegistry.contentType).set('Cache-Control', 'no-store').send(text);
    } catch (error) {
      next(error);
    }
  };
}
