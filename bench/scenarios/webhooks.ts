// Phase webhooks: the same in-store payments with one webhook endpoint subscribed to every
// event type, against none, on one more service process, in turns. It runs outside production, the
// one mode in which an endpoint may point at a receiver on this machine; both halves run on it alike.
// (Not run when --only left the payments out.)
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { run, type Scenario, settle } from '../load.js';
import { log, phase, round } from '../log.js';
import { procStatus, startProcess, stopProcess } from '../processes.js';
import type { Bench } from '../services.js';
import { TURNS } from '../settings.js';

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
}

/** A receiver on this machine that answers every delivery 204, counting them. */
interface Receiver {
  server: Server;
  port: number;
  delivered: number;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { server: createServer(), port: 0, delivered: 0 };
  receiver.server.on('request', (req, res) => {
    req.resume().on('end', () => {
      receiver.delivered += 1;
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
        // The worker looks for deliveries every 50 ms when it has none (1 s by default): a turn with the
        // endpoint starts with its queue empty, and in a turn of 2 s the default's first second idle
        // would leave most of the turn's deliveries to the drain after it.
        bench.services.serviceEnvironment('webhooks', { NODE_ENV: 'development', WEBHOOK_POLL_MS: '50' }),
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
 * In turns, as the payments are (TURNS each, the order reversed every turn): the machine's drift falls
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
  const { postgresLocal } = bench.database;
  // Deliveries pending, and of those the ones due now (the rest wait for a retry after a failed post).
  const queued = () => queueDepth(bench.data);
  const halves: Record<'without' | 'withEndpoint', HalfTally> = {
    without: { requests: 0, seconds: 0, non2xx: 0, cpu: null },
    withEndpoint: { requests: 0, seconds: 0, non2xx: 0, cpu: null },
  };
  const counts = { deliveredDuringRun: 0, pendingAfterTurns: 0, retrying: 0 };
  const half = async (name: keyof typeof halves, seconds: number, measured: boolean) => {
    await settle(bench, port);
    const endpoint = name === 'withEndpoint' ? await subscribe() : null;
    const deliveredBefore = receiver.delivered;
    const cpuBefore = measured && cpuReadable ? readCpu(child.pid as number, postgresLocal) : null;
    const result = await run({ ...paymentScenario.options(port), duration: seconds });
    if (measured) {
      const tally = halves[name];
      tally.requests += result.requests.total;
      tally.seconds += result.duration;
      tally.non2xx += result.non2xx;
      const spent = cpuBefore && cpuBetween(cpuBefore, readCpu(child.pid as number, postgresLocal));
      if (spent) tally.cpu = tally.cpu ? addCpu(tally.cpu, spent) : spent;
    }
    if (endpoint === null) return;
    if (measured) {
      counts.deliveredDuringRun += receiver.delivered - deliveredBefore;
      counts.pendingAfterTurns += (await queued()).pending;
    }
    counts.retrying += await drain(queued);
    await unsubscribe(endpoint);
  };
  const { warmup, duration } = bench.settings;
  if (warmup > 0) for (const name of ['without', 'withEndpoint'] as const) await half(name, warmup, false);
  for (let turn = 0; turn < TURNS; turn++) {
    const order = turn % 2 === 0 ? (['without', 'withEndpoint'] as const) : (['withEndpoint', 'without'] as const);
    for (const name of order) await half(name, duration / TURNS, true);
  }
  const rateOf = (name: keyof typeof halves): Half => ({
    requestsPerSecond: halves[name].seconds ? round(halves[name].requests / halves[name].seconds) : 0,
    non2xx: halves[name].non2xx,
    cpu: halves[name].cpu ? cpuPerRequest(halves[name].cpu, halves[name].requests) : null,
  });
  const without = rateOf('without');
  const withEndpoint = rateOf('withEndpoint');
  const vmHwmBytes = procStatus(child.pid as number, 'VmHWM');
  await stopProcess(child);
  return {
    vmHwmBytes,
    without,
    withEndpoint,
    ratio: without.requestsPerSecond ? round(withEndpoint.requestsPerSecond / without.requestsPerSecond, 3) : null,
    ...counts,
  };
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
