// The payments, in turns with their bare baseline (bench/baseline-payment.ts, on the baseline process,
// with the same requests: its rate is the service's 1), the design's core and pgbench (pgbench.ts: the
// server's floor at the service's pool size and at its best client count, in the same turns). The
// headline rows pay at the tills of the partner's store keys (workload.ts's tillFleet: each till one
// payment under way at a time); the second group pays with one retail key, the bare code the same.
// They run before the transaction windows: a window the service cannot answer must not spoil them.
import { randomUUID } from 'node:crypto';
import type { Scenario } from '../load.js';
import type { Bench } from '../services.js';
import { pick } from '../workload.js';
import type { PgbenchFloor } from './pgbench.js';
import { type AutocannonRequest, base, type Keys, keyedRequest } from './requests.js';

export function paymentScenarios(bench: Bench, floor: PgbenchFloor): Scenario[] {
  const { paymentConnections, pool } = bench.settings;
  const { orders, retailKey, storeKeys } = bench.workload;
  const payments = (keys: Keys) => (port: number) => ({
    ...base(bench, port, paymentConnections),
    requests: [
      {
        method: 'GET' as const,
        ...keyedRequest(
          bench,
          keys,
          (request: AutocannonRequest, key: string) => {
            const order = pick(orders);
            return {
              ...request,
              path: `/v1/record-customer-payment.php?key=${key}&merchantId=${order.merchant_id}&salesClerkId=${order.clerk_id}&financeOrderId=${order.id}&amount=0.50&currency=${order.currency}`,
              headers: { ...request.headers, 'idempotency-key': randomUUID() },
            };
          },
          retailKey,
        ),
      },
    ],
  });
  const tills = `${storeKeys.length} store keys`;
  const turns = (baseline: string) => ({ baseline, connections: paymentConnections, inTurns: true });
  const pgbenchTurns = { target: 'baseline' as const, turnsWith: 'baseline-record-customer-payment', inTurns: true };
  return [
    {
      name: 'baseline-record-customer-payment',
      label: `baseline: express + pg payment (${tills})`,
      target: 'baseline',
      connections: paymentConnections,
      inTurns: true,
      options: payments('fleet'),
    },
    {
      name: 'rest-record-customer-payment',
      label: `REST record-customer-payment (${tills})`,
      target: 'service',
      ...turns('baseline-record-customer-payment'),
      options: payments('fleet'),
    },
    {
      name: 'core-rest-record-customer-payment',
      label: `REST record-customer-payment (${tills}, core)`,
      target: 'core',
      ...turns('baseline-record-customer-payment'),
      options: payments('fleet'),
    },
    {
      name: 'pgbench-pool',
      label: `pgbench TPC-B-like, ${pool} clients (the service's pool)`,
      ...pgbenchTurns,
      connections: pool,
      options: payments('fleet'),
      runTurn: (seconds) => floor.turn('pool', seconds),
    },
    {
      name: 'pgbench-best',
      label: 'pgbench TPC-B-like, its best client count',
      ...pgbenchTurns,
      // Read when its figures are (after the sweep before the load): the clients it ran with.
      get connections() {
        return floor.bestClients();
      },
      options: payments('fleet'),
      runTurn: (seconds) => floor.turn('best', seconds),
    },
    {
      name: 'baseline-record-customer-payment-one-key',
      label: 'baseline: express + pg payment (one key)',
      target: 'baseline',
      connections: paymentConnections,
      inTurns: true,
      options: payments('one key'),
    },
    {
      name: 'rest-record-customer-payment-one-key',
      label: 'REST record-customer-payment (one key)',
      target: 'service',
      ...turns('baseline-record-customer-payment-one-key'),
      options: payments('one key'),
    },
  ];
}
