// What operations put in front of both doors, in one router mounted first by createApp: request
// metrics, security headers, the query-string limit, the health and metrics endpoints, and CORS on
// /graphql.
import express, { type Router } from 'express';
import type { Db } from '../db/knex.js';
import type { ReadReplica } from '../db/replica.js';
import { allowOnly, READ_METHODS } from '../http/errorResponses.js';
import { GRAPHQL_PATH, isGraphqlPath } from '../http/graphqlDoor.js';
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
  // /graphql is a mount, not an express route: name it (the door itself, not what lies under the
  // mount) for the metrics and the headers.
  const labelGraphql = labelRoute(GRAPHQL_PATH);
  router.use(GRAPHQL_PATH, (req, res, next) => (isGraphqlPath(req) ? labelGraphql(req, res, next) : next()));
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
  // Before the door's 405: CORS answers a dashboard's preflight (OPTIONS) itself.
  if (cors) router.use(GRAPHQL_PATH, cors);
  return router;
}
