// The lookups, in turns with their bare baseline (bench/baseline-lookup.ts): REST and GraphQL on the
// service, on the design's core, and REST on the service counting its limits in Redis. The headline
// rows send each request with the key of one of the partner's store tills (at least 250, a fleet:
// workload.ts's tillFleet), so that concurrent lookups share a key no more than a real fleet's would
// and the service's shared key lookups (src/db/turnBatches.ts) have nothing to share; the second group
// sends every request with one partner key, as a chain's point of sale does, the bare code the same.
import type { Scenario } from '../load.js';
import type { Bench } from '../services.js';
import { type AutocannonRequest, base, graphqlRequest, type Keys, keyedRequest, operation } from './requests.js';

export function lookupScenarios(bench: Bench): Scenario[] {
  const { lookupConnections } = bench.settings;
  const { randomLocator, storeKeys } = bench.workload;
  const lookupDocument = operation('lookupCustomer');
  const restLookups = (keys: Keys) => (port: number) => ({
    ...base(bench, port, lookupConnections),
    requests: [
      {
        method: 'GET' as const,
        ...keyedRequest(bench, keys, (request: AutocannonRequest, key: string) => ({
          ...request,
          path: `/v1/lookup-customer.php?key=${key}&customerLocator=${encodeURIComponent(randomLocator())}`,
        })),
      },
    ],
  });
  const graphqlLookups = (keys: Keys) => (port: number) => ({
    ...base(bench, port, lookupConnections),
    requests: [
      graphqlRequest(bench, lookupDocument, () => ({ locator: randomLocator(), withDescription: false }), keys),
    ],
  });
  const tills = `${storeKeys.length} store keys`;
  const group = (baseline: string) => ({ baseline, connections: lookupConnections, inTurns: true });
  const fleet = group('baseline-lookup-customer');
  const oneKey = group('baseline-lookup-customer-one-key');
  const baseline = (name: string, label: string, keys: Keys): Scenario => ({
    name,
    label,
    target: 'baseline',
    connections: lookupConnections,
    inTurns: true,
    options: restLookups(keys),
  });
  return [
    baseline('baseline-lookup-customer', `baseline: express + pg lookup (${tills})`, 'fleet'),
    {
      name: 'rest-lookup-customer',
      label: `REST lookup-customer (${tills})`,
      target: 'service',
      ...fleet,
      options: restLookups('fleet'),
    },
    {
      name: 'graphql-lookup-customer',
      label: `GraphQL customer(locator) (${tills})`,
      target: 'service',
      ...fleet,
      graphql: true,
      options: graphqlLookups('fleet'),
    },
    {
      name: 'redis-rest-lookup-customer',
      label: `REST lookup-customer (${tills}, limits in Redis)`,
      target: 'redis',
      ...fleet,
      options: restLookups('fleet'),
    },
    {
      name: 'core-rest-lookup-customer',
      label: `REST lookup-customer (${tills}, core)`,
      target: 'core',
      ...fleet,
      options: restLookups('fleet'),
    },
    {
      name: 'core-graphql-lookup-customer',
      label: `GraphQL customer(locator) (${tills}, core)`,
      target: 'core',
      ...fleet,
      graphql: true,
      options: graphqlLookups('fleet'),
    },
    baseline('baseline-lookup-customer-one-key', 'baseline: express + pg lookup (one key)', 'one key'),
    {
      name: 'rest-lookup-customer-one-key',
      label: 'REST lookup-customer (one key)',
      target: 'service',
      ...oneKey,
      options: restLookups('one key'),
    },
    {
      name: 'graphql-lookup-customer-one-key',
      label: 'GraphQL customer(locator) (one key)',
      target: 'service',
      ...oneKey,
      graphql: true,
      options: graphqlLookups('one key'),
    },
  ];
}
