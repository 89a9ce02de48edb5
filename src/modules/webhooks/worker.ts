// The delivery worker: polls the queue, claims due deliveries one at a time (bounded in total and per
// endpoint in this process, and to one post while requests wait for a database connection), posts
// each signed, and records the attempt. stop() claims nothing more and waits for the posts under way
// (each ends within its timeout). Started by main.ts.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../db/knex.js';
import { poolCounts } from '../../db/poolCounts.js';
import { continuingTrace, markFailed } from '../../kernel/tracing.js';
import { DEFAULT_ALLOWED_PORTS, type DestinationRules } from './destinations.js';
import { postWebhook } from './post.js';
import { abandonDelivery, claimDueDelivery, deliveryTargets, recordAttempt } from './queue.js';
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
  /** How often the queue is polled when it held nothing due. */
  pollMs: number;
  /** How long a claim holds: well beyond the timeout, so a live worker never loses its claim. */
  leaseMs: number;
  /** A receiver must answer 2xx within this. */
  timeoutMs: number;
  /** Posts under way at once in this process, and to one endpoint. */
  maxConcurrent: number;
  maxPerEndpoint: number;
  /**
   * Posts under way at once while requests wait for a database connection: the requests come first
   * (a payment is answered while its partner waits at the till), the deliveries still go out, and
   * catch up at maxConcurrent once the requests stop waiting.
   */
  maxConcurrentUnderLoad: number;
}

/** 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, then every 12 h: the last attempt ~82 h after the event. */
export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  scheduleMs: [30_000, 2 * MINUTE, 10 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR],
  jitter: 0.2,
  retryWindowMs: 3 * DAY,
  disableAfterMs: 5 * DAY,
  pollMs: 1000,
  leaseMs: 2 * MINUTE,
  timeoutMs: 10_000,
  maxConcurrent: 16,
  maxPerEndpoint: 4,
  maxConcurrentUnderLoad: 1,
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

export interface DeliveryWorker {
  /** Claims nothing more; resolves when the posts under way are recorded. */
  stop(): Promise<void>;
}

/** The wait after failed attempt `attempt` (1, 2, ...), with jitter. */
export function retryDelayMs(settings: DeliverySettings, attempt: number): number {
  const schedule = settings.scheduleMs;
  const base = schedule[Math.min(attempt, schedule.length) - 1] ?? schedule[schedule.length - 1] ?? 0;
  return Math.round(base * (1 + settings.jitter * (2 * Math.random() - 1)));
}

export function startDeliveryWorker(deps: DeliveryWorkerDeps): DeliveryWorker {
  const settings = { ...DEFAULT_DELIVERY_SETTINGS, ...deps.settings };
  // One token per worker: its claims, and only its, are released by its updates.
  const claimToken = randomUUID();
  const rules: DestinationRules = {
    production: deps.production,
    allowedPorts: deps.allowedPorts ?? DEFAULT_ALLOWED_PORTS,
  };
  const perEndpoint = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;
  // A claim that skips the endpoints at their cap reads, in the queue's time order, every due delivery of
  // theirs before it reaches another endpoint's: under one endpoint's backlog that is a scan of the
  // backlog, and it came once per delivery (each freed slot is taken at once, and the next claim looks
  // past the endpoint again). Once such a claim found nothing, the worker looks past the same endpoints
  // again only after a poll interval: another endpoint's delivery waits at most that long, as it would
  // in an idle queue.
  let nothingElseDue: { past: ReadonlySet<string>; until: number } | undefined;
  const lookedPastLately = (busy: readonly string[]) =>
    nothingElseDue !== undefined &&
    Date.now() < nothingElseDue.until &&
    [...nothingElseDue.past].every((key) => busy.includes(key));

  async function deliver(delivery: WebhookDeliveryRow): Promise<void> {
    const { endpoint, event } = await deliveryTargets(deps.db, delivery);
    if (!endpoint || !event) return;
    // A test (sendTestWebhook) is posted to a disabled endpoint too: a receiver is tested before it is enabled again.
    if (!endpoint.enabled && event.type !== 'webhook.test') {
      await abandonDelivery(deps.db, delivery, claimToken);
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
    const status = await recordAttempt(deps.db, delivery, claimToken, outcome, {
      retryInMs: retryDelayMs(settings, delivery.attempt_count),
      retryWindowMs: settings.retryWindowMs,
      disableAfterMs: settings.disableAfterMs,
    });
    deps.observe?.attempted(outcome.delivered ? 'delivered' : outcome.statusCode === null ? 'no_answer' : 'http_error');
    if (status === 'delivered') deps.observe?.delivered((Date.now() - delivery.created_at.getTime()) / 1000);
  }

  function launch(delivery: WebhookDeliveryRow): void {
    const endpointKey = `${delivery.partner_id}:${delivery.endpoint_id}`;
    perEndpoint.set(endpointKey, (perEndpoint.get(endpointKey) ?? 0) + 1);
    const task = deliver(delivery)
      .catch((error: unknown) => deps.logger.error({ err: error, deliveryId: delivery.id }, 'webhook delivery failed'))
      .finally(() => {
        const left = (perEndpoint.get(endpointKey) ?? 1) - 1;
        if (left > 0) perEndpoint.set(endpointKey, left);
        else perEndpoint.delete(endpointKey);
        running.delete(task);
        // A slot freed: look for more at once rather than at the next poll.
        schedule(0);
      });
    running.add(task);
  }

  // A post waits for at most two connections at once (its endpoint and event are read together), so
  // more callers waiting than twice the posts under way means requests are waiting: the worker and the
  // requests share this process's pool and CPU.
  const requestsWaiting = () => (poolCounts(deps.db)?.pending ?? 0) > 2 * running.size;
  const room = () =>
    running.size < settings.maxConcurrent && (running.size < settings.maxConcurrentUnderLoad || !requestsWaiting());

  async function poll(): Promise<void> {
    let claimed = 0;
    try {
      while (!stopped && room()) {
        const busy = [...perEndpoint].filter(([, count]) => count >= settings.maxPerEndpoint).map(([key]) => key);
        if (busy.length > 0 && lookedPastLately(busy)) break;
        const delivery = await claimDueDelivery(deps.db, claimToken, settings.leaseMs, busy);
        if (!delivery) {
          if (busy.length > 0) nothingElseDue = { past: new Set(busy), until: Date.now() + settings.pollMs };
          break;
        }
        claimed++;
        launch(delivery);
      }
    } catch (error) {
      deps.logger.warn({ err: error }, 'webhook queue could not be polled');
    }
    if (claimed === 0) schedule(settings.pollMs);
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (polling) return schedule(delayMs || settings.pollMs);
      polling = poll().finally(() => {
        polling = undefined;
      });
    }, delayMs);
  }

  schedule(0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await polling;
      await Promise.all([...running]);
    },
  };
}
