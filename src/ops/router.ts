// What operations put in front of both doors, in one router mounted first by createApp: request
// metrics, security headers, the query-string limit, the health and metrics endpoints, and CORS on
// /graphql.
import express, { type Router } from 'express';
import type { Db } from '../db/knex.js';
import { graphqlCors, securityHeaders } from './headers.js';
import { serveLiveness, serveReadiness } from './health.js';
import { refuseLongQueryStrings } from './limits.js';
import { countRequests, labelRoute, serveMetrics } from './metrics.js';

export interface OperationsOptions {
  db: Db;
  production: boolean;
  /** Exact origins allowed to call /graphql from a browser; none: no CORS headers. */
  corsOrigins: readonly string[];
}

export function createOperationsRouter(options: OperationsOptions): Router {
  const router = express.Router();
  router.use(countRequests);
  // /graphql is a mount, not an express route: name it for the metrics and the headers.
  router.use('/graphql', labelRoute('/graphql'));
  router.use(securityHeaders({ production: options.production }));
  router.use(refuseLongQueryStrings);
  // No auth: they say nothing about any tenant. Keep /metrics off the public internet all the same.
  router.get('/healthz', serveLiveness);
  router.get('/readyz', serveReadiness(options.db));
  router.get('/metrics', serveMetrics(options.db));
  const cors = graphqlCors(options.corsOrigins);
  if (cors) router.use('/graphql', cors);
  return router;
}
