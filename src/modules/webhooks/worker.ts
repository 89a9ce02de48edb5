// The delivery worker, a task of the job loop (src/jobs/, which wakes it on the fan-out's "deliveries due"
// and polls it as a safety net: retries come due, a message missed): it claims due deliveries in batches (bounded
// in total and per endpoint in this process, and, if the operator asks, while requests wait for a
// database connection) on connections of its own, posts each signed, and records the attempt
// (delivered ones together: delivered.ts). drain() claims nothing more and waits for the posts under
// way (each ends within its timeout).
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../db/knex.js';
import { ownConnections } from '../../db/ownConnections.js';
import { connectionWaiters } from '../../db/poolCounts.js';
import { continuingTrace, markFailed } from '../../kernel/tracing.js';
import { DELIVERIES_DUE_PREFIX } from '../events/publish.js';
import { deliveredRecorder } from './delivered.js';
import { DEFAULT_ALLOWED_PORTS, type DestinationRules } from './destinations.js';
import { postWebhook } from './post.js';
import { abandonDelivery, claimDueDeliveries, type DeliveryTargets, deliveryTargets, recordAttempt } from './queue.js';
import type { WebhookDeliveryRow } from './rows.js';
import { messageOfEvent, signedRequest } from './signing.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface DeliverySettings {
  /** The wait after the 1st, 2nd... failed attempt; the last one repeats until the retry window ends. */
  scheduleMs: readonly number[];
  /** Each wait is stretched or shrunk at random by up to this fraction (0.2: +-20%). */
  jitter: number;
  /** A delivery still failing this long after it was enqueued is marked failed. */
  retryWindowMs: number;
  /** An endpoint whose attempts have all failed for this long is disabled. */
  disableAfterMs: number;
  /**
   * How often the queue is polled besides the event log's notifications: retries come due, a missed
   * notification. Also how long (at most 1 s) the worker waits before looking past endpoints at their
   * cap again once it found nothing else due.
   */
  pollMs: number;
  /** How long a claim holds: well beyond the timeout, so a live worker never loses its claim. */
  leaseMs: number;
  /** A receiver must answer 2xx within this. */
  timeoutMs: number;
  /** Posts under way at once in this process, and to one endpoint. */
  maxConcurrent: number;
  maxPerEndpoint: number;
  /**
   * The worker's own connections to the database, beside the requests' pool (0: it shares the pool).
   * Its claims and records then never wait behind the requests, nor they behind it.
   */
  databaseConnections: number;
  /**
   * Posts under way at once while requests wait for a connection of the requests' pool (at most
   * maxConcurrent; 1 by default): the requests first while the pool is short, the deliveries lagging
   * then and catching up once the requests stop waiting (decisions.md 40; an operator who wants them to
   * keep pace at the requests' price sets it to maxConcurrent, decisions.md 24).
   */
  maxConcurrentUnderLoad: number;
  /** Events fanned out to their deliveries in one transaction. */
  fanOutBatch: number;
}

/** 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, then every 12 h: the last attempt ~82 h after the event. */
export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  scheduleMs: [30_000, 2 * MINUTE, 10 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR],
  jitter: 0.2,
  retryWindowMs: 3 * DAY,
  disableAfterMs: 5 * DAY,
  pollMs: 5000,
  leaseMs: 2 * MINUTE,
  timeoutMs: 10_000,
  maxConcurrent: 16,
  maxPerEndpoint: 4,
  databaseConnections: 2,
  maxConcurrentUnderLoad: 1,
  fanOutBatch: 500,
};

/** Hears each attempt's outcome and each delivery's lag (ops/metrics.ts counts them). */
export interface DeliveryObserver {
  attempted(outcome: 'delivered' | 'http_error' | 'no_answer'): void;
  delivered(lagSeconds: number): void;
}

export interface DeliveryWorkerDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
  production: boolean;
  /** The ports production deliveries may use (WEBHOOK_ALLOWED_PORTS); 443 alone when absent. */
  allowedPorts?: readonly number[];
  settings?: Partial<DeliverySettings>;
  observe?: DeliveryObserver;
}

/** The deliveries' work for the job loop (src/jobs/): it claims and posts; the loop decides when. */
export interface DeliveryWorker {
  /** Its own connections (the requests' pool when it has none): the fan-out's too, off the requests' queue. */
  connections: Db;
  /** Claims due deliveries as room allows and starts posting them; answers how many it claimed. */
  claimDue(): Promise<number>;
  /** A message of the event log's channel that woke it (a partner's deliveries said due). */
  heard(message: string): void;
  /** Claims nothing more; resolves when the posts under way are recorded. */
  drain(): Promise<void>;
}

/** The wait after failed attempt `attempt` (1, 2, ...), with jitter. */
export function retryDelayMs(settings: DeliverySettings, attempt: number): number {
  const schedule = settings.scheduleMs;
  const base = schedule[Math.min(attempt, schedule.length) - 1] ?? schedule[schedule.length - 1] ?? 0;
  return Math.round(base * (1 + settings.jitter * (2 * Math.random() - 1)));
}

/** `wake` asks the loop to claim again soon: a post was answered, its endpoint's slot free. */
export function createDeliveryWorker(deps: DeliveryWorkerDeps, wake: () => void): DeliveryWorker {
  const settings = { ...DEFAULT_DELIVERY_SETTINGS, ...deps.settings };
  // One token per worker: its claims, and only its, are released by its updates.
  const claimToken = randomUUID();
  const rules: DestinationRules = {
    production: deps.production,
    allowedPorts: deps.allowedPorts ?? DEFAULT_ALLOWED_PORTS,
  };
  // Claims and records on the worker's own connections; the requests' pool only read for its waiters.
  const queue = ownConnections(deps.db, settings.databaseConnections);
  const db = queue.db;
  const delivered = deliveredRecorder(db, claimToken);
  const perEndpoint = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  // A claim that skips the endpoints at their cap reads, in the queue's time order, every due delivery of
  // theirs before it reaches another endpoint's: under one endpoint's backlog that is a scan of the
  // backlog, and it came once per freed slot. Once such a claim found nothing, the worker looks past the
  // same endpoints again only after lookPastMs, or at once when an event of another partner is notified.
  const lookPastMs = Math.min(settings.pollMs, 1000);
  let nothingElseDue: { past: ReadonlySet<string>; until: number } | undefined;
  const lookedPastLately = (busy: readonly string[]) =>
    nothingElseDue !== undefined &&
    Date.now() < nothingElseDue.until &&
    [...nothingElseDue.past].every((key) => busy.includes(key));

  /** `answered` is called once the post has its answer (or none), before the attempt is recorded. */
  async function deliver(
    delivery: WebhookDeliveryRow,
    targets: Promise<DeliveryTargets>,
    answered: () => void,
  ): Promise<void> {
    const { endpoint, event } = await targets;
    if (!endpoint || !event) return;
    // A test (sendTestWebhook) is posted to a disabled endpoint too: a receiver is tested before it is enabled again.
    if (!endpoint.enabled && event.type !== 'webhook.test') {
      await abandonDelivery(db, delivery, claimToken);
      return;
    }
    const request = signedRequest(endpoint, messageOfEvent(event), deps.now());
    // The post continues the trace of the request that wrote the event, and carries it on (traceparent).
    const attributes = { 'webhook.delivery.id': delivery.id, 'webhook.attempt': delivery.attempt_count };
    const outcome = await continuingTrace(event.traceparent, 'webhook delivery', attributes, async (headers, span) => {
      const posted = await postWebhook(
        endpoint.url,
        { ...request, headers: { ...request.headers, ...headers } },
        {
          timeoutMs: settings.timeoutMs,
          rules,
          now: deps.now,
        },
      );
      span?.setAttributes({
        'http.request.method': 'POST',
        'server.address': new URL(endpoint.url).hostname,
        'webhook.delivered': posted.delivered,
        ...(posted.statusCode === null
          ? { 'error.type': 'no_answer' }
          : { 'http.response.status_code': posted.statusCode }),
      });
      if (!posted.delivered) markFailed(span, posted.error ?? `answered ${posted.statusCode}`);
      return posted;
    });
    answered();
    const status = outcome.delivered
      ? (await delivered.record(delivery, outcome)) && 'delivered'
      : await recordAttempt(db, delivery, claimToken, outcome, {
          retryInMs: retryDelayMs(settings, delivery.attempt_count),
          retryWindowMs: settings.retryWindowMs,
          disableAfterMs: settings.disableAfterMs,
        });
    deps.observe?.attempted(outcome.delivered ? 'delivered' : outcome.statusCode === null ? 'no_answer' : 'http_error');
    if (status === 'delivered') deps.observe?.delivered((Date.now() - delivery.created_at.getTime()) / 1000);
  }

  // An endpoint's slot is its posts under way: freed once the post is answered, while the attempt is
  // still being recorded (the claim's lease keeps the delivery this worker's until then). The total
  // counts each delivery until it is recorded.
  function launch(delivery: WebhookDeliveryRow, targets: Promise<DeliveryTargets>): void {
    const endpointKey = `${delivery.partner_id}:${delivery.endpoint_id}`;
    perEndpoint.set(endpointKey, (perEndpoint.get(endpointKey) ?? 0) + 1);
    let posting = true;
    const answered = () => {
      if (!posting) return;
      posting = false;
      const left = (perEndpoint.get(endpointKey) ?? 1) - 1;
      if (left > 0) perEndpoint.set(endpointKey, left);
      else perEndpoint.delete(endpointKey);
      wake();
    };
    const task = deliver(delivery, targets, answered)
      .catch((error: unknown) => deps.logger.error({ err: error, deliveryId: delivery.id }, 'webhook delivery failed'))
      .finally(() => {
        running.delete(task);
        answered();
        // A slot freed: look for more at once rather than at the next poll.
        wake();
      });
    running.add(task);
  }

  // Requests are waiting when the requests' pool has callers waiting: any, when the worker has its own
  // connections; when it shares the pool, more than its own could be (a batch's targets are read on at
  // most two connections at once, a post records on one).
  const sharesPool = db === deps.db;
  const requestsWaiting = () => connectionWaiters(deps.db) > (sharesPool ? 2 * running.size : 0);
  const room = () => {
    const limit = requestsWaiting()
      ? Math.min(settings.maxConcurrentUnderLoad, settings.maxConcurrent)
      : settings.maxConcurrent;
    return Math.max(0, limit - running.size);
  };

  /** Claims and launches as many due deliveries as there is room for; answers how many. */
  async function claimDue(): Promise<number> {
    let launched = 0;
    for (let total = room(); !stopped && total > 0; total = room()) {
      const busy = [...perEndpoint].filter(([, count]) => count >= settings.maxPerEndpoint).map(([key]) => key);
      if (busy.length > 0 && lookedPastLately(busy)) break;
      const batch = await claimDueDeliveries(db, claimToken, settings.leaseMs, {
        total,
        perEndpoint: settings.maxPerEndpoint,
        underWay: perEndpoint,
      });
      if (batch.length === 0 && busy.length > 0)
        nothingElseDue = { past: new Set(busy), until: Date.now() + lookPastMs };
      if (batch.length === 0) break;
      launched += batch.length;
      const targets = deliveryTargets(db, batch);
      for (const [i, delivery] of batch.entries())
        launch(
          delivery,
          targets.then((found) => found[i]!),
        );
      // Fewer than it had room for: nothing more is due now (or only for endpoints at their cap).
      if (batch.length < total) break;
    }
    return launched;
  }

  return {
    connections: db,
    claimDue,
    heard(message) {
      // Deliveries of a partner none of whose endpoints is at its cap may be due where the last look
      // past the capped ones did not see: look past them again at once.
      const partnerId = message.startsWith(DELIVERIES_DUE_PREFIX) ? message.slice(DELIVERIES_DUE_PREFIX.length) : null;
      const past = nothingElseDue?.past;
      if (past && (partnerId === null || ![...past].some((key) => key.startsWith(`${partnerId}:`)))) {
        nothingElseDue = undefined;
      }
    },
    async drain() {
      stopped = true;
      await Promise.all([...running]);
      await queue.close();
    },
  };
}
