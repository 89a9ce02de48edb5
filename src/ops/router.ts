// What operations put in front of both doors, in one middleware mounted first by createApp: request
// metrics, security headers, the query-string limit, the health and metrics endpoints, and CORS on
// /graphql.
import express, { type RequestHandler } from 'express';
import type { Db } from '../db/knex.js';
import type { ReadReplica } from '../db/replica.js';
import { allowOnly, READ_METHODS } from '../http/errorResponses.js';
import { GRAPHQL_PATH, isGraphqlPath } from '../http/graphqlDoor.js';
import { graphqlCors, securityHeaders } from './headers.js';
import { serveLiveness, serveReadiness } from './health.js';
import { refusedLongQueryString } from './httpLimits.js';
import { countRequest, serveMetrics } from './metrics.js';

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

/**
 * What operations do to every request (count it, name /graphql's route, set the security headers,
 * refuse a long query string) in one function, not a router of its own: express's dispatch through a
 * nested router costs every request more than all four. Its endpoints (/healthz, /readyz, /metrics,
 * and CORS on /graphql) are a router entered only by a path that may be one of them.
 */
export function createOperationsRouter(options: OperationsOptions): RequestHandler {
  const setSecurityHeaders = securityHeaders({ production: options.production });
  const endpoints = express.Router();
  // No auth: they say nothing about any tenant. Keep /metrics off the public internet all the same.
  // GET answers HEAD too; any other method is 405.
  endpoints.route('/healthz').get(serveLiveness).all(allowOnly('/healthz', READ_METHODS));
  endpoints
    .route('/readyz')
    .get(
      serveReadiness(options.db, {
        draining: options.draining,
        rateLimitStore: options.rateLimitStore,
        replica: options.replica,
      }),
    )
    .all(allowOnly('/readyz', READ_METHODS));
  endpoints.route('/metrics').get(serveMetrics(options.db, options.replica)).all(allowOnly('/metrics', READ_METHODS));
  const cors = graphqlCors(options.corsOrigins);
  // Before the door's 405: CORS answers a dashboard's preflight (OPTIONS) itself.
  if (cors) endpoints.use(GRAPHQL_PATH, cors);
  // A path the endpoints may match (express matches them case-insensitively, with or without a
  // trailing slash, /graphql's mount with what lies under it): anything else never enters the router.
  const mayBeEndpoint = cors ? /^\/(?:healthz|readyz|metrics|graphql)/i : /^\/(?:healthz|readyz|metrics)/i;
  return (req, res, next) => {
    countRequest(req, res);
    // /graphql is a mount, not an express route: name it (the door itself, not what lies under the
    // mount) for the metrics and the headers.
    if (isGraphqlPath(req)) res.locals.route = GRAPHQL_PATH;
    setSecurityHeaders(req, res);
    if (refusedLongQueryString(req, res)) return;
    if (mayBeEndpoint.test(req.path)) endpoints(req, res, next);
    else next();
  };
}
