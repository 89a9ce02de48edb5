// What the scenarios' requests share: autocannon's options for a port, a GraphQL POST of an operation
// with fresh variables per request, and the REST door's own operation documents.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import type { Bench } from '../services.js';
import { ROOT } from '../settings.js';
import { tillFleet } from '../workload.js';

/** A request autocannon hands to setupRequest, to return changed. */
export type AutocannonRequest = autocannon.Request;

/** One of the REST door's operations (src/rest/operations/<file>.graphql), sent to /graphql as it is. */
export const operation = (file: string) => readFileSync(join(ROOT, 'src/rest/operations', `${file}.graphql`), 'utf8');

export const base = (bench: Bench, port: number, connections: number) => ({
  url: `http://127.0.0.1:${port}`,
  connections,
  duration: bench.settings.duration,
  timeout: 30,
});

export const graphqlRequest = (
  bench: Bench,
  query: string,
  variables: () => Record<string, unknown>,
  keys: Keys = 'one key',
) => ({
  method: 'POST' as const,
  path: '/graphql',
  ...keyedRequest(bench, keys, (request, key) => ({
    ...request,
    headers: { ...request.headers, 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ query, variables: variables() }),
  })),
});

/** A request's key: one key for every request, or a fleet of tills (workload.ts) built afresh per run. */
export type Keys = 'one key' | 'fleet';

/**
 * A request whose key comes from `keys`: `build` makes the request for its key. With a fleet, the
 * request takes an idle till's key and gives it back with the answer (autocannon hands the same
 * context to a request's setupRequest and to its onResponse).
 */
export function keyedRequest(
  bench: Bench,
  keys: Keys,
  build: (request: AutocannonRequest, key: string) => AutocannonRequest,
  oneKey = bench.workload.partnerKey,
): Pick<AutocannonRequest, 'setupRequest' | 'onResponse'> {
  if (keys === 'one key') return { setupRequest: (request) => build(request, oneKey) };
  const fleet = tillFleet(bench.workload.storeKeys);
  return {
    setupRequest: (request, context) => {
      const key = fleet.take();
      (context as { till?: string }).till = key;
      return build(request, key);
    },
    onResponse: (_status, _body, context) => {
      const { till } = context as { till?: string };
      if (till) fleet.giveBack(till);
    },
  };
}
