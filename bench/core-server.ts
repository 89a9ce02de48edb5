// The bench's measure of what the design itself costs: the service's own doors (the REST shim over the
// GraphQL pipeline, /graphql, the context and its loaders, the resolvers and domain modules, the same
// statements) with none of the layers operations add to every request (createApp's `coreOnly`: no
// request log, request metrics, security headers, query-string limit or GraphQL cost, ceiling and
// tracing plugins; the request limits counted in this process's memory, not in Postgres). Measured in
// turns beside the bare code and the whole service (bench/run.ts), it says how much of a door's gap to
// its bare baseline is the design and how much is those layers. Configured as main.ts is, from the
// environment; no migration, no background work (webhook deliveries, event retention).

import type { AddressInfo } from 'node:net';
import { appDepsOf, createApp } from '../src/app.js';
import { loadConfigOrExit } from '../src/cli/run.js';
import { openDatabase } from '../src/db/open.js';
import { createLogger } from '../src/logger.js';
import { createHttpServer } from '../src/ops/limits.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);
const db = openDatabase(config, logger, { statementTimeoutMs: config.databaseStatementTimeoutMs });

// The service's own settings (REDIS_URL included: coreOnly counts the limits in memory whatever it says).
const { app, stop } = await createApp({ ...appDepsOf(config, { db, logger }), coreOnly: true });
const server = createHttpServer(app, config.requestTimeoutMs).listen(config.port, config.host, () => {
  process.stdout.write(`core listening on ${config.host}:${(server.address() as AddressInfo).port}\n`);
});
const shutdown = () => server.close(() => void stop().then(() => db.destroy().then(() => process.exit(0))));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
