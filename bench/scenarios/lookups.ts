// The lookups, in turns with their bare baseline (bench/baseline-lookup.ts): REST and GraphQL on the
// service, on the design's core, and REST on the service counting its limits in Redis.
import type { Scenario } from '../load.js';
import type { Bench } from '../services.js';
import { type AutocannonRequest, base, graphqlRequest, operation } from './requests.js';

export function lookupScenarios(bench: Bench): Scenario[] {
  const { lookupConnections } = bench.settings;
  const { partnerKey, randomLocator } = bench.workload;
  const lookupDocument = operation('lookupCustomer');
  const lookupPath = (key: string) =>
    `/v1/lookup-customer.php?key=${key}&customerLocator=${encodeURIComponent(randomLocator())}`;
  // Every process answers the same lookups: the bare code, the service and the design's core, all with
  // the partner key; one row sends each with one of partner 1's 250 store keys (the odd ones, none
  // revoked) picked at random, so that almost no two lookups under way share a key (src/db/turnBatches.ts).
  const restLookupsWith = (key: () => string) => (port: number) => ({
    ...base(bench, port, lookupConnections),
    requests: [
      {
        method: 'GET' as const,
        setupRequest: (request: AutocannonRequest) => ({ ...request, path: lookupPath(key()) }),
      },
    ],
  });
  const restLookups = restLookupsWith(() => partnerKey);
  const restLookupsOverStoreKeys = restLookupsWith(() => `bench-store-key-${2 * Math.floor(Math.random() * 250) + 1}`);
  const graphqlLookups = (port: number) => ({
    ...base(bench, port, lookupConnections),
    requests: [graphqlRequest(bench, lookupDocument, () => ({ locator: randomLocator(), withDescription: false }))],
  });
  const lookup = { baseline: 'baseline-lookup-customer', connections: lookupConnections, inTurns: true };
  return [
    {
      name: 'baseline-lookup-customer',
      label: 'baseline: express + pg lookup',
      target: 'baseline',
      connections: lookupConnections,
      inTurns: true,
      options: restLookups,
    },
    { name: 'rest-lookup-customer', label: 'REST lookup-customer', target: 'service', ...lookup, options: restLookups },
    {
      name: 'rest-lookup-customer-store-keys',
      label: 'REST lookup-customer (250 keys)',
      target: 'service',
      ...lookup,
      options: restLookupsOverStoreKeys,
    },
    {
      name: 'redis-rest-lookup-customer',
      label: 'REST lookup-customer (limits in Redis)',
      target: 'redis',
      ...lookup,
      options: restLookups,
    },
    {
      name: 'core-rest-lookup-customer',
      label: 'REST lookup-customer (core)',
      target: 'core',
      ...lookup,
      options: restLookups,
    },
    {
      name: 'graphql-lookup-customer',
      label: 'GraphQL customer(locator)',
      target: 'service',
      ...lookup,
      graphql: true,
      options: graphqlLookups,
    },
    {
      name: 'core-graphql-lookup-customer',
      label: 'GraphQL customer(locator) (core)',
      target: 'core',
      ...lookup,
      graphql: true,
      options: graphqlLookups,
    },
  ];
}
