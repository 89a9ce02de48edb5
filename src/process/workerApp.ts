// What a worker (--role worker) serves: /healthz, /readyz and /metrics, and 404 anywhere else
// (decisions.md 27). No door, no GraphQL schema: the same operations router the API mounts first, with
// the request log in front of it.
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { Logger } from 'pino';
import type { Db } from '../db/knex.js';
import type { ReadReplica } from '../db/replica.js';
import { sendDoorError } from '../http/errorResponses.js';
import { AppError } from '../kernel/errors.js';
import { createOperationsRouter } from '../ops/router.js';
import { logRequests } from '../serviceLayers.js';

interface WorkerApp {
  app: express.Express;
  /** From now on /readyz answers 503 "draining". */
  startDraining: () => void;
}

export function createWorkerApp(deps: {
  db: Db;
  replica?: ReadReplica;
  logger: Logger;
  production: boolean;
}): WorkerApp {
  let draining = false;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((_req, res, next) => {
    res.locals.requestId = randomUUID();
    next();
  });
  app.use(logRequests(deps.logger));
  app.use(
    createOperationsRouter({
      db: deps.db,
      replica: deps.replica,
      production: deps.production,
      corsOrigins: [],
      draining: () => draining,
    }),
  );
  app.use((req, res) => {
    sendDoorError(req, res, new AppError('RESOURCE_NOT_FOUND', `no endpoint ${req.method} ${req.path} on a worker`));
  });
  return {
    app,
    startDraining: () => {
      draining = true;
    },
  };
}
