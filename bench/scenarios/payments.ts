// The payments, in turns with their bare baseline (bench/baseline-payment.ts, on the baseline process,
// with the same requests: its rate is the service's 1) and the design's core. They run before the
// transaction windows: a window the service cannot answer must not spoil them.
import { randomUUID } from 'node:crypto';
import type { Scenario } from '../load.js';
import type { Bench } from '../services.js';
import { pick } from '../workload.js';
import { type AutocannonRequest, base } from './requests.js';

export function paymentScenarios(bench: Bench): Scenario[] {
  const { paymentConnections } = bench.settings;
  const { orders, retailKey } = bench.workload;
  const payments = (port: number) => ({
    ...base(bench, port, paymentConnections),
    requests: [
      {
        method: 'GET' as const,
        setupRequest: (request: AutocannonRequest) => {
          const order = pick(orders);
          return {
            ...request,
            path: `/v1/record-customer-payment.php?key=${retailKey}&merchantId=${order.merchant_id}&salesClerkId=${order.clerk_id}&financeOrderId=${order.id}&amount=0.50&currency=${order.currency}`,
            headers: { ...request.headers, 'idempotency-key': randomUUID() },
          };
        },
      },
    ],
  });
  return [
    {
      name: 'baseline-record-customer-payment',
      label: 'baseline: express + pg payment',
      target: 'baseline',
      connections: paymentConnections,
      inTurns: true,
      options: payments,
    },
    {
      name: 'rest-record-customer-payment',
      label: 'REST record-customer-payment',
      target: 'service',
      baseline: 'baseline-record-customer-payment',
      connections: paymentConnections,
      inTurns: true,
      options: payments,
    },
    {
      name: 'core-rest-record-customer-payment',
      label: 'REST record-customer-payment (core)',
      target: 'core',
      baseline: 'baseline-record-customer-payment',
      connections: paymentConnections,
      inTurns: true,
      options: payments,
    },
  ];
}
