// What operations put in front of both doors, in one router mounted first by createApp: request
// metrics, security headers, the query-string limit, the health and metrics endpoints, and CORS and
// the allowed methods on /graphql.
import express, { type Router } from 'express';
import type { Db } from '../db/knex.js';
import type { ReadReplica } from '../db/replica.js';
import { exactGraphqlPath } from '../http/graphqlEdges.js';
import { allowOnly, READ_METHODS } from './doorErrors.js';
import { graphqlCors, securityHeaders } from './headers.js';
import { serveLiveness, serveReadiness } from './health.js';
import { refuseLongQueryStrings } from './httpLimits.js';
import { countRequests, labelRoute, serveMetrics } from './metrics.js';

interface OperationsOptions {
  db: Db;
  /** The read replica, reported by /readyz and /metrics; absent: none. */
  replica?: ReadReplica;
  production: boolean;
  /** Exact origins allowed to call /graphql from a browser; none: no CORS headers. */
  corsOrigins: readonly string[];
  /** True once the process is draining (SIGTERM): /readyz answers 503. */
  draining?: () => boolean;
  /** Where the request limits are counted now, for /readyz (RequestLimiter.storeStatus). */
  rateLimitStore?: () => string;
}

export function createOperationsRouter(options: OperationsOptions): Router {
  const router = express.Router();
  router.use(countRequests);
  // Only /graphql itself is the door: Express's mounts would also take /graphql/, /graphql/foo, /GRAPHQL.
  router.use('/graphql', exactGraphqlPath);
  // /graphql is a mount, not an express route: name it for the metrics and the headers.
  router.use('/graphql', labelRoute('/graphql'));
  router.use(securityHeaders({ production: options.production }));
  router.use(refuseLongQueryStrings);
  // No auth: they say nothing about any tenant. Keep /metrics off the public internet all the same.
  // GET answers HEAD too; any other method is 405.
  router.route('/healthz').get(serveLiveness).all(allowOnly('/healthz', READ_METHODS));
  router
    .route('/readyz')
    .get(
      serveReadiness(options.db, {
        draining: options.draining,
        rateLimitStore: options.rateLimitStore,
        replica: options.replica,
      }),
    )
    .all(allowOnly('/readyz', READ_METHODS));
  router.route('/metrics').get(serveMetrics(options.db, options.replica)).all(allowOnly('/metrics', READ_METHODS));
  const cors = graphqlCors(options.corsOrigins);
  if (cors) router.use('/graphql', cors);
  // After CORS, which answers a dashboard's preflight (OPTIONS) itself.
  router.use('/graphql', allowOnly('/graphql', ['GET', 'POST']));
  return router;
}
