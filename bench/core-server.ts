// The bench's measure of what the design itself costs: the service's own doors with none of the layers
// operations add to every request (bench/core.ts, its own list of layers: the request limits counted in
// this process's memory, nothing else); with BENCH_LAYERS, the service's own layers whole or without
// one (the profile of the layers, scenarios/layers.ts). Measured in turns beside the bare code and the whole service
// (bench/run.ts), it says how much of a door's gap to its bare baseline is the design and how much is
// those layers. Configured as main.ts is, from the environment; no migration, no background work
// (webhook deliveries, event retention).

import type { AddressInfo } from 'node:net';
import { appDepsOf, createApp } from '../src/app.js';
import { loadConfigOrExit } from '../src/cli/run.js';
import { openDatabase } from '../src/db/open.js';
import { createLogger } from '../src/kernel/logger.js';
import { createHttpServer } from '../src/ops/httpLimits.js';
import { benchLayers } from './core.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel);
const db = openDatabase(config, logger, { statementTimeoutMs: config.databaseStatementTimeoutMs });

// The service's own settings, and the core's layers (or those BENCH_LAYERS names) instead of the service's.
const deps = appDepsOf(config, { db, logger });
const layers = benchLayers(process.env.BENCH_LAYERS, deps, {
  corsOrigins: config.corsOrigins,
  rateLimitStore: { redisUrl: config.redisUrl, redisReserve: config.redisReserve },
});
const { app, stop } = await createApp(deps, layers);
const server = createHttpServer(app, config.requestTimeoutMs).listen(config.port, config.host, () => {
  process.stdout.write(`core listening on ${config.host}:${(server.address() as AddressInfo).port}\n`);
});
const shutdown = () => server.close(() => void stop().then(() => db.destroy().then(() => process.exit(0))));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
