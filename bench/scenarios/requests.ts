// What the scenarios' requests share: autocannon's options for a port, a GraphQL POST of an operation
// with fresh variables per request, and the REST door's own operation documents.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import type { Bench } from '../services.js';
import { ROOT } from '../settings.js';

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

export const graphqlRequest = (bench: Bench, query: string, variables: () => Record<string, unknown>) => ({
  method: 'POST' as const,
  path: '/graphql',
  headers: { 'content-type': 'application/json', 'x-api-key': bench.workload.partnerKey },
  setupRequest: (request: AutocannonRequest) => ({
    ...request,
    body: JSON.stringify({ query, variables: variables() }),
  }),
});
