// Phase webhooks: the same in-store payments with one webhook endpoint subscribed to every
// event type, against none, on one more service process, in turns. It runs outside production, the
// one mode in which an endpoint may point at a receiver on this machine; both halves run on it alike.
// Whether the worker keeps pace: the deliveries' lag (the receiver's arrival less the event's
// occurred_at), the backlog at each load's end and 10 s after, and the worker's capacity, draining a
// backlog with no load. (Not run when --only left the payments out.)
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendEvents } from '../../src/modules/events/queries.js';
import { fanOutBacklog } from '../../src/modules/webhooks/fanOut.js';
import { queueDepth } from '../../src/modules/webhooks/queue.js';
import {
  addCpu,
  type CpuPerRequest,
  type CpuSpent,
  cpuBetween,
  cpuPerRequest,
  cpuReadable,
  describeCpu,
  readCpu,
} from '../cpu.js';
import { postgresPids, run, type Scenario, settle, unionOf } from '../load.js';
import { log, phase, round } from '../log.js';
import { procStatus, SERVICE_READY, startProcess, stopProcess } from '../processes.js';
import type { Bench } from '../services.js';

interface Half {
  requestsPerSecond: number;
  non2xx: number;
  cpu: CpuPerRequest | null;
}

export interface Webhooks {
  vmHwmBytes: number | null;
  without: Half;
  withEndpoint: Half;
  ratio: number | null;
  deliveredDuringRun: number;
  pendingAfterTurns: number;
  retrying: number;
  /** The payments' rate in the halves with the endpoint, and the deliveries' during them (one instance). */
  paymentsPerSecond: number;
  deliveriesPerSecond: number;
  /** Arrival at the receiver less the event's occurred_at, over every delivery of the measured halves. */
  lagP99Ms: number | null;
  lagP50Ms: number | null;
  /** Deliveries pending at the end of a half's load, and 10 s after: the worst half's. */
  backlogAtEnd: number;
  backlogAfter10s: number;
  /** From a load's end until the queue was empty, the slowest half's; null if one took over 10 s. */
  drainedInMs: number | null;
  /** The worker's deliveries per second draining a backlog of capacityBacklog deliveries with no load. */
  capacityPerSecond: number | null;
  capacityBacklog: number;
  /** The worker's concurrency in this run (WEBHOOK_MAX_CONCURRENT, WEBHOOK_MAX_PER_ENDPOINT). */
  workerSettings: { maxConcurrent: number; maxPerEndpoint: number };
}

/** WEBHOOK_MAX_CONCURRENT and WEBHOOK_MAX_PER_ENDPOINT of the instance measured (defaults: 16 and 4). */
const WORKER_SETTINGS = { maxConcurrent: 64, maxPerEndpoint: 32 } as const;

/**
 * A receiver on this machine that answers every delivery 204, counting them, and, while `lags` is set,
 * noting each one's lag: its arrival less its event's occurred_at (the body's timestamp).
 */
interface Receiver {
  server: Server;
  port: number;
  delivered: number;
  lags: number[] | null;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { server: createServer(), port: 0, delivered: 0, lags: null };
  receiver.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrived = Date.now();
      receiver.delivered += 1;
      if (receiver.lags) {
        const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
        receiver.lags.push(arrived - Date.parse(timestamp));
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.port = (receiver.server.address() as AddressInfo).port;
  return receiver;
}

export async function webhooks(bench: Bench, scenarios: readonly Scenario[]): Promise<Webhooks | null> {
  const paymentScenario = scenarios.find((scenario) => scenario.name === 'rest-record-customer-payment');
  if (!paymentScenario) return null;
  const figures = await phase('webhooks', async () => {
    const receiver = await startReceiver();
    // Closed however the phase ends: a failed drain must not leave the bench waiting on its socket.
    try {
      const { child, port } = await startProcess(
        bench.settings,
        'service (webhooks)',
        'src/main.ts',
        // The worker woken by the event log's notifications (its poll at its default), at the
        // concurrency an operator sets for a receiver that takes it (WORKER_SETTINGS): the bench's one
        // endpoint takes every delivery, and at the default 4 posts per endpoint an endpoint's rate is
        // bounded by 4 over a post's round trip, which a loaded machine stretches.
        bench.services.serviceEnvironment('webhooks', {
          NODE_ENV: 'development',
          WEBHOOK_MAX_CONCURRENT: String(WORKER_SETTINGS.maxConcurrent),
          WEBHOOK_MAX_PER_ENDPOINT: String(WORKER_SETTINGS.maxPerEndpoint),
        }),
        SERVICE_READY,
      );
      return await measureHalves(bench, paymentScenario, receiver, child, port);
    } finally {
      receiver.server.closeAllConnections();
      receiver.server.close();
    }
  });
  log(
    `payments with a webhook endpoint: ${figures.withEndpoint.requestsPerSecond}/s against ${figures.without.requestsPerSecond}/s without (×${figures.ratio}); ${figures.deliveredDuringRun} deliveries made during the turns with it, ${figures.pendingAfterTurns} left pending at their ends (delivered before the next turn)${figures.retrying ? `; ${figures.retrying} whose post failed, left to their retry` : ''}`,
  );
  for (const [name, half] of [
    ['without', figures.without],
    ['with the endpoint', figures.withEndpoint],
  ] as const)
    if (half.cpu) log(`  CPU per payment ${name}: ${describeCpu(half.cpu)} (autocannon's process runs the receiver)`);
  log(
    `webhook worker (one instance, ${figures.workerSettings.maxConcurrent} posts at once, ${figures.workerSettings.maxPerEndpoint} per endpoint): ${figures.deliveriesPerSecond} deliveries/s during ${figures.paymentsPerSecond} payments/s; lag p50 ${figures.lagP50Ms ?? '?'} ms, p99 ${figures.lagP99Ms ?? '?'} ms; backlog ${figures.backlogAtEnd} at the load's end, ${figures.backlogAfter10s} 10 s after (${figures.drainedInMs === null ? 'not drained within 10 s' : `drained in ${figures.drainedInMs} ms`}); capacity ${figures.capacityPerSecond ?? '?'} deliveries/s draining ${figures.capacityBacklog} with no load`,
  );
  return figures;
}

/** The endpoint's lifetime, through the service's GraphQL door: one endpoint subscribed to every event type. */
function endpoints(bench: Bench, port: number, receiverPort: number) {
  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const answer = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': bench.workload.partnerKey },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await answer.json()) as { data?: Record<string, { id?: string; endpoint?: { id: string } }> };
    if (!answer.ok || !body.data) throw new Error(`${query} answered ${answer.status}: ${JSON.stringify(body)}`);
    return body.data;
  };
  return {
    /** Its id. */
    subscribe: async () =>
      (
        await graphql(
          'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
          {
            input: {
              url: `http://127.0.0.1:${receiverPort}/hooks`,
              eventTypes: [
                'PAYMENT_RECORDED',
                'TRANSACTION_CREATED',
                'FINANCE_ORDER_CREATED',
                'FINANCE_ORDER_PAID_OFF',
              ],
            },
          },
        )
      ).createWebhookEndpoint!.endpoint!.id,
    unsubscribe: (id: string) => graphql('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }', { id }),
  };
}

/** What the measured halves of one kind add up to. */
interface HalfTally {
  requests: number;
  seconds: number;
  non2xx: number;
  cpu: CpuSpent | null;
}

/**
 * In turns, as the payments are (settings.turns each, the order reversed every turn): the machine's drift falls
 * on both halves alike. The endpoint exists only during the halves that have it. Each half's CPU as the
 * scenarios' (bench/cpu.ts): the service's process (its webhook worker included), Postgres, and the
 * bench's own process, which here runs the receiver beside autocannon.
 */
async function measureHalves(
  bench: Bench,
  paymentScenario: Scenario,
  receiver: Receiver,
  child: ChildProcess,
  port: number,
): Promise<Webhooks> {
  const { subscribe, unsubscribe } = endpoints(bench, port, receiver.port);
  // Deliveries pending, and of those the ones due now (the rest wait for a retry after a failed post);
  // the events committed and not yet fanned out to their deliveries count as pending and due too.
  const queued = async () => {
    const [depth, unfanned] = await Promise.all([queueDepth(bench.data), fanOutBacklog(bench.data)]);
    return { pending: depth.pending + unfanned, due: depth.due + unfanned };
  };
  const halves: Record<'without' | 'withEndpoint', HalfTally> = {
    without: { requests: 0, seconds: 0, non2xx: 0, cpu: null },
    withEndpoint: { requests: 0, seconds: 0, non2xx: 0, cpu: null },
  };
  const counts = { deliveredDuringRun: 0, pendingAfterTurns: 0, retrying: 0 };
  const lags: number[] = [];
  const backlogs: Backlog[] = [];
  const half = async (name: keyof typeof halves, seconds: number, measured: boolean) => {
    await settle(bench, port);
    const endpoint = name === 'withEndpoint' ? await subscribe() : null;
    const deliveredBefore = receiver.delivered;
    if (endpoint !== null && measured) receiver.lags = lags;
    // Postgres's CPU: the backends of the bench's own databases only (load.ts), not the machine's.
    const pidsBefore = measured && cpuReadable ? await postgresPids(bench) : null;
    const cpuBefore = measured && cpuReadable ? readCpu(child.pid as number, pidsBefore) : null;
    const result = await run({ ...paymentScenario.options(port), duration: seconds });
    if (measured) {
      const tally = halves[name];
      tally.requests += result.requests.total;
      tally.seconds += result.duration;
      tally.non2xx += result.non2xx;
      const pids = cpuBefore ? unionOf(pidsBefore, await postgresPids(bench)) : null;
      const spent = cpuBefore && cpuBetween(cpuBefore, readCpu(child.pid as number, pids));
      if (spent) tally.cpu = tally.cpu ? addCpu(tally.cpu, spent) : spent;
    }
    if (endpoint === null) return;
    if (measured) {
      counts.deliveredDuringRun += receiver.delivered - deliveredBefore;
      const backlog = await backlogAfterLoad(queued);
      counts.pendingAfterTurns += backlog.atEnd;
      backlogs.push(backlog);
    }
    counts.retrying += await drain(queued);
    receiver.lags = null;
    await unsubscribe(endpoint);
  };
  const { warmup, duration, turns } = bench.settings;
  if (warmup > 0) for (const name of ['without', 'withEndpoint'] as const) await half(name, warmup, false);
  for (let turn = 0; turn < turns; turn++) {
    const order = turn % 2 === 0 ? (['without', 'withEndpoint'] as const) : (['withEndpoint', 'without'] as const);
    for (const name of order) await half(name, duration / turns, true);
  }
  const rateOf = (name: keyof typeof halves): Half => ({
    requestsPerSecond: halves[name].seconds ? round(halves[name].requests / halves[name].seconds) : 0,
    non2xx: halves[name].non2xx,
    cpu: halves[name].cpu ? cpuPerRequest(halves[name].cpu, halves[name].requests) : null,
  });
  const without = rateOf('without');
  const withEndpoint = rateOf('withEndpoint');
  const capacityPerSecond = await capacity(bench, port, receiver, queued, subscribe, unsubscribe);
  const vmHwmBytes = procStatus(child.pid as number, 'VmHWM');
  await stopProcess(child);
  const sorted = lags.sort((a, b) => a - b);
  const percentile = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : null;
  return {
    vmHwmBytes,
    without,
    withEndpoint,
    ratio: without.requestsPerSecond ? round(withEndpoint.requestsPerSecond / without.requestsPerSecond, 3) : null,
    ...counts,
    paymentsPerSecond: withEndpoint.requestsPerSecond,
    deliveriesPerSecond: halves.withEndpoint.seconds
      ? round(counts.deliveredDuringRun / halves.withEndpoint.seconds)
      : 0,
    lagP99Ms: percentile(0.99),
    lagP50Ms: percentile(0.5),
    backlogAtEnd: Math.max(0, ...backlogs.map((backlog) => backlog.atEnd)),
    backlogAfter10s: Math.max(0, ...backlogs.map((backlog) => backlog.after10s)),
    drainedInMs: backlogs.some((backlog) => backlog.drainedInMs === null)
      ? null
      : Math.max(0, ...backlogs.map((backlog) => backlog.drainedInMs ?? 0)),
    capacityPerSecond,
    capacityBacklog: bench.settings.webhookCapacityBacklog,
    workerSettings: { ...WORKER_SETTINGS },
  };
}

/** A half's backlog: pending at its load's end, 10 s after (0 once drained), and when it drained (null: not within 10 s). */
interface Backlog {
  atEnd: number;
  after10s: number;
  drainedInMs: number | null;
}

async function backlogAfterLoad(queued: () => Promise<{ pending: number }>): Promise<Backlog> {
  const ended = Date.now();
  const atEnd = (await queued()).pending;
  for (let left = atEnd; Date.now() - ended < 10_000; left = (await queued()).pending) {
    if (left === 0) return { atEnd, after10s: 0, drainedInMs: Date.now() - ended };
    await new Promise((done) => setTimeout(done, 50));
  }
  const after10s = (await queued()).pending;
  return { atEnd, after10s, drainedInMs: after10s === 0 ? Date.now() - ended : null };
}

/**
 * The worker's deliveries per second with no load: settings.webhookCapacityBacklog events of the partner
 * (5,000; a smoke run's fewer) written and notified at once (one transaction), timed from their commit
 * until the receiver has them all.
 */
async function capacity(
  bench: Bench,
  port: number,
  receiver: Receiver,
  queued: () => Promise<{ due: number; pending: number }>,
  subscribe: () => Promise<string>,
  unsubscribe: (id: string) => Promise<unknown>,
): Promise<number | null> {
  await settle(bench, port);
  const backlog = bench.settings.webhookCapacityBacklog;
  const endpoint = await subscribe();
  try {
    const target = receiver.delivered + backlog;
    const events = Array.from({ length: backlog }, (_, i) => ({
      type: 'payment.recorded' as const,
      occurredAt: new Date(),
      data: { bench: true, n: i },
    }));
    const started = Date.now();
    // The log publishes them once committed: the service's fan-out is woken as by any change.
    await bench.data.transaction((trx) => appendEvents(trx, bench.workload.partner, events));
    const until = started + 120_000;
    while (receiver.delivered < target && Date.now() < until) await new Promise((done) => setTimeout(done, 20));
    const seconds = (Date.now() - started) / 1000;
    if (receiver.delivered < target) {
      log(`webhook capacity: ${target - receiver.delivered} of ${backlog} still undelivered after 120 s`);
      return null;
    }
    await drain(queued);
    return round(backlog / seconds);
  } finally {
    await unsubscribe(endpoint);
  }
}

/**
 * The worker delivers what a half with the endpoint left behind before the next half starts, so a
 * half without it never pays for those deliveries. A delivery whose post failed waits minutes for its
 * retry: it is not waited for, but counted (the endpoint's deletion then ends it): the count returned.
 */
async function drain(queued: () => Promise<{ due: number; pending: number }>): Promise<number> {
  const until = Date.now() + 180_000;
  for (let left = await queued(); left.due > 0 || left.pending > 0; left = await queued()) {
    if (left.due === 0) return left.pending;
    if (Date.now() > until) throw new Error(`the webhook worker still had ${left.due} deliveries due after 180 s`);
    await new Promise((done) => setTimeout(done, 200));
  }
  return 0;
}
